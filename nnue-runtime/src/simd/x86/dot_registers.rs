//! What the x86 [`Dot`](crate::simd::Dot) implementations share: the
//! methods that depend only on the register width (`dot_registers!`), and
//! the 256-bit horizontal sum and non-zero mask they call.

use core::arch::x86_64::*;

/// The methods of a [`crate::simd::Dot`] implementation that depend only on
/// the register width (`256` or `512`): everything but the dot products.
macro_rules! dot_registers {
    (256) => {
        type S = __m256i;
        const LANES: usize = 8;
        #[inline(always)]
        unsafe fn zero() -> __m256i {
            // SAFETY: the caller guarantees AVX2.
            unsafe { _mm256_setzero_si256() }
        }
        #[inline(always)]
        unsafe fn load(p: *const i32) -> __m256i {
            // SAFETY: the caller guarantees 8 readable lanes and AVX2.
            unsafe { _mm256_loadu_si256(p.cast()) }
        }
        #[inline(always)]
        unsafe fn store(p: *mut i32, v: __m256i) {
            // SAFETY: the caller guarantees 8 writable lanes and AVX2.
            unsafe { _mm256_storeu_si256(p.cast(), v) }
        }
        #[inline(always)]
        unsafe fn add(a: __m256i, b: __m256i) -> __m256i {
            // SAFETY: the caller guarantees AVX2.
            unsafe { _mm256_add_epi32(a, b) }
        }
        #[inline(always)]
        unsafe fn screlu_dot(acc: __m256i, x: *const u8, w: *const i16, max: i16) -> __m256i {
            // SAFETY: the caller guarantees 16 readable bytes at `x`, 16
            // readable weights at `w`, and AVX2.
            unsafe {
                let m = _mm256_min_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128(x.cast())), _mm256_set1_epi16(max));
                let products = _mm256_mullo_epi16(m, _mm256_loadu_si256(w.cast()));
                _mm256_add_epi32(acc, _mm256_madd_epi16(products, m))
            }
        }
        #[inline(always)]
        unsafe fn screlu_dot_i16(acc: __m256i, x: *const i16, w: *const i16, max: i16) -> __m256i {
            // SAFETY: the caller guarantees 16 readable lanes at `x` and at
            // `w`, and AVX2.
            unsafe {
                let x = _mm256_loadu_si256(x.cast());
                let m = _mm256_min_epi16(_mm256_max_epi16(x, _mm256_setzero_si256()), _mm256_set1_epi16(max));
                let products = _mm256_mullo_epi16(m, _mm256_loadu_si256(w.cast()));
                _mm256_add_epi32(acc, _mm256_madd_epi16(products, m))
            }
        }
        #[inline(always)]
        unsafe fn screlu_dot_i16_pair(
            (a, b): (__m256i, __m256i),
            (xa, wa): (*const i16, *const i16),
            (xb, wb): (*const i16, *const i16),
            max: i16,
        ) -> (__m256i, __m256i) {
            if max != 255 {
                // SAFETY: the caller's guarantees are screlu_dot_i16's.
                return unsafe { (Self::screlu_dot_i16(a, xa, wa, max), Self::screlu_dot_i16(b, xb, wb, max)) };
            }
            // SAFETY: the caller guarantees 16 readable lanes at each of
            // `xa`, `wa`, `xb` and `wb`, and AVX2.
            unsafe {
                // One saturating pack clamps both inputs to 0..=255: each
                // 128-bit half holds 8 of `xa`'s lanes then 8 of `xb`'s, so
                // widening the low and high bytes of each half gives the
                // clamped lanes back in their own order.
                let packed = _mm256_packus_epi16(_mm256_loadu_si256(xa.cast()), _mm256_loadu_si256(xb.cast()));
                let ma = _mm256_unpacklo_epi8(packed, _mm256_setzero_si256());
                let mb = _mm256_unpackhi_epi8(packed, _mm256_setzero_si256());
                let pa = _mm256_mullo_epi16(ma, _mm256_loadu_si256(wa.cast()));
                let pb = _mm256_mullo_epi16(mb, _mm256_loadu_si256(wb.cast()));
                (_mm256_add_epi32(a, _mm256_madd_epi16(pa, ma)), _mm256_add_epi32(b, _mm256_madd_epi16(pb, mb)))
            }
        }
        #[inline(always)]
        unsafe fn dot2_i16(acc: __m256i, pair: u32, w: *const i16) -> __m256i {
            // SAFETY: the caller guarantees 16 readable weights and AVX2.
            // With VNNI, LLVM fuses the multiply-add and the addition into
            // one `vpdpwssd`.
            unsafe { _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_set1_epi32(pair as i32), _mm256_loadu_si256(w.cast()))) }
        }
        #[inline(always)]
        unsafe fn hsum(v: __m256i) -> i32 {
            // SAFETY: the caller guarantees AVX2.
            unsafe { $crate::simd::x86::dot_registers::hsum256(v) }
        }
        #[inline(always)]
        unsafe fn nonzero_mask(p: *const u8) -> u32 {
            // SAFETY: the caller guarantees 32 readable bytes and AVX2.
            unsafe { $crate::simd::x86::dot_registers::nonzero_mask256(p) }
        }
    };
    (512) => {
        type S = __m512i;
        const LANES: usize = 16;
        #[inline(always)]
        unsafe fn index_words(p: *const u16) -> [u64; 4] {
            // SAFETY: the caller guarantees 32 readable bytes and AVX2.
            // Through vector registers: addresses from words loaded into
            // general registers made the column loop slower (Zen 5). The
            // empty `asm!` hides where the registers came from, or LLVM
            // turns the extracts back into loads of the words.
            unsafe {
                let (mut low, mut high) = (_mm_loadu_si128(p.cast()), _mm_loadu_si128(p.add(8).cast()));
                core::arch::asm!("/* {0} {1} */", inout(xmm_reg) low, inout(xmm_reg) high, options(pure, nomem, nostack, preserves_flags));
                [_mm_cvtsi128_si64(low), _mm_extract_epi64::<1>(low), _mm_cvtsi128_si64(high), _mm_extract_epi64::<1>(high)]
                    .map(|word| word as u64)
            }
        }
        #[inline(always)]
        unsafe fn zero() -> __m512i {
            // SAFETY: the caller guarantees AVX-512F.
            unsafe { _mm512_setzero_si512() }
        }
        #[inline(always)]
        unsafe fn load(p: *const i32) -> __m512i {
            // SAFETY: the caller guarantees 16 readable lanes and AVX-512F.
            unsafe { _mm512_loadu_si512(p.cast()) }
        }
        #[inline(always)]
        unsafe fn store(p: *mut i32, v: __m512i) {
            // SAFETY: the caller guarantees 16 writable lanes and AVX-512F.
            unsafe { _mm512_storeu_si512(p.cast(), v) }
        }
        #[inline(always)]
        unsafe fn add(a: __m512i, b: __m512i) -> __m512i {
            // SAFETY: the caller guarantees AVX-512F.
            unsafe { _mm512_add_epi32(a, b) }
        }
        #[inline(always)]
        unsafe fn screlu_dot(acc: __m512i, x: *const u8, w: *const i16, max: i16) -> __m512i {
            // SAFETY: the caller guarantees 32 readable bytes at `x`, 32
            // readable weights at `w`, and AVX-512 F/BW.
            unsafe {
                let m = _mm512_min_epi16(_mm512_cvtepu8_epi16(_mm256_loadu_si256(x.cast())), _mm512_set1_epi16(max));
                let products = _mm512_mullo_epi16(m, _mm512_loadu_si512(w.cast()));
                _mm512_add_epi32(acc, _mm512_madd_epi16(products, m))
            }
        }
        #[inline(always)]
        unsafe fn screlu_dot_i16(acc: __m512i, x: *const i16, w: *const i16, max: i16) -> __m512i {
            // SAFETY: the caller guarantees 32 readable lanes at `x` and at
            // `w`, and AVX-512 F/BW.
            unsafe {
                let x = _mm512_loadu_si512(x.cast());
                let m = _mm512_min_epi16(_mm512_max_epi16(x, _mm512_setzero_si512()), _mm512_set1_epi16(max));
                let products = _mm512_mullo_epi16(m, _mm512_loadu_si512(w.cast()));
                _mm512_add_epi32(acc, _mm512_madd_epi16(products, m))
            }
        }
        #[inline(always)]
        unsafe fn dot2_i16(acc: __m512i, pair: u32, w: *const i16) -> __m512i {
            // SAFETY: the caller guarantees 32 readable weights and AVX-512
            // F/BW. With VNNI, LLVM fuses the multiply-add and the addition
            // into one `vpdpwssd`.
            unsafe { _mm512_add_epi32(acc, _mm512_madd_epi16(_mm512_set1_epi32(pair as i32), _mm512_loadu_si512(w.cast()))) }
        }
        #[inline(always)]
        unsafe fn hsum(v: __m512i) -> i32 {
            // SAFETY: the caller guarantees AVX-512F.
            unsafe { _mm512_reduce_add_epi32(v) }
        }
        #[inline(always)]
        unsafe fn nonzero_mask(p: *const u8) -> u32 {
            // SAFETY: the caller guarantees 64 readable bytes and AVX-512F.
            unsafe {
                let v = _mm512_loadu_si512(p.cast());
                u32::from(_mm512_test_epi32_mask(v, v))
            }
        }
        const COMPRESS: bool = true;
        #[inline(always)]
        unsafe fn nonzero_entries(p: *const u8, first: u16, out: *mut u16, values: *mut u32) -> usize {
            // SAFETY: the caller guarantees 64 readable bytes at `p`, 16
            // writable entries at `out` and at `values`, and AVX-512F.
            unsafe {
                let v = _mm512_loadu_si512(p.cast());
                let mask = _mm512_test_epi32_mask(v, v);
                let lanes = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
                let indices = _mm512_add_epi32(_mm512_set1_epi32(i32::from(first)), lanes);
                // The register form of the compress (the memory form is
                // microcoded on Zen 4), then one store of all 16 entries.
                let packed = _mm512_maskz_compress_epi32(mask, indices);
                _mm256_storeu_si256(out.cast(), _mm512_cvtepi32_epi16(packed));
                _mm512_storeu_si512(values.cast(), _mm512_maskz_compress_epi32(mask, v));
                mask.count_ones() as usize
            }
        }
    };
}

/// Horizontal sum of eight i32 lanes.
///
/// # Safety
/// The CPU supports AVX2.
#[inline(always)]
pub(super) unsafe fn hsum256(v: __m256i) -> i32 {
    // SAFETY: the caller guarantees AVX2 (which includes SSE2).
    unsafe {
        let s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }
}

/// Bit `l` set when i32 lane `l` of the 32 bytes at `p` is not zero, for
/// bytes of at most 127.
///
/// # Safety
/// `p` is valid for 32 reads; the CPU supports AVX2.
#[inline(always)]
pub(super) unsafe fn nonzero_mask256(p: *const u8) -> u32 {
    // SAFETY: the caller guarantees 32 readable bytes and AVX2.
    unsafe {
        // Affine inputs are at most 127 (the `Dot` contract), so a chunk
        // read as an i32 is positive exactly when it is not zero.
        let positive = _mm256_cmpgt_epi32(_mm256_loadu_si256(p.cast()), _mm256_setzero_si256());
        _mm256_movemask_ps(_mm256_castsi256_ps(positive)) as u32
    }
}
