//! AVX-VNNI: 256-bit `vpdpbusd` (VEX encoded) for u8 x i8 dot products.

use crate::simd::Dot;
use core::arch::x86_64::*;

/// 256-bit dot products with AVX-VNNI.
#[derive(Clone, Copy)]
pub struct AvxVnniDot;

// SAFETY: every method uses AVX2 and AVX-VNNI only; callers guarantee both.
unsafe impl Dot for AvxVnniDot {
    dot_registers!(256);
    const SETS: usize = 4;
    /// Half of the 16 ymm registers. A layer of 32 outputs (4 registers)
    /// kept 16 sums and spilled them; with 2 sets there, interleaved A/B of
    /// `nnue bench` on a Zen 5 (eval, forward; new/old): Stockfish 19 0.811,
    /// 0.779; HalfKP 0.800, 0.773; the small net 0.916, 0.922.
    const MAX_SUMS: usize = 8;

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
}
