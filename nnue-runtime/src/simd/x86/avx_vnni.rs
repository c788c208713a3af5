//! AVX-VNNI: 256-bit `vpdpbusd` (VEX encoded) for u8 x i8 dot products.

use super::avx2::{hsum256, nonzero_mask256};
use crate::simd::Dot;
use core::arch::x86_64::*;

/// 256-bit dot products with AVX-VNNI.
#[derive(Clone, Copy)]
pub struct AvxVnniDot;

// SAFETY: every method uses AVX2 and AVX-VNNI only; callers guarantee both.
unsafe impl Dot for AvxVnniDot {
    type S = __m256i;
    const LANES: usize = 8;
    const SETS: usize = 4;

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
        // SAFETY: the caller guarantees the instructions.
        unsafe { _mm256_add_epi32(a, b) }
    }
    #[inline(always)]
    unsafe fn dot4(acc: __m256i, x: u32, w: *const i8) -> __m256i {
        // SAFETY: the caller guarantees 32 readable weight bytes, AVX2 and AVX-VNNI.
        unsafe { _mm256_dpbusd_avx_epi32(acc, _mm256_set1_epi32(x as i32), _mm256_loadu_si256(w.cast())) }
    }
    #[inline(always)]
    unsafe fn dot(acc: __m256i, x: *const u8, w: *const i8) -> __m256i {
        // SAFETY: the caller guarantees 32 readable bytes at `x` and `w`, AVX2 and AVX-VNNI.
        unsafe { _mm256_dpbusd_avx_epi32(acc, _mm256_loadu_si256(x.cast()), _mm256_loadu_si256(w.cast())) }
    }
    #[inline(always)]
    unsafe fn hsum(v: __m256i) -> i32 {
        // SAFETY: the caller guarantees AVX2.
        unsafe { hsum256(v) }
    }
    #[inline(always)]
    unsafe fn nonzero_mask(p: *const u8) -> u32 {
        // SAFETY: the caller guarantees 32 readable bytes and AVX2.
        unsafe { nonzero_mask256(p) }
    }
}
