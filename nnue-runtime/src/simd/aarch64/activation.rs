//! Activations on NEON (the AArch64 baseline, so no detection is needed):
//! eight i32 values to eight bytes per step, in order.

use core::arch::aarch64::*;

/// `out[i] = clamp(input[i] >> SHIFT, 0, max)`, equal to
/// [`crate::scalar::clipped_relu`]. `N` must be a multiple of 8 and `max` at
/// most 127 (the i32 -> i16 narrowing saturates, which the clamp then hides).
pub fn clipped_relu<const N: usize, const SHIFT: i32>(input: &[i32; N], max: i16, out: &mut [u8; N]) {
    const { assert!(N.is_multiple_of(8)) };
    assert!((0..=127).contains(&max));
    for (src, dst) in input.chunks_exact(8).zip(out.chunks_exact_mut(8)) {
        // SAFETY: NEON is part of AArch64; the loads read 8 i32 of `src` and
        // the store writes 8 bytes of `dst`.
        unsafe {
            let a = vshrq_n_s32::<SHIFT>(vld1q_s32(src.as_ptr()));
            let b = vshrq_n_s32::<SHIFT>(vld1q_s32(src.as_ptr().add(4)));
            let words = vcombine_s16(vqmovn_s32(a), vqmovn_s32(b));
            let words = vminq_s16(vmaxq_s16(words, vdupq_n_s16(0)), vdupq_n_s16(max));
            vst1_u8(dst.as_mut_ptr(), vqmovun_s16(words));
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
        // SAFETY: NEON is part of AArch64; the loads read 8 i32 of `src` and
        // the store writes 8 bytes of `dst`.
        unsafe {
            let words = vcombine_s16(vqmovn_s32(vld1q_s32(src.as_ptr())), vqmovn_s32(vld1q_s32(src.as_ptr().add(4))));
            // The squares' high halves (non-negative), then the extra shift.
            let low = vshrn_n_s32::<16>(vmull_s16(vget_low_s16(words), vget_low_s16(words)));
            let high = vshrn_n_s32::<16>(vmull_high_s16(words, words));
            let squares = vshrq_n_s16::<SHIFT_AFTER_16>(vcombine_s16(low, high));
            let words = vminq_s16(squares, vdupq_n_s16(max));
            vst1_u8(dst.as_mut_ptr(), vqmovun_s16(words));
        }
    }
}

/// The activations above, on every AArch64 CPU.
pub struct NeonActivations;

// SAFETY: NEON is part of AArch64.
unsafe impl crate::simd::Activations for NeonActivations {
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

#[cfg(test)]
mod tests {
    #[test]
    fn equal_to_scalar() {
        crate::simd::check_activations(super::clipped_relu::<32, 6>, super::sqr_clipped_relu::<32, 3>);
    }
}
