//! NEON with the dot-product extension: `sdot` sums four byte products
//! into each i32 lane. Its Rust intrinsic (`vdotq_s32`) is not stable, so
//! the instruction is emitted with `asm!`; it runs only inside functions
//! compiled with `dotprod` enabled, reached through the `NeonDotprod` token.
//!
//! `sdot` multiplies signed bytes: the u8 inputs are exact only because
//! they are at most 127 (every input of an affine layer is a clipped
//! activation, see [`Dot::dot4`]). Inputs above 127 would be read as
//! negative numbers.

use super::neon::neon_dot_registers;
use crate::simd::Dot;
use core::arch::aarch64::*;

/// Dot products by `sdot`.
#[derive(Clone, Copy)]
pub struct NeonDotprodDot;

/// `acc[l] + sum_k x[4l + k] * w[4l + k]` by one `sdot`.
///
/// # Safety
/// The CPU supports NEON and the dot-product extension.
#[inline(always)]
unsafe fn sdot(acc: int32x4_t, x: int8x16_t, w: int8x16_t) -> int32x4_t {
    let mut acc = acc;
    // SAFETY: the caller guarantees the dot-product extension; the
    // instruction reads and writes registers only.
    unsafe {
        core::arch::asm!(
            // The directive lets the assembler accept `sdot` wherever LLVM
            // inlines this (it may inline a `dotprod` function into a caller
            // without the feature); it runs only behind the dotprod token.
            ".arch_extension dotprod",
            "sdot {acc:v}.4s, {x:v}.16b, {w:v}.16b",
            acc = inout(vreg) acc,
            x = in(vreg) x,
            w = in(vreg) w,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    acc
}

// SAFETY: every method uses NEON and dot-product instructions only; callers
// guarantee both.
unsafe impl Dot for NeonDotprodDot {
    neon_dot_registers!();
    const SETS: usize = 4;

    #[inline(always)]
    unsafe fn dot4(acc: int32x4_t, x: u32, w: *const i8) -> int32x4_t {
        // SAFETY: the caller guarantees 16 readable weight bytes and the ISA.
        unsafe { sdot(acc, vreinterpretq_s8_u32(vdupq_n_u32(x)), vld1q_s8(w)) }
    }
    #[inline(always)]
    unsafe fn dot(acc: int32x4_t, x: *const u8, w: *const i8) -> int32x4_t {
        // SAFETY: the caller guarantees 16 readable bytes at `x` and `w`, and the ISA.
        unsafe { sdot(acc, vld1q_s8(x.cast()), vld1q_s8(w)) }
    }
}
