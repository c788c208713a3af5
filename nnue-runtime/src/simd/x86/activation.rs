//! Activations on SSE2 (the x86-64 baseline, so no detection is needed):
//! eight i32 values to eight bytes per step, in order.

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

#[cfg(test)]
mod tests {
    #[test]
    fn equal_to_scalar() {
        crate::simd::check_activations(super::clipped_relu::<32, 6>, super::sqr_clipped_relu::<32, 3>);
    }
}
