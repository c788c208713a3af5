//! AVX-512 VNNI: `vpdpbusd` on 512-bit registers, and on 256-bit registers
//! (with AVX-512VL) for layers too narrow for 512.

use crate::simd::Dot;
use core::arch::x86_64::*;

/// 512-bit dot products with AVX-512 VNNI.
#[derive(Clone, Copy)]
pub struct Avx512VnniDot;

// SAFETY: every method uses AVX-512 F/BW/VNNI only; callers guarantee them.
unsafe impl Dot for Avx512VnniDot {
    dot_registers!(512);
    const SETS: usize = 4;

    #[inline(always)]
    unsafe fn dot4(acc: __m512i, x: u32, w: *const i8) -> __m512i {
        // SAFETY: the caller guarantees 64 readable weight bytes and AVX-512 VNNI.
        unsafe { _mm512_dpbusd_epi32(acc, _mm512_set1_epi32(x as i32), _mm512_loadu_si512(w.cast())) }
    }
    const LANE_BLOCKS: bool = true;
    #[inline(always)]
    unsafe fn dot4_lane(acc: __m512i, values: __m512i, k: usize, w: *const i8) -> __m512i {
        // The lane number hidden from LLVM (an empty `asm!`), or it turns
        // the permute of a loaded register back into a broadcast load.
        let mut k = k as u32;
        // SAFETY: the statement is empty.
        unsafe { core::arch::asm!("/* {0:e} */", inout(reg) k, options(pure, nomem, nostack, preserves_flags)) };
        // SAFETY: the caller guarantees 64 readable weight bytes and AVX-512 VNNI.
        unsafe {
            let x = _mm512_permutexvar_epi32(_mm512_set1_epi32(k as i32), values);
            _mm512_dpbusd_epi32(acc, x, _mm512_loadu_si512(w.cast()))
        }
    }
    #[inline(always)]
    unsafe fn dot(acc: __m512i, x: *const u8, w: *const i8) -> __m512i {
        // SAFETY: the caller guarantees 64 readable bytes at `x` and `w`, and AVX-512 VNNI.
        unsafe { _mm512_dpbusd_epi32(acc, _mm512_loadu_si512(x.cast()), _mm512_loadu_si512(w.cast())) }
    }
}

/// 256-bit dot products with AVX-512 VNNI and VL.
#[derive(Clone, Copy)]
pub struct Avx512VnniDot256;

// SAFETY: every method uses AVX2 and AVX-512 VNNI/VL only; callers guarantee them.
unsafe impl Dot for Avx512VnniDot256 {
    dot_registers!(256);
    const SETS: usize = 4;

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
}
