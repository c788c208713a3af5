//! Concatenation of two short activation vectors in registers (NEON, the
//! AArch64 baseline); see the x86 module's `join` for why byte copies are
//! avoided.

use crate::simd::join_masks;
use core::arch::aarch64::*;

/// `a[..LA] ++ b[..LB]`, zero-padded to 32 bytes. `SHR` must be `16 - LA`
/// (the generator writes both, as an extract position must be a constant);
/// `1 <= LA <= 16` and `LB <= 16`, checked at compile time.
#[inline(always)]
pub fn join_16<const LA: i32, const SHR: i32, const LB: usize>(a: &[u8; 16], b: &[u8; 16]) -> [u8; 32] {
    // `b` cut to its length also leaves the high half zero from `LA + LB` on.
    let [keep_a, keep_b] = const { join_masks(LA, SHR, LB) };
    // SAFETY: NEON is part of AArch64; every load reads 16 bytes of a
    // 16-byte array and every store writes 16 bytes of the 32-byte result.
    unsafe {
        let zero = vdupq_n_u8(0);
        let a = vandq_u8(vld1q_u8(a.as_ptr()), vld1q_u8(keep_a.as_ptr()));
        let b = vandq_u8(vld1q_u8(b.as_ptr()), vld1q_u8(keep_b.as_ptr()));
        // `ext(x, y, n)` is `x[n..] ++ y[..n]`: `b` moved up by LA bytes,
        // and the bytes of `b` that move past the low half.
        let low = vorrq_u8(a, vextq_u8::<SHR>(zero, b));
        let high = vextq_u8::<SHR>(b, zero);
        let mut out = [0u8; 32];
        vst1q_u8(out.as_mut_ptr(), low);
        vst1q_u8(out.as_mut_ptr().add(16), high);
        out
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn equals_byte_copies() {
        check_join_16!(super::join_16);
    }
}
