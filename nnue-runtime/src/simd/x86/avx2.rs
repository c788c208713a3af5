//! AVX2: 16 i16 accumulator lanes per register; u8 x i8 dot products by
//! `vpmaddubsw` + `vpmaddwd`.

use crate::simd::{Dot, Lanes};
use core::arch::x86_64::*;

/// 256-bit accumulator registers.
#[derive(Clone, Copy)]
pub struct Avx2Lanes;

// SAFETY: every method uses AVX2 instructions only; callers guarantee AVX2.
unsafe impl Lanes for Avx2Lanes {
    type V = __m256i;
    type P = __m256i;
    const LANES: usize = 16;

    #[inline(always)]
    unsafe fn load(p: *const i16) -> __m256i {
        // SAFETY: the caller guarantees 16 readable lanes and AVX2.
        unsafe { _mm256_loadu_si256(p.cast()) }
    }
    #[inline(always)]
    unsafe fn load_i8(p: *const i8) -> __m256i {
        // SAFETY: the caller guarantees 16 readable bytes and AVX2.
        unsafe { _mm256_cvtepi8_epi16(_mm_loadu_si128(p.cast())) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut i16, v: __m256i) {
        // SAFETY: the caller guarantees 16 writable lanes and AVX2.
        unsafe { _mm256_storeu_si256(p.cast(), v) }
    }
    #[inline(always)]
    unsafe fn add(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_add_epi16(a, b) }
    }
    #[inline(always)]
    unsafe fn sub(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_sub_epi16(a, b) }
    }
    #[inline(always)]
    unsafe fn clamp(v: __m256i, max: i16) -> __m256i {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_max_epi16(_mm256_min_epi16(v, _mm256_set1_epi16(max)), _mm256_setzero_si256()) }
    }
    #[inline(always)]
    unsafe fn min(v: __m256i, max: i16) -> __m256i {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_min_epi16(v, _mm256_set1_epi16(max)) }
    }
    #[inline(always)]
    unsafe fn mulhi_signed_shifted<const SHL: i32>(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_mulhi_epi16(_mm256_slli_epi16::<SHL>(a), b) }
    }
    #[inline(always)]
    unsafe fn mulhi_shifted<const SHL: i32>(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_mulhi_epu16(_mm256_slli_epi16::<SHL>(a), b) }
    }
    #[inline(always)]
    unsafe fn mullo_shifted<const SHR: i32>(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_srli_epi16::<SHR>(_mm256_mullo_epi16(a, b)) }
    }
    #[inline(always)]
    unsafe fn pack_store(p: *mut u8, a: __m256i, b: __m256i) {
        // SAFETY: the caller guarantees 32 writable bytes and AVX2.
        unsafe { _mm256_storeu_si256(p.cast(), _mm256_packus_epi16(a, b)) }
    }
    #[inline(always)]
    unsafe fn load_p(p: *const i32) -> __m256i {
        // SAFETY: the caller guarantees 8 readable lanes and AVX2.
        unsafe { _mm256_loadu_si256(p.cast()) }
    }
    #[inline(always)]
    unsafe fn store_p(p: *mut i32, v: __m256i) {
        // SAFETY: the caller guarantees 8 writable lanes and AVX2.
        unsafe { _mm256_storeu_si256(p.cast(), v) }
    }
    #[inline(always)]
    unsafe fn add_p(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_add_epi32(a, b) }
    }
    #[inline(always)]
    unsafe fn sub_p(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_sub_epi32(a, b) }
    }
}

/// 256-bit dot products without VNNI.
#[derive(Clone, Copy)]
pub struct Avx2Dot;

// SAFETY: every method uses AVX2 instructions only; callers guarantee AVX2.
unsafe impl Dot for Avx2Dot {
    dot_registers!(256);
    const SETS: usize = 1;

    #[inline(always)]
    unsafe fn dot4(acc: __m256i, x: u32, w: *const i8) -> __m256i {
        // SAFETY: the caller guarantees 32 readable weight bytes and AVX2.
        // Inputs are at most 127, so a pair of products stays within i16.
        unsafe {
            let products = _mm256_maddubs_epi16(_mm256_set1_epi32(x as i32), _mm256_loadu_si256(w.cast()));
            _mm256_add_epi32(acc, _mm256_madd_epi16(products, _mm256_set1_epi16(1)))
        }
    }
    const PAIRS: bool = true;
    #[inline(always)]
    unsafe fn dot4_pair(acc: __m256i, xa: u32, wa: *const i8, xb: u32, wb: *const i8) -> __m256i {
        // SAFETY: the caller guarantees 32 readable bytes at `wa` and at
        // `wb`, and AVX2. Each chunk's pairs of products stay within i16
        // (inputs at most 127), and the caller guarantees that so do their
        // sums, the i16 addition.
        unsafe {
            let a = _mm256_maddubs_epi16(_mm256_set1_epi32(xa as i32), _mm256_loadu_si256(wa.cast()));
            let b = _mm256_maddubs_epi16(_mm256_set1_epi32(xb as i32), _mm256_loadu_si256(wb.cast()));
            _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_add_epi16(a, b), _mm256_set1_epi16(1)))
        }
    }
    #[inline(always)]
    unsafe fn dot(acc: __m256i, x: *const u8, w: *const i8) -> __m256i {
        // SAFETY: the caller guarantees 32 readable bytes at `x` and `w`, and AVX2.
        unsafe {
            let products = _mm256_maddubs_epi16(_mm256_loadu_si256(x.cast()), _mm256_loadu_si256(w.cast()));
            _mm256_add_epi32(acc, _mm256_madd_epi16(products, _mm256_set1_epi16(1)))
        }
    }
}
