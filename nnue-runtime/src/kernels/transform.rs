//! The transformer's output: clipped or pairwise-multiplied accumulators
//! packed to bytes. The accumulator lanes are stored in the ISA's packing
//! order ([`super::layout::packus_order`]), so the packed bytes come out in
//! logical order with no shuffle.
//!
//! The output buffer need not be initialised: every kernel writes all of it
//! and returns it as bytes (an engine evaluates millions of times a second,
//! and zeroing a 3 KiB buffer first costs as much as a tenth of an
//! evaluation).

use super::{nonzero_chunks, ChunkList, ChunkSearch, ChunkSlots};
use crate::simd::{Dot, Lanes};
use core::mem::MaybeUninit;

/// `out[p * L1 + j] = clamp(acc[order[p]][j], 0, MAX)`; `out` holds
/// `2 * L1` bytes, all written and returned.
///
/// # Safety
/// The CPU supports `L`'s instructions.
#[inline(always)]
pub unsafe fn transform_clip<'o, L: Lanes, const L1: usize, const MAX: i16>(
    acc: &[[i16; L1]; 2],
    order: [usize; 2],
    out: &'o mut [MaybeUninit<u8>],
) -> &'o mut [u8] {
    const { assert!(L1.is_multiple_of(2 * L::LANES)) };
    assert_eq!(out.len(), 2 * L1);
    // Both perspectives in one pass, as in the pairwise kernels below.
    let srcs = order.map(|perspective| acc[perspective].as_ptr());
    // SAFETY: reads stay below L1 and writes below 2 * L1 (checked); the
    // caller guarantees the instructions.
    unsafe {
        let dst = out.as_mut_ptr().cast::<u8>();
        for j in (0..L1).step_by(2 * L::LANES) {
            for (p, src) in srcs.iter().enumerate() {
                let a = L::clamp(L::load(src.add(j)), MAX);
                let b = L::clamp(L::load(src.add(j + L::LANES)), MAX);
                L::pack_store(dst.add(p * L1 + j), a, b);
            }
        }
    }
    // SAFETY: the loops above wrote bytes `p * L1 + j .. + 2 * LANES` for
    // both `p` and every `j` step: all `2 * L1` of them.
    unsafe { crate::assume_init_bytes(out) }
}

/// [`transform_clip`] and the list of its output's non-zero four-byte
/// chunks, searched after the output is written ([`nonzero_chunks`]).
///
/// # Safety
/// The CPU supports `L`'s and `D`'s instructions.
#[inline(always)]
pub unsafe fn transform_clip_listed<'o, 'l, L: Lanes, D: Dot, const L1: usize, const MAX: i16, const CHUNKS: usize>(
    acc: &[[i16; L1]; 2],
    order: [usize; 2],
    out: &'o mut [MaybeUninit<u8>],
    slots: &'l mut ChunkSlots<CHUNKS>,
) -> (&'o mut [u8], ChunkList<'l, CHUNKS>) {
    // SAFETY: the caller guarantees the instructions.
    let bytes = unsafe { transform_clip::<L, L1, MAX>(acc, order, out) };
    // SAFETY: as above.
    let list = unsafe { nonzero_chunks::<D, CHUNKS>(bytes, slots) };
    (bytes, list)
}

macro_rules! pairwise {
    ($(#[$doc:meta])* $name:ident, $listed:ident, $step:ident, $shift:ident, $product:ident, $clamp_b:ident, $requires:expr) => {
        /// One step of the kernel below: output bytes `j .. j + 2 * LANES`
        /// of perspective `src`'s half, stored at `dst`.
        ///
        /// # Safety
        /// `src` holds `2 * half` lanes, `j + 2 * LANES <= half`, `dst` is
        /// valid for `2 * LANES` writes; the CPU supports `L`'s instructions.
        #[inline(always)]
        unsafe fn $step<L: Lanes, const MAX: i16, const $shift: i32>(src: *const i16, half: usize, j: usize, dst: *mut u8) {
            // SAFETY: the caller's guarantees.
            unsafe {
                let a0 = L::clamp(L::load(src.add(j)), MAX);
                let a1 = L::clamp(L::load(src.add(j + L::LANES)), MAX);
                let b0 = L::$clamp_b(L::load(src.add(half + j)), MAX);
                let b1 = L::$clamp_b(L::load(src.add(half + j + L::LANES)), MAX);
                L::pack_store(dst, L::$product::<$shift>(a0, b0), L::$product::<$shift>(a1, b1));
            }
        }

        $(#[$doc])*
        ///
        /// `out` holds `L1` bytes, all written and returned.
        ///
        /// # Safety
        /// The CPU supports `L`'s instructions.
        #[inline(always)]
        pub unsafe fn $name<'o, L: Lanes, const L1: usize, const MAX: i16, const $shift: i32>(
            acc: &[[i16; L1]; 2],
            order: [usize; 2],
            out: &'o mut [MaybeUninit<u8>],
        ) -> &'o mut [u8] {
            const { assert!((L1 / 2) % (2 * L::LANES) == 0 && $requires(MAX as i64, $shift as i64)) };
            let half = L1 / 2;
            assert_eq!(out.len(), L1);
            // Both perspectives in one pass: two independent streams of
            // loads and products per step.
            let srcs = order.map(|perspective| acc[perspective].as_ptr());
            let dst = out.as_mut_ptr().cast::<u8>();
            for j in (0..half).step_by(2 * L::LANES) {
                for (p, &src) in srcs.iter().enumerate() {
                    // SAFETY: reads stay below L1 and writes below L1
                    // (checked); the caller guarantees the instructions.
                    unsafe { $step::<L, MAX, $shift>(src, half, j, dst.add(p * half + j)) };
                }
            }
            // SAFETY: the loops above wrote bytes `p * L1/2 + j .. + 2 * LANES`
            // for both `p` and every `j` step: all `L1` of them.
            unsafe { crate::assume_init_bytes(out) }
        }

        #[doc = concat!("[`", stringify!($name), "`] and the list of its output's non-zero")]
        /// four-byte chunks. Where a stored register of output is one
        /// register of the search's chunks (AVX2, AVX-VNNI, AVX-512), each
        /// is searched ([`ChunkSearch`]) as soon as it is stored, one
        /// perspective after the other; otherwise (NEON: registers of four
        /// chunks) the output is searched after it is written
        /// ([`nonzero_chunks`]). Against the search after the output,
        /// interleaved A/B of eval on a Zen 5: with AVX2 0.945-0.99 on the
        /// 17.1 big net, 0.96-0.98 on the stand-in, 0.97 on Stockfish 19's
        /// and 0.945 on 18's; with AVX-512 VNNI 0.98-1.00 on 19's, 0.95 on
        /// 18's, 0.99 on 17.1's big net and the stand-in.
        ///
        /// # Safety
        /// The CPU supports `L`'s and `D`'s instructions.
        #[inline(always)]
        pub unsafe fn $listed<'o, 'l, L: Lanes, D: Dot, const L1: usize, const MAX: i16, const $shift: i32, const CHUNKS: usize>(
            acc: &[[i16; L1]; 2],
            order: [usize; 2],
            out: &'o mut [MaybeUninit<u8>],
            slots: &'l mut ChunkSlots<CHUNKS>,
        ) -> (&'o mut [u8], ChunkList<'l, CHUNKS>) {
            let fused = ChunkSearch::<D, CHUNKS>::BY_REGISTER && 2 * L::LANES == 4 * D::LANES;
            if !fused {
                // SAFETY: the caller guarantees the instructions.
                let bytes = unsafe { $name::<L, L1, MAX, $shift>(acc, order, out) };
                // SAFETY: as above.
                let list = unsafe { nonzero_chunks::<D, CHUNKS>(bytes, slots) };
                return (bytes, list);
            }
            const { assert!((L1 / 2) % (2 * L::LANES) == 0 && $requires(MAX as i64, $shift as i64)) };
            let half = L1 / 2;
            assert!(out.len() == L1 && 4 * CHUNKS == L1);
            let srcs = order.map(|perspective| acc[perspective].as_ptr());
            let dst = out.as_mut_ptr().cast::<u8>();
            let mut search = ChunkSearch::<D, CHUNKS>::new(slots);
            for (p, &src) in srcs.iter().enumerate() {
                for j in (0..half).step_by(2 * L::LANES) {
                    // SAFETY: reads stay below L1 and writes below L1
                    // (checked); the caller guarantees the instructions.
                    // The register stored is `D::LANES` chunks of at most
                    // 127 (`fused`; the transform's output), searched in
                    // order, ending at `L1 / 4 == CHUNKS`. It is read back
                    // from the store (forwarded): with AVX2 its mask taken
                    // before the store was no faster (eval of four nets:
                    // 0.98-1.05 of this).
                    unsafe {
                        let at = dst.add(p * half + j);
                        $step::<L, MAX, $shift>(src, half, j, at);
                        search.push_register(at);
                    }
                }
            }
            // SAFETY: the loops above wrote bytes `p * L1/2 + j .. + 2 * LANES`
            // for both `p` and every `j` step: all `L1` of them.
            (unsafe { crate::assume_init_bytes(out) }, search.finish())
        }
    };
}

const fn mulhi_exact(max: i64, shl: i64) -> bool {
    max << shl < 1 << 16
}

const fn mulhi_signed_exact(max: i64, shl: i64) -> bool {
    max << shl < 1 << 15
}

const fn mullo_exact(max: i64, _shr: i64) -> bool {
    max * max < 1 << 16
}

pairwise!(
    /// `out[p * L1/2 + j] = clamp(a) * clamp(b) / 2^(16 - SHL)` with `a`, `b`
    /// lane `j` of the two halves, as `((a << SHL) * b) >> 16` on unsigned
    /// lanes (requires `MAX << SHL < 2^16`).
    transform_pairwise_mulhi, transform_pairwise_mulhi_listed, pairwise_mulhi_step, SHL, mulhi_shifted, clamp, mulhi_exact
);
pairwise!(
    /// As [`transform_pairwise_mulhi`], clamping `b` only from above: with
    /// `MAX << SHL < 2^15` the signed high product of `a << SHL >= 0` and a
    /// negative `b` is negative, which the unsigned pack turns into 0, the
    /// value `clamp(b, 0, MAX) = 0` would give. One instruction fewer per
    /// register.
    transform_pairwise_mulhi_signed, transform_pairwise_mulhi_signed_listed, pairwise_mulhi_signed_step, SHL, mulhi_signed_shifted, min, mulhi_signed_exact
);
pairwise!(
    /// `out[p * L1/2 + j] = clamp(a) * clamp(b) >> SHR` (requires
    /// `MAX * MAX < 2^16`).
    transform_pairwise_mullo, transform_pairwise_mullo_listed, pairwise_mullo_step, SHR, mullo_shifted, clamp, mullo_exact
);
