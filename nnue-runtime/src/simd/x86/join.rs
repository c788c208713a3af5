//! Concatenation of two short activation vectors in registers (SSE2, the
//! x86-64 baseline).
//!
//! Written with byte copies, `a[..LA] ++ b[..LB]` at an odd offset becomes a
//! row of 1-, 2-, 4- and 8-byte stores that the next layer reads back with
//! one wide load; the load then waits for every store to reach the cache (a
//! failed store-to-load forward). Here both halves are built by byte shifts
//! and masks and stored whole, so the next load is forwarded from two
//! aligned 16-byte stores, or never leaves registers.

use crate::simd::join_masks;
use core::arch::x86_64::*;

/// `a[..LA] ++ b[..LB]`, zero-padded to 32 bytes. `SHR` must be `16 - LA`
/// (the generator writes both, as a shift count must be a constant);
/// `1 <= LA <= 16` and `LB <= 16`, checked at compile time.
#[inline(always)]
pub fn join_16<const LA: i32, const SHR: i32, const LB: usize>(a: &[u8; 16], b: &[u8; 16]) -> [u8; 32] {
    // `b` cut to its length also leaves the high half zero from `LA + LB` on.
    let [keep_a, keep_b] = const { join_masks(LA, SHR, LB) };
    // SAFETY: SSE2 is part of x86-64; every load reads 16 bytes of a
    // 16-byte array and every store writes 16 bytes of the 32-byte result.
    unsafe {
        let load = |p: &[u8; 16]| _mm_loadu_si128(p.as_ptr().cast());
        let a = _mm_and_si128(load(a), load(&keep_a));
        let b = _mm_and_si128(load(b), load(&keep_b));
        let low = _mm_or_si128(a, _mm_bslli_si128::<LA>(b));
        let high = _mm_bsrli_si128::<SHR>(b);
        let mut out = [0u8; 32];
        _mm_storeu_si128(out.as_mut_ptr().cast(), low);
        _mm_storeu_si128(out.as_mut_ptr().add(16).cast(), high);
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
