//! AVX-512 VNNI: `vpdpbusd` on 512-bit registers, and on 256-bit registers
//! (with AVX-512VL) for layers too narrow for 512.

use super::avx2::{hsum256, nonzero_mask256};
use super::avx512::{hsum512, nonzero_mask512};
use crate::simd::Dot;
use core::arch::x86_64::*;

/// 512-bit dot products with AVX-512 VNNI.
#[derive(Clone, Copy)]
pub struct Avx512VnniDot;

// SAFETY: every method uses AVX-512 F/BW/VNNI only; callers guarantee them.
unsafe impl Dot for Avx512VnniDot {
    type S = __m512i;
    const LANES: usize = 16;
    const SETS: usize = 4;

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
        // SAFETY: the caller guarantees the instructions.
        unsafe { _mm512_add_epi32(a, b) }
    }
    #[inline(always)]
    unsafe fn dot4(acc: __m512i, x: u32, w: *const i8) -> __m512i {
        // SAFETY: the caller guarantees 64 readable weight bytes and AVX-512 VNNI.
        unsafe { _mm512_dpbusd_epi32(acc, _mm512_set1_epi32(x as i32), _mm512_loadu_si512(w.cast())) }
    }
    #[inline(always)]
    unsafe fn dot(acc: __m512i, x: *const u8, w: *const i8) -> __m512i {
        // SAFETY: the caller guarantees 64 readable bytes at `x` and `w`, and AVX-512 VNNI.
        unsafe { _mm512_dpbusd_epi32(acc, _mm512_loadu_si512(x.cast()), _mm512_loadu_si512(w.cast())) }
    }
    #[inline(always)]
    unsafe fn hsum(v: __m512i) -> i32 {
        // SAFETY: the caller guarantees AVX-512F.
        unsafe { hsum512(v) }
    }
    #[inline(always)]
    unsafe fn nonzero_mask(p: *const u8) -> u32 {
        // SAFETY: the caller guarantees 64 readable bytes and AVX-512F.
        unsafe { nonzero_mask512(p) }
    }
}

/// 256-bit dot products with AVX-512 VNNI and VL.
#[derive(Clone, Copy)]
pub struct Avx512VnniDot256;

// SAFETY: every method uses AVX2 and AVX-512 VNNI/VL only; callers guarantee them.
unsafe impl Dot for Avx512VnniDot256 {
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
        // SAFETY: the caller guarantees 32 readable weight bytes, AVX-512 VNNI and VL.
        unsafe { _mm256_dpbusd_epi32(acc, _mm256_set1_epi32(x as i32), _mm256_loadu_si256(w.cast())) }
    }
    #[inline(always)]
    unsafe fn dot(acc: __m256i, x: *const u8, w: *const i8) -> __m256i {
        // SAFETY: the caller guarantees 32 readable bytes at `x` and `w`, AVX-512 VNNI and VL.
        unsafe { _mm256_dpbusd_epi32(acc, _mm256_loadu_si256(x.cast()), _mm256_loadu_si256(w.cast())) }
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
