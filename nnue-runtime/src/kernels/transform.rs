//! The transformer's output: clipped or pairwise-multiplied accumulators
//! packed to bytes. The accumulator lanes are stored in the ISA's packing
//! order ([`super::layout::packus_order`]), so the packed bytes come out in
//! logical order with no shuffle.
//!
//! The output buffer need not be initialised: every kernel writes all of it
//! and returns it as bytes (an engine evaluates millions of times a second,
//! and zeroing a 3 KiB buffer first costs as much as a tenth of an
//! evaluation).

use super::{ChunkList, ChunkSearch, ChunkSlots, nonzero_chunks};
use crate::simd::{Dot, Lanes};
use core::mem::MaybeUninit;

/// Whether the pairwise kernels' listing forms, for accumulators of
/// `lanes` lanes per perspective, search each register of output as they
/// store it (`while_storing`) rather than the output after it is written:
/// unless the CPU's L1 data cache ([`crate::platform::cpu_cache`]) is known to be
/// smaller than 48 KB and the accumulators have 1024 lanes or more. In
/// interleaved A/B runs of `nnue bench`'s eval (accumulators ready), the
/// search while storing against the search after: on a Zen 5 (48 KB L1),
/// AVX2 0.945-0.99 on the 17.1 big net (3072 lanes), 0.96-0.98 on the
/// stand-in (2560), 0.97 on Stockfish 19's (1024) and 0.945 on 18's
/// (1024); AVX-512 VNNI 0.98-1.00 on 19's, 0.95 on 18's, 0.99 on 17.1's
/// big net and the stand-in. On a Zen 3 (32 KB L1), AVX2: 1.02-1.09 on the
/// 17.1 big net, 1.07-1.11 on the stand-in, 1.04-1.06 on 18's, 1.00-1.02
/// on 19's, but 0.96-1.00 on the small net (128 lanes). Where an
/// evaluation's data (for 3072 lanes: 12 KB of accumulators, 3 KB of
/// output and the first layer's columns of the non-zero chunks) is about
/// the size of a 32 KB L1, the transformer's loads miss it, and the
/// search's chain in the same loop (store, reload, mask, table, store)
/// keeps the core from running ahead to them.
#[inline(always)]
pub fn search_while_storing(lanes: usize) -> bool {
    lanes < 1024 || crate::platform::cpu_cache::l1_data_at_least(48 * 1024)
}

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
    unsafe { crate::aligned::assume_init_bytes(out) }
}

/// [`transform_clip`] and the list of its output's non-zero four-byte
/// chunks, searched after the output is written ([`nonzero_chunks`]);
/// `_while_storing` is taken for the pairwise kernels' signature only.
///
/// # Safety
/// The CPU supports `L`'s and `D`'s instructions.
#[inline(always)]
pub unsafe fn transform_clip_listed<'o, 'l, L: Lanes, D: Dot, const L1: usize, const MAX: i16, const CHUNKS: usize>(
    acc: &[[i16; L1]; 2],
    order: [usize; 2],
    out: &'o mut [MaybeUninit<u8>],
    slots: &'l mut ChunkSlots<CHUNKS>,
    _while_storing: bool,
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
            unsafe { crate::aligned::assume_init_bytes(out) }
        }

        #[doc = concat!("[`", stringify!($name), "`] and the list of its output's non-zero")]
        /// four-byte chunks. With `while_storing` ([`search_while_storing`]),
        /// where a stored register of output is one register of the
        /// search's chunks (AVX2, AVX-VNNI, AVX-512), each is searched
        /// ([`ChunkSearch`]) as soon as it is stored, one perspective after
        /// the other; otherwise (and always with NEON: registers of four
        /// chunks) the output is searched after it is written
        /// ([`nonzero_chunks`]). The list is the same either way.
        ///
        /// # Safety
        /// The CPU supports `L`'s and `D`'s instructions.
        #[inline(always)]
        pub unsafe fn $listed<'o, 'l, L: Lanes, D: Dot, const L1: usize, const MAX: i16, const $shift: i32, const CHUNKS: usize>(
            acc: &[[i16; L1]; 2],
            order: [usize; 2],
            out: &'o mut [MaybeUninit<u8>],
            slots: &'l mut ChunkSlots<CHUNKS>,
            while_storing: bool,
        ) -> (&'o mut [u8], ChunkList<'l, CHUNKS>) {
            let fused = while_storing && ChunkSearch::<D, CHUNKS>::BY_REGISTER && 2 * L::LANES == 4 * D::LANES;
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
            (unsafe { crate::aligned::assume_init_bytes(out) }, search.finish())
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

#[cfg(test)]
mod tests {
    use super::super::{ChunkList, ChunkSlots, nonzero_chunks};
    use crate::simd::{Dot, Lanes};
    use core::mem::MaybeUninit;

    const L1: usize = 1024;
    const CHUNKS: usize = L1 / 4;

    /// Every pairwise listing kernel, searching while storing and after
    /// (the clipped one only searches after), writes the plain kernel's
    /// bytes and lists exactly their non-zero chunks, in order, as the
    /// scalar search does (with values where the search lists them), on
    /// accumulators of every density, for every ISA this CPU runs.
    #[test]
    fn listing_forms_equal_plain_kernel() {
        fn check<L: Lanes, D: Dot>(acc: &crate::Aligned<[[i16; L1]; 2]>, order: [usize; 2]) {
            macro_rules! forms {
                ($plain:ident, $listed:ident, $($param:literal),*) => {{
                    let mut plain = crate::Aligned([MaybeUninit::uninit(); L1]);
                    // SAFETY: the caller checked the CPU for `L` and `D`.
                    let bytes = unsafe { super::$plain::<L, L1, $($param),*>(&acc.0, order, &mut plain.0) }.to_vec();
                    let mut scalar_slots = ChunkSlots::<CHUNKS>::new();
                    let expected = ChunkList::<CHUNKS>::search(&bytes, &mut scalar_slots);
                    for while_storing in [false, true] {
                        let mut out = crate::Aligned([MaybeUninit::uninit(); L1]);
                        let mut slots = ChunkSlots::<CHUNKS>::new();
                        // SAFETY: as above.
                        let (listed_bytes, list) =
                            unsafe { super::$listed::<L, D, L1, $($param,)* CHUNKS>(&acc.0, order, &mut out.0, &mut slots, while_storing) };
                        let form = format!("{}, while storing: {while_storing}", stringify!($listed));
                        assert_eq!(listed_bytes, &bytes[..], "{form}");
                        assert_eq!(list.indices(), expected.indices(), "{form}");
                        if let Some(values) = list.values() {
                            assert_eq!(values, expected.values().unwrap(), "{form}");
                        }
                    }
                    // The search after the output, alone, agrees too.
                    let mut slots = ChunkSlots::<CHUNKS>::new();
                    // SAFETY: as above.
                    assert_eq!(unsafe { nonzero_chunks::<D, CHUNKS>(&bytes, &mut slots) }.indices(), expected.indices());
                }};
            }
            // Parameters whose products stay within 127, as a sparse
            // layer's inputs must (Stockfish's 255 and 2^7 for the first).
            forms!(transform_pairwise_mulhi_signed, transform_pairwise_mulhi_signed_listed, 255, 7);
            forms!(transform_pairwise_mulhi, transform_pairwise_mulhi_listed, 127, 9);
            forms!(transform_pairwise_mullo, transform_pairwise_mullo_listed, 127, 7);
        }

        let mut rng = crate::Rng::new(0x5EA2_C4E5);
        let mut acc = crate::Aligned([[0i16; L1]; 2]);
        let mut tested = false;
        for case in 0..60 {
            // From all zero to all positive: the share of lanes above zero
            // (and of chunks not zero) grows with the case.
            let positive = case as i64 * 100 / 59;
            for lane in acc.0.iter_mut().flatten() {
                *lane = if rng.range(0, 99) < positive { rng.range(1, 400) as i16 } else { rng.range(-400, 0) as i16 };
            }
            let order = if case % 2 == 0 { [0, 1] } else { [1, 0] };
            #[cfg(target_arch = "x86_64")]
            {
                use crate::simd::x86::{
                    Avx2, Avx2Dot, Avx2Lanes, Avx512, Avx512Dot, Avx512Lanes, Avx512Vnni, Avx512VnniDot, AvxVnni,
                    AvxVnniDot,
                };
                if Avx2::new().is_some() {
                    check::<Avx2Lanes, Avx2Dot>(&acc, order);
                    tested = true;
                }
                if AvxVnni::new().is_some() {
                    check::<Avx2Lanes, AvxVnniDot>(&acc, order);
                }
                if Avx512::new().is_some() {
                    check::<Avx512Lanes, Avx512Dot>(&acc, order);
                }
                if Avx512Vnni::new().is_some() {
                    check::<Avx512Lanes, Avx512VnniDot>(&acc, order);
                }
            }
            #[cfg(target_arch = "aarch64")]
            {
                use crate::simd::aarch64::{Neon, NeonDot, NeonDotprod, NeonDotprodDot, NeonLanes};
                if Neon::new().is_some() {
                    check::<NeonLanes, NeonDot>(&acc, order);
                    tested = true;
                }
                if NeonDotprod::new().is_some() {
                    check::<NeonLanes, NeonDotprodDot>(&acc, order);
                }
            }
        }
        // Every CPU this project builds for has one of the two base ISAs.
        assert!(tested, "no SIMD backend ran");
    }
}
