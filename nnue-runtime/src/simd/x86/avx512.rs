//! AVX-512 (F/BW/VL): 32 i16 accumulator lanes per register; u8 x i8 dot
//! products by `vpmaddubsw` + `vpmaddwd` on 512-bit registers.

use crate::simd::{Dot, Lanes};
use core::arch::x86_64::*;

/// 512-bit accumulator registers (PSQT lanes stay 256-bit).
#[derive(Clone, Copy)]
pub struct Avx512Lanes;

// SAFETY: every method uses AVX-512 F/BW and AVX2 only; callers guarantee them.
unsafe impl Lanes for Avx512Lanes {
    type V = __m512i;
    type P = __m256i;
    const LANES: usize = 32;

    #[inline(always)]
    unsafe fn load(p: *const i16) -> __m512i {
        // SAFETY: the caller guarantees 32 readable lanes and AVX-512F.
        unsafe { _mm512_loadu_si512(p.cast()) }
    }
    #[inline(always)]
    unsafe fn load_i8(p: *const i8) -> __m512i {
        // SAFETY: the caller guarantees 32 readable bytes and AVX-512BW.
        unsafe { _mm512_cvtepi8_epi16(_mm256_loadu_si256(p.cast())) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut i16, v: __m512i) {
        // SAFETY: the caller guarantees 32 writable lanes and AVX-512F.
        unsafe { _mm512_storeu_si512(p.cast(), v) }
    }
    #[inline(always)]
    unsafe fn add(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the caller guarantees AVX-512BW.
        unsafe { _mm512_add_epi16(a, b) }
    }
    #[inline(always)]
    unsafe fn sub(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the caller guarantees AVX-512BW.
        unsafe { _mm512_sub_epi16(a, b) }
    }
    #[inline(always)]
    unsafe fn clamp(v: __m512i, max: i16) -> __m512i {
        // SAFETY: the caller guarantees AVX-512BW.
        unsafe { _mm512_max_epi16(_mm512_min_epi16(v, _mm512_set1_epi16(max)), _mm512_setzero_si512()) }
    }
    #[inline(always)]
    unsafe fn min(v: __m512i, max: i16) -> __m512i {
        // SAFETY: the caller guarantees AVX-512BW.
        unsafe { _mm512_min_epi16(v, _mm512_set1_epi16(max)) }
    }
    #[inline(always)]
    unsafe fn mulhi_signed_shifted<const SHL: i32>(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the caller guarantees AVX-512BW.
        unsafe { _mm512_mulhi_epi16(_mm512_sll_epi16(a, _mm_cvtsi32_si128(SHL)), b) }
    }
    #[inline(always)]
    unsafe fn mulhi_shifted<const SHL: i32>(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the caller guarantees AVX-512BW.
        unsafe { _mm512_mulhi_epu16(_mm512_sll_epi16(a, _mm_cvtsi32_si128(SHL)), b) }
    }
    #[inline(always)]
    unsafe fn mullo_shifted<const SHR: i32>(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the caller guarantees AVX-512BW.
        unsafe { _mm512_srl_epi16(_mm512_mullo_epi16(a, b), _mm_cvtsi32_si128(SHR)) }
    }
    #[inline(always)]
    unsafe fn pack_store(p: *mut u8, a: __m512i, b: __m512i) {
        // SAFETY: the caller guarantees 64 writable bytes and AVX-512BW.
        unsafe { _mm512_storeu_si512(p.cast(), _mm512_packus_epi16(a, b)) }
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

/// 512-bit dot products without VNNI.
#[derive(Clone, Copy)]
pub struct Avx512Dot;

// SAFETY: every method uses AVX-512 F/BW only; callers guarantee them.
unsafe impl Dot for Avx512Dot {
    dot_registers!(512);
    const SETS: usize = 1;

    #[inline(always)]
    unsafe fn dot4(acc: __m512i, x: u32, w: *const i8) -> __m512i {
        // SAFETY: the caller guarantees 64 readable weight bytes and AVX-512BW.
        // Inputs are at most 127, so a pair of products stays within i16.
        unsafe {
            let products = _mm512_maddubs_epi16(_mm512_set1_epi32(x as i32), _mm512_loadu_si512(w.cast()));
            _mm512_add_epi32(acc, _mm512_madd_epi16(products, _mm512_set1_epi16(1)))
        }
    }
    #[inline(always)]
    unsafe fn dot(acc: __m512i, x: *const u8, w: *const i8) -> __m512i {
        // SAFETY: the caller guarantees 64 readable bytes at `x` and `w`, and AVX-512BW.
        unsafe {
            let products = _mm512_maddubs_epi16(_mm512_loadu_si512(x.cast()), _mm512_loadu_si512(w.cast()));
            _mm512_add_epi32(acc, _mm512_madd_epi16(products, _mm512_set1_epi16(1)))
        }
    }
}
