//! Eight u16 indices in one 128-bit register (SSE2 on x86-64, NEON on
//! AArch64: both part of the base instruction set, so usable in any
//! function), for the sparse layer's search of non-zero input chunks
//! ([`crate::kernels::affine`]). Kept as a register, the running base of the
//! indices advances by one addition per block of eight chunks; as a
//! `[u16; 8]`, the compiler rebuilt it from the loop counter every block
//! (a move, a broadcast and an address computation).

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::{__m128i, _mm_add_epi16, _mm_loadu_si128, _mm_set1_epi16, _mm_storeu_si128};

#[cfg(target_arch = "aarch64")]
use core::arch::aarch64::{uint16x8_t, vaddq_u16, vdupq_n_u16, vld1q_u16, vst1q_u16};

/// Eight u16 lanes.
#[derive(Clone, Copy)]
pub struct U16x8(
    #[cfg(target_arch = "x86_64")] __m128i,
    #[cfg(target_arch = "aarch64")] uint16x8_t,
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))] [u16; 8],
);

impl U16x8 {
    /// Every lane `value`.
    #[inline(always)]
    pub fn splat(value: u16) -> U16x8 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of x86-64.
        return U16x8(unsafe { _mm_set1_epi16(value as i16) });
        #[cfg(target_arch = "aarch64")]
        // SAFETY: NEON is part of AArch64.
        return U16x8(unsafe { vdupq_n_u16(value) });
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        return U16x8([value; 8]);
    }

    /// The eight values of `values`.
    #[inline(always)]
    pub fn load(values: &[u16; 8]) -> U16x8 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `values` holds 16 readable bytes; SSE2 is part of x86-64.
        return U16x8(unsafe { _mm_loadu_si128(values.as_ptr().cast()) });
        #[cfg(target_arch = "aarch64")]
        // SAFETY: `values` holds 8 readable u16; NEON is part of AArch64.
        return U16x8(unsafe { vld1q_u16(values.as_ptr()) });
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        return U16x8(*values);
    }

    /// Lane by lane `self + other`, wrapping.
    #[inline(always)]
    pub fn wrapping_add(self, other: U16x8) -> U16x8 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of x86-64.
        return U16x8(unsafe { _mm_add_epi16(self.0, other.0) });
        #[cfg(target_arch = "aarch64")]
        // SAFETY: NEON is part of AArch64.
        return U16x8(unsafe { vaddq_u16(self.0, other.0) });
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        return U16x8(core::array::from_fn(|k| self.0[k].wrapping_add(other.0[k])));
    }

    /// Writes the eight lanes to `dst..dst + 8`.
    ///
    /// # Safety
    /// `dst` is valid for writing eight u16 (no alignment needed).
    #[inline(always)]
    pub unsafe fn store(self, dst: *mut u16) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the caller guarantees the writes; SSE2 is part of x86-64.
        unsafe {
            _mm_storeu_si128(dst.cast(), self.0)
        };
        #[cfg(target_arch = "aarch64")]
        // SAFETY: the caller guarantees the writes; NEON is part of AArch64.
        unsafe {
            vst1q_u16(dst, self.0)
        };
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        // SAFETY: the caller guarantees the writes.
        unsafe {
            dst.cast::<[u16; 8]>().write_unaligned(self.0)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::U16x8;

    #[test]
    fn lanes_add_and_store_in_order() {
        let mut out = [0u16; 9];
        let v = U16x8::splat(65530).wrapping_add(U16x8::load(&[0, 1, 2, 3, 4, 5, 6, 7]));
        // SAFETY: `out[1..9]` holds eight u16.
        unsafe { v.store(out.as_mut_ptr().add(1)) };
        assert_eq!(out, [0, 65530, 65531, 65532, 65533, 65534, 65535, 0, 1]);
    }
}
