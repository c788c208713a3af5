//! Activations on SSE2 (the x86-64 baseline, so no detection is needed):
//! eight i32 values to eight bytes per step, in order; and on AVX2 and
//! AVX-512, thirty-two (or sixteen) per step.

use crate::simd::Activation;
use core::arch::x86_64::*;

/// `out[i] = clamp(input[i] >> SHIFT, 0, max)`, equal to
/// [`crate::scalar::clipped_relu`]. `N` must be a multiple of 8 and `max` at
/// most 127 (the i32 -> i16 pack saturates, which the clamp then hides).
pub fn clipped_relu<const N: usize, const SHIFT: i32>(input: &[i32; N], max: i16, out: &mut [u8; N]) {
    const { assert!(N.is_multiple_of(8)) };
    assert!((0..=127).contains(&max));
    for (src, dst) in input.chunks_exact(8).zip(out.chunks_exact_mut(8)) {
        // SAFETY: SSE2 is part of x86-64; the loads read 8 i32 of `src` and
        // the store writes 8 bytes of `dst`.
        unsafe {
            let a = _mm_srai_epi32::<SHIFT>(_mm_loadu_si128(src.as_ptr().cast()));
            let b = _mm_srai_epi32::<SHIFT>(_mm_loadu_si128(src.as_ptr().add(4).cast()));
            let words = _mm_min_epi16(_mm_max_epi16(_mm_packs_epi32(a, b), _mm_setzero_si128()), _mm_set1_epi16(max));
            _mm_storel_epi64(dst.as_mut_ptr().cast(), _mm_packus_epi16(words, words));
        }
    }
}

/// `out[i] = min((input[i]^2) >> (16 + SHIFT_AFTER_16), max)`, equal to
/// [`crate::scalar::sqr_clipped_relu`] when `32767^2 >> (16 + SHIFT_AFTER_16)`
/// is at least `max` (values saturated to i16 still reach `max`). `N` must be
/// a multiple of 8 and `max` at most 127.
pub fn sqr_clipped_relu<const N: usize, const SHIFT_AFTER_16: i32>(input: &[i32; N], max: i16, out: &mut [u8; N]) {
    const { assert!(N.is_multiple_of(8)) };
    assert!((0..=127).contains(&max) && (32767i64 * 32767) >> (16 + SHIFT_AFTER_16) >= i64::from(max));
    for (src, dst) in input.chunks_exact(8).zip(out.chunks_exact_mut(8)) {
        // SAFETY: SSE2 is part of x86-64; the loads read 8 i32 of `src` and
        // the store writes 8 bytes of `dst`.
        unsafe {
            let a = _mm_loadu_si128(src.as_ptr().cast());
            let b = _mm_loadu_si128(src.as_ptr().add(4).cast());
            let words = _mm_packs_epi32(a, b);
            let squares = _mm_srli_epi16::<SHIFT_AFTER_16>(_mm_mulhi_epi16(words, words));
            let words = _mm_min_epi16(squares, _mm_set1_epi16(max));
            _mm_storel_epi64(dst.as_mut_ptr().cast(), _mm_packus_epi16(words, words));
        }
    }
}

/// The activations above, on every x86-64 CPU.
pub struct SseActivations;

// SAFETY: SSE2 is part of x86-64.
unsafe impl crate::simd::Activations for SseActivations {
    #[inline(always)]
    unsafe fn clipped_relu<const N: usize, const SHIFT: i32>(input: &[i32; N], max: i16, out: &mut [u8; N]) {
        clipped_relu::<N, SHIFT>(input, max, out)
    }
    #[inline(always)]
    unsafe fn sqr_clipped_relu<const N: usize, const SHIFT_AFTER_16: i32>(
        input: &[i32; N],
        max: i16,
        out: &mut [u8; N],
    ) {
        sqr_clipped_relu::<N, SHIFT_AFTER_16>(input, max, out)
    }
}

/// The activations with AVX2: 32 values per step in four 256-bit registers
/// (16 where the width is a multiple of 16 but not of 32), packed to 16-bit
/// lanes, clamped, packed to bytes, and the pack's 128-bit interleaving
/// undone with one permute of 32-bit groups; the SSE2 steps otherwise.
pub struct Avx2Activations;

/// The bytes of `_mm256_packus_epi16(w0, w1)`, where `w0` and `w1` are each
/// `_mm256_packs_epi32` of two registers of eight values (`a0, a1` and
/// `a2, a3`), in the order of `a0, a1, a2, a3`: the packs interleave their
/// inputs per 128-bit lane, leaving the 32-bit groups (four values each)
/// as `a0[0..4], a1[0..4], a2[0..4], a3[0..4], a0[4..8], ...`.
#[inline(always)]
unsafe fn avx2_bytes_in_order(w0: __m256i, w1: __m256i) -> __m256i {
    // SAFETY: the caller guarantees AVX2.
    unsafe { _mm256_permutevar8x32_epi32(_mm256_packus_epi16(w0, w1), _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)) }
}

/// `clamp(w, 0, max)` lane by lane.
///
/// # Safety
/// The CPU supports AVX2.
#[inline(always)]
unsafe fn avx2_clamp(w: __m256i, max: i16) -> __m256i {
    // SAFETY: the caller guarantees AVX2.
    unsafe { _mm256_min_epi16(_mm256_max_epi16(w, _mm256_setzero_si256()), _mm256_set1_epi16(max)) }
}

/// `f` of the sixteen values at `p` as 16-bit lanes, in the order of
/// `_mm256_packs_epi32`: values `0..4, 8..12` in the low 128-bit lane,
/// `4..8, 12..16` in the high one. The shifts take their counts from a
/// register, so a constant `f` (inlined) costs nothing more than
/// immediate shifts.
///
/// # Safety
/// `p` is readable for sixteen i32; the CPU supports AVX2.
#[inline(always)]
unsafe fn avx2_words(f: Activation, p: *const i32) -> __m256i {
    // SAFETY: the caller guarantees the reads and AVX2.
    unsafe {
        let (a, b) = (_mm256_loadu_si256(p.cast()), _mm256_loadu_si256(p.add(8).cast()));
        match f {
            Activation::Clipped { shift, max } => {
                let shift = _mm_cvtsi32_si128(shift);
                avx2_clamp(_mm256_packs_epi32(_mm256_sra_epi32(a, shift), _mm256_sra_epi32(b, shift)), max)
            }
            Activation::Square { shift_after_16, max } => {
                let words = _mm256_packs_epi32(a, b);
                let squares = _mm256_srl_epi16(_mm256_mulhi_epi16(words, words), _mm_cvtsi32_si128(shift_after_16));
                _mm256_min_epi16(squares, _mm256_set1_epi16(max))
            }
        }
    }
}

/// `f` of `input` in order: 32 values per step, or 16 where `N` is a
/// multiple of 16 but not of 32.
///
/// # Safety
/// `N` is a multiple of 16; the CPU supports AVX2.
#[inline(always)]
unsafe fn avx2_in_order<const N: usize>(f: Activation, input: &[i32; N], out: &mut [u8; N]) {
    // SAFETY (every path): the loads read `input` sixteen values at a
    // time, the stores write as many bytes of `out` at the same offsets;
    // the caller guarantees AVX2.
    unsafe {
        if N.is_multiple_of(32) {
            for (src, dst) in input.chunks_exact(32).zip(out.chunks_exact_mut(32)) {
                let p = src.as_ptr();
                _mm256_storeu_si256(
                    dst.as_mut_ptr().cast(),
                    avx2_bytes_in_order(avx2_words(f, p), avx2_words(f, p.add(16))),
                );
            }
        } else {
            for (src, dst) in input.chunks_exact(16).zip(out.chunks_exact_mut(16)) {
                let w = avx2_words(f, src.as_ptr());
                _mm_storeu_si128(dst.as_mut_ptr().cast(), _mm256_castsi256_si128(avx2_bytes_in_order(w, w)));
            }
        }
    }
}

// SAFETY: every method uses AVX2 (or SSE2) only; callers guarantee them.
unsafe impl crate::simd::Activations for Avx2Activations {
    #[inline(always)]
    unsafe fn clipped_relu<const N: usize, const SHIFT: i32>(input: &[i32; N], max: i16, out: &mut [u8; N]) {
        let f = Activation::Clipped { shift: SHIFT, max };
        check_activation(f);
        if N.is_multiple_of(16) {
            // SAFETY: `N` is a multiple of 16; the caller guarantees AVX2.
            unsafe { avx2_in_order(f, input, out) }
        } else {
            clipped_relu::<N, SHIFT>(input, max, out)
        }
    }
    #[inline(always)]
    unsafe fn sqr_clipped_relu<const N: usize, const SHIFT_AFTER_16: i32>(
        input: &[i32; N],
        max: i16,
        out: &mut [u8; N],
    ) {
        let f = Activation::Square { shift_after_16: SHIFT_AFTER_16, max };
        check_activation(f);
        if N.is_multiple_of(16) {
            // SAFETY: as above.
            unsafe { avx2_in_order(f, input, out) }
        } else {
            sqr_clipped_relu::<N, SHIFT_AFTER_16>(input, max, out)
        }
    }
}

impl Avx2Activations {
    /// `f` of `input` as bytes in the packs' order, which the permute of
    /// [`Self::clipped_relu`] would undo: in every 32 bytes, the four-byte
    /// chunks hold the values of chunks `0, 2, 4, 6, 1, 3, 5, 7` in order
    /// ([`crate::kernels::layout::avx2_packed_order`]). For a layer whose
    /// weights are laid out for it ([`crate::params::Affine::order_inputs`]).
    /// `N` must be a multiple of 32, `f`'s maximum at most 127 and a
    /// square's shift one whose 16-bit high product reaches it.
    ///
    /// # Safety
    /// The CPU supports AVX2.
    #[inline(always)]
    pub unsafe fn packed<const N: usize>(f: Activation, input: &[i32; N], out: &mut [u8; N]) {
        const { assert!(N.is_multiple_of(32)) };
        check_activation(f);
        for (src, dst) in input.chunks_exact(32).zip(out.chunks_exact_mut(32)) {
            // SAFETY: the loads read the 32 i32 of `src`, the store writes
            // the 32 bytes of `dst`; the caller guarantees AVX2.
            unsafe {
                let p = src.as_ptr();
                _mm256_storeu_si256(
                    dst.as_mut_ptr().cast(),
                    _mm256_packus_epi16(avx2_words(f, p), avx2_words(f, p.add(16))),
                );
            }
        }
    }

    /// `fa` of `a` and `fb` of `b` (sixteen values each) as 32 bytes with
    /// one pack: chunks `0, 2` of `a`, `0, 2` of `b`, `1, 3` of `a`, `1, 3`
    /// of `b` ([`crate::kernels::layout::avx2_joined_order`]), where joining
    /// them in order takes a permute and shifts. For a layer reading their
    /// concatenation whose weights are laid out for it.
    ///
    /// # Safety
    /// The CPU supports AVX2.
    #[inline(always)]
    pub unsafe fn joined_16(fa: Activation, a: &[i32; 16], fb: Activation, b: &[i32; 16]) -> [u8; 32] {
        check_activation(fa);
        check_activation(fb);
        let mut out = [0u8; 32];
        // SAFETY: the loads read the 16 i32 of `a` and of `b`, the store
        // writes the 32 bytes of `out`; the caller guarantees AVX2.
        unsafe {
            _mm256_storeu_si256(
                out.as_mut_ptr().cast(),
                _mm256_packus_epi16(avx2_words(fa, a.as_ptr()), avx2_words(fb, b.as_ptr())),
            )
        };
        out
    }
}

/// The conditions under which the 16-bit activations equal the scalar ones
/// (see [`crate::simd::Activations`]); inlined, so that a constant `f`
/// checks nothing at run time.
#[inline(always)]
fn check_activation(f: Activation) {
    match f {
        Activation::Clipped { shift, max } => assert!((0..=127).contains(&max) && (0..32).contains(&shift)),
        Activation::Square { shift_after_16, max } => {
            assert!(
                (0..=127).contains(&max)
                    && (0..16).contains(&shift_after_16)
                    && (32767i64 * 32767) >> (16 + shift_after_16) >= i64::from(max)
            )
        }
    }
}

/// The activations with AVX-512 F/BW/VL: 32 values per step in two 512-bit
/// registers, packed to 16-bit lanes in one, then to bytes with one
/// truncating move; 16 per step (one register narrowed to 16-bit lanes)
/// where the width is a multiple of 16 but not of 32; the SSE2 steps
/// otherwise.
pub struct Avx512Activations;

/// `_mm512_packs_epi32(a, b)` interleaves its inputs per 128-bit lane (the
/// 64-bit groups hold `a[0..4], b[0..4], a[4..8], b[4..8], ...`): the
/// groups' order that restores `a` then `b`.
#[inline(always)]
unsafe fn unpack_order(words: __m512i) -> __m512i {
    // SAFETY: the caller guarantees AVX-512F.
    unsafe { _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), words) }
}

// SAFETY: every method uses AVX-512 F/BW/VL (or SSE2) only; callers
// guarantee them.
unsafe impl crate::simd::Activations for Avx512Activations {
    #[inline(always)]
    unsafe fn clipped_relu<const N: usize, const SHIFT: i32>(input: &[i32; N], max: i16, out: &mut [u8; N]) {
        if !N.is_multiple_of(32) {
            assert!((0..=127).contains(&max));
            if !N.is_multiple_of(16) {
                return clipped_relu::<N, SHIFT>(input, max, out);
            }
            for (src, dst) in input.chunks_exact(16).zip(out.chunks_exact_mut(16)) {
                // SAFETY: the load reads the 16 i32 of `src`, the store
                // writes the 16 bytes of `dst`; the caller guarantees
                // AVX-512 F/BW/VL.
                unsafe {
                    let a = _mm512_sra_epi32(_mm512_loadu_si512(src.as_ptr().cast()), _mm_cvtsi32_si128(SHIFT));
                    // Saturating, in order: as the pack of the other steps.
                    let words = _mm256_min_epi16(
                        _mm256_max_epi16(_mm512_cvtsepi32_epi16(a), _mm256_setzero_si256()),
                        _mm256_set1_epi16(max),
                    );
                    _mm_storeu_si128(dst.as_mut_ptr().cast(), _mm256_cvtepi16_epi8(words));
                }
            }
            return;
        }
        assert!((0..=127).contains(&max));
        for (src, dst) in input.chunks_exact(32).zip(out.chunks_exact_mut(32)) {
            // SAFETY: the loads read the 32 i32 of `src`, the store writes
            // the 32 bytes of `dst`; the caller guarantees AVX-512 F/BW.
            unsafe {
                let shift = _mm_cvtsi32_si128(SHIFT);
                let a = _mm512_sra_epi32(_mm512_loadu_si512(src.as_ptr().cast()), shift);
                let b = _mm512_sra_epi32(_mm512_loadu_si512(src.as_ptr().add(16).cast()), shift);
                let words = _mm512_min_epi16(
                    _mm512_max_epi16(_mm512_packs_epi32(a, b), _mm512_setzero_si512()),
                    _mm512_set1_epi16(max),
                );
                // Values within 0..=127: the truncating move is exact.
                _mm256_storeu_si256(dst.as_mut_ptr().cast(), _mm512_cvtepi16_epi8(unpack_order(words)));
            }
        }
    }
    #[inline(always)]
    unsafe fn sqr_clipped_relu<const N: usize, const SHIFT_AFTER_16: i32>(
        input: &[i32; N],
        max: i16,
        out: &mut [u8; N],
    ) {
        assert!((0..=127).contains(&max) && (32767i64 * 32767) >> (16 + SHIFT_AFTER_16) >= i64::from(max));
        if !N.is_multiple_of(32) {
            if !N.is_multiple_of(16) {
                return sqr_clipped_relu::<N, SHIFT_AFTER_16>(input, max, out);
            }
            for (src, dst) in input.chunks_exact(16).zip(out.chunks_exact_mut(16)) {
                // SAFETY: as in `clipped_relu`'s 16-value steps.
                unsafe {
                    let words = _mm512_cvtsepi32_epi16(_mm512_loadu_si512(src.as_ptr().cast()));
                    let squares = _mm256_srl_epi16(_mm256_mulhi_epi16(words, words), _mm_cvtsi32_si128(SHIFT_AFTER_16));
                    let words = _mm256_min_epi16(squares, _mm256_set1_epi16(max));
                    _mm_storeu_si128(dst.as_mut_ptr().cast(), _mm256_cvtepi16_epi8(words));
                }
            }
            return;
        }
        for (src, dst) in input.chunks_exact(32).zip(out.chunks_exact_mut(32)) {
            // SAFETY: as in `clipped_relu`.
            unsafe {
                let a = _mm512_loadu_si512(src.as_ptr().cast());
                let b = _mm512_loadu_si512(src.as_ptr().add(16).cast());
                let words = _mm512_packs_epi32(a, b);
                let squares = _mm512_srl_epi16(_mm512_mulhi_epi16(words, words), _mm_cvtsi32_si128(SHIFT_AFTER_16));
                let words = _mm512_min_epi16(squares, _mm512_set1_epi16(max));
                _mm256_storeu_si256(dst.as_mut_ptr().cast(), _mm512_cvtepi16_epi8(unpack_order(words)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn equal_to_scalar() {
        crate::simd::check_activations(super::clipped_relu::<32, 6>, super::sqr_clipped_relu::<32, 3>);
    }

    /// The AVX2 steps of 32 and of 16 values.
    #[test]
    fn avx2_equal_to_scalar() {
        use crate::simd::Activations;
        if crate::simd::x86::Avx2::new().is_none() {
            eprintln!("NOT TESTED on this CPU (it lacks their instructions): avx2 activations");
            return;
        }
        #[target_feature(enable = "avx2")]
        fn clipped(input: &[i32; 32], max: i16, out: &mut [u8; 32]) {
            // SAFETY: called only where the CPU has AVX2 (checked above).
            unsafe { super::Avx2Activations::clipped_relu::<32, 6>(input, max, out) }
        }
        #[target_feature(enable = "avx2")]
        fn sqr(input: &[i32; 32], max: i16, out: &mut [u8; 32]) {
            // SAFETY: as above.
            unsafe { super::Avx2Activations::sqr_clipped_relu::<32, 3>(input, max, out) }
        }
        #[target_feature(enable = "avx2")]
        fn halves(input: &[i32; 32], max: i16, out: &mut [u8; 32], sqr: bool) {
            for (src, dst) in input.chunks_exact(16).zip(out.chunks_exact_mut(16)) {
                let (src, dst): (&[i32; 16], &mut [u8; 16]) = (src.try_into().unwrap(), dst.try_into().unwrap());
                // SAFETY: as above.
                unsafe {
                    if sqr {
                        super::Avx2Activations::sqr_clipped_relu::<16, 3>(src, max, dst)
                    } else {
                        super::Avx2Activations::clipped_relu::<16, 6>(src, max, dst)
                    }
                }
            }
        }
        // SAFETY: the CPU has AVX2 (checked above).
        crate::simd::check_activations(|i, m, o| unsafe { clipped(i, m, o) }, |i, m, o| unsafe { sqr(i, m, o) });
        // SAFETY: as above.
        crate::simd::check_activations(
            |i, m, o| unsafe { halves(i, m, o, false) },
            |i, m, o| unsafe { halves(i, m, o, true) },
        );
    }

    /// AVX2's packed and joined activations hold the scalar values in the
    /// orders the weights are laid out for.
    #[test]
    fn avx2_packed_in_their_orders() {
        use crate::kernels::layout::{avx2_joined_order, avx2_packed_order, reorder};
        use crate::simd::Activation;
        if crate::simd::x86::Avx2::new().is_none() {
            eprintln!("NOT TESTED on this CPU (it lacks their instructions): avx2 packed activations");
            return;
        }
        #[target_feature(enable = "avx2")]
        fn packed(f: Activation, input: &[i32; 64], out: &mut [u8; 64]) {
            // SAFETY: called only where the CPU has AVX2 (checked above).
            unsafe { super::Avx2Activations::packed::<64>(f, input, out) }
        }
        #[target_feature(enable = "avx2")]
        fn joined(fa: Activation, a: &[i32; 16], fb: Activation, b: &[i32; 16]) -> [u8; 32] {
            // SAFETY: as above.
            unsafe { super::Avx2Activations::joined_16(fa, a, fb, b) }
        }
        let functions = [
            Activation::Clipped { shift: 6, max: 127 },
            Activation::Clipped { shift: 7, max: 100 },
            Activation::Square { shift_after_16: 3, max: 127 },
            Activation::Square { shift_after_16: 5, max: 127 },
        ];
        let mut rng = crate::Rng::new(0x005E_ED0F_0DE5);
        for _ in 0..500 {
            let input: [i32; 64] = core::array::from_fn(|_| (rng.next_u64() as i32) >> (rng.next_u64() % 27));
            for f in functions {
                let mut expected = [0u8; 64];
                f.scalar(&input, &mut expected);
                let mut out = [0u8; 64];
                // SAFETY: the CPU has AVX2 (checked above).
                unsafe { packed(f, &input, &mut out) };
                assert_eq!(out.to_vec(), reorder(&expected, &avx2_packed_order(64), 0), "{f:?} {input:?}");
            }
            for (fa, fb) in [(functions[2], functions[0]), (functions[1], functions[3])] {
                let (a, b): (&[i32; 16], &[i32; 16]) =
                    (input[..16].try_into().unwrap(), input[16..32].try_into().unwrap());
                let mut expected = [0u8; 32];
                fa.scalar(a, &mut expected[..16]);
                fb.scalar(b, &mut expected[16..]);
                // SAFETY: the CPU has AVX2 (checked above).
                let out = unsafe { joined(fa, a, fb, b) };
                assert_eq!(out.to_vec(), reorder(&expected, &avx2_joined_order(16, 16), 0), "{fa:?} {fb:?} {input:?}");
            }
        }
    }

    /// The AVX-512 steps, where the CPU has them.
    #[test]
    fn avx512_equal_to_scalar() {
        use crate::simd::Activations;
        if crate::simd::x86::Avx512::new().is_none() {
            eprintln!("NOT TESTED on this CPU (it lacks their instructions): avx512 activations");
            return;
        }
        #[target_feature(enable = "avx512f,avx512bw")]
        fn clipped(input: &[i32; 32], max: i16, out: &mut [u8; 32]) {
            // SAFETY: called only where the CPU has AVX-512 F/BW (checked above).
            unsafe { super::Avx512Activations::clipped_relu::<32, 6>(input, max, out) }
        }
        #[target_feature(enable = "avx512f,avx512bw")]
        fn sqr(input: &[i32; 32], max: i16, out: &mut [u8; 32]) {
            // SAFETY: as above.
            unsafe { super::Avx512Activations::sqr_clipped_relu::<32, 3>(input, max, out) }
        }
        // SAFETY: the CPU has AVX-512 F/BW (checked above).
        crate::simd::check_activations(|i, m, o| unsafe { clipped(i, m, o) }, |i, m, o| unsafe { sqr(i, m, o) });
        // The 16-value steps, on each half.
        #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
        fn halves(input: &[i32; 32], max: i16, out: &mut [u8; 32], sqr: bool) {
            for (src, dst) in input.chunks_exact(16).zip(out.chunks_exact_mut(16)) {
                let (src, dst): (&[i32; 16], &mut [u8; 16]) = (src.try_into().unwrap(), dst.try_into().unwrap());
                // SAFETY: called only where the CPU has AVX-512 F/BW/VL.
                unsafe {
                    if sqr {
                        super::Avx512Activations::sqr_clipped_relu::<16, 3>(src, max, dst)
                    } else {
                        super::Avx512Activations::clipped_relu::<16, 6>(src, max, dst)
                    }
                }
            }
        }
        // SAFETY: as above (VL is part of the Avx512 token's features).
        crate::simd::check_activations(
            |i, m, o| unsafe { halves(i, m, o, false) },
            |i, m, o| unsafe { halves(i, m, o, true) },
        );
    }
}
