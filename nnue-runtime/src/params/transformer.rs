//! The feature transformer: bias plus the weight rows of the active features,
//! per perspective, and its output stage.

use crate::aligned::{Aligned, AlignedSlice};
use crate::error::LoadError;
use crate::format::reader::{Encoding, NetReader};
use core::mem::MaybeUninit;

/// A transformer of `L1` i16 lanes over `features` input features, with `B`
/// PSQT buckets (i32).
pub struct Transformer<const L1: usize, const B: usize> {
    pub biases: Box<Aligned<[i16; L1]>>,
    /// `features` rows of `L1` weights.
    pub weights: AlignedSlice<i16>,
    /// `features` rows of `B` PSQT weights.
    pub psqt_weights: AlignedSlice<i32>,
}

/// The longest rows (in lanes) whose refresh requests each row as its
/// feature is listed ([`Transformer::request_listed_row`]). Interleaved A/B
/// of `nnue bench --ops refresh` on a Zen 5 (new/old, median of 7 rounds,
/// two runs): the small net (128 lanes) 0.886-0.905 with AVX2 and
/// 0.911-0.920 with AVX-512 VNNI, HalfKP (256) 0.927-0.929 and 0.903-0.929,
/// Obsidian's net (512) 0.966-0.979 and 0.952; akimbo's (768) 1.004, the
/// 17.1 big net (3072) 1.002 and the SFNNv8 stand-in (2560) 0.973 with AVX2
/// (one run of 5 rounds), whose refreshes stream long rows. Requesting the
/// whole row rather than its first line gave no more (the small net 0.933
/// against 0.927), nor did requesting the PSQT values too (0.948). This
/// replaced the request of the second perspective's rows, whole, before the
/// first was summed (HalfKP's refresh alone: 0.929 without it, 0.928 with
/// it, with AVX2; 0.903 and 0.978 with AVX-512 VNNI).
pub const LISTED_REQUEST_LANES: usize = 512;

impl<const L1: usize, const B: usize> Transformer<L1, B> {
    /// Reads biases, weights and PSQT weights (in that order). Biases and
    /// weights are multiplied by `load_scale`.
    pub fn read(r: &mut NetReader<'_>, features: usize, encoding: Encoding, load_scale: i32) -> Result<Self, LoadError> {
        let mut biases = Box::new(Aligned([0i16; L1]));
        r.ints("transformer biases", encoding, load_scale, &mut biases[..])?;
        let mut weights = AlignedSlice::zeroed(features * L1);
        r.ints("transformer weights", encoding, load_scale, &mut weights)?;
        let mut psqt_weights = AlignedSlice::zeroed(features * B);
        if B > 0 {
            r.ints("transformer PSQT weights", encoding, 1, &mut psqt_weights)?;
        }
        Ok(Transformer { biases, weights, psqt_weights })
    }

    /// Asks for the first `lanes` lanes (and the PSQT values) of the rows
    /// of an update made soon after (see [`crate::Network::prefetch_update`]).
    pub fn prefetch_rows(&self, removed: &[u32], added: &[u32], lanes: usize) {
        let update = crate::kernels::SetUpdate { weights: &self.weights, psqt_weights: &self.psqt_weights, removed, added };
        crate::kernels::SetUpdates::prefetch_rows::<L1, B>(&update, lanes);
    }

    /// Asks for the first cache line of `feature`'s row as a refresh lists
    /// it, for rows of at most [`LISTED_REQUEST_LANES`] lanes: the rows are
    /// then fetched while the rest of the features are listed, where they
    /// were requested only by the loop adding them. (Out of range, the
    /// request is for nothing: a prefetch never faults.)
    #[inline(always)]
    pub fn request_listed_row(&self, feature: u32) {
        if L1 <= LISTED_REQUEST_LANES {
            crate::simd::prefetch(self.weights.as_ptr().wrapping_add(feature as usize * L1));
        }
    }

    /// `out = base - sum(removed rows) + sum(added rows)` (wrapping i16 and
    /// i32, as Stockfish's), the values and the PSQT values.
    #[allow(clippy::too_many_arguments)]
    pub fn accumulate(
        &self,
        base: &[i16; L1],
        psqt_base: &[i32; B],
        removed: &[u32],
        added: &[u32],
        out: &mut [i16; L1],
        psqt_out: &mut [i32; B],
    ) {
        *out = *base;
        *psqt_out = *psqt_base;
        for &feature in removed {
            self.remove(feature as usize, out, psqt_out);
        }
        for &feature in added {
            self.add(feature as usize, out, psqt_out);
        }
    }

    /// Stores the lanes in the packing order of `lanes`-wide registers
    /// ([`crate::kernels::layout::permute_lanes`]); the SIMD backends'
    /// transformer kernels expect it.
    pub fn permute_lanes(&mut self, lanes: usize) {
        crate::kernels::layout::permute_lanes(&mut self.biases[..], lanes);
        crate::kernels::layout::permute_lanes(&mut self.weights, lanes);
    }

    /// Adds one feature's rows.
    #[inline]
    pub fn add(&self, feature: usize, values: &mut [i16; L1], psqt: &mut [i32; B]) {
        let row = &self.weights[feature * L1..][..L1];
        for (v, &w) in values.iter_mut().zip(row) {
            *v = v.wrapping_add(w);
        }
        let row = &self.psqt_weights[feature * B..][..B];
        for (p, &w) in psqt.iter_mut().zip(row) {
            *p = p.wrapping_add(w);
        }
    }

    /// Subtracts one feature's rows.
    #[inline]
    pub fn remove(&self, feature: usize, values: &mut [i16; L1], psqt: &mut [i32; B]) {
        let row = &self.weights[feature * L1..][..L1];
        for (v, &w) in values.iter_mut().zip(row) {
            *v = v.wrapping_sub(w);
        }
        let row = &self.psqt_weights[feature * B..][..B];
        for (p, &w) in psqt.iter_mut().zip(row) {
            *p = p.wrapping_sub(w);
        }
    }
}

/// The clipped transformer output: `out[p * L1 + i] = clamp(acc[order[p]][i],
/// 0, max)`. `out` holds `2 * L1` bytes, all written and returned.
pub fn transform_clip<'o, const L1: usize>(
    acc: &[[i16; L1]; 2],
    order: [usize; 2],
    max: i16,
    out: &'o mut [MaybeUninit<u8>],
) -> &'o mut [u8] {
    assert_eq!(out.len(), 2 * L1);
    for (half, &perspective) in out.chunks_exact_mut(L1).zip(&order) {
        for (o, &v) in half.iter_mut().zip(&acc[perspective]) {
            o.write(v.clamp(0, max) as u8);
        }
    }
    // SAFETY: both `L1`-byte halves were written element by element.
    unsafe { crate::aligned::assume_init_bytes(out) }
}

/// Both accumulators unchanged, `order[0]`'s first: `out` holds `2 * L1`
/// i16 values as native-endian bytes, all written and returned (read back by
/// [`i16_values`]).
pub fn transform_accumulators<'o, const L1: usize>(
    acc: &[[i16; L1]; 2],
    order: [usize; 2],
    out: &'o mut [MaybeUninit<u8>],
) -> &'o mut [u8] {
    assert_eq!(out.len(), 4 * L1);
    for (half, &perspective) in out.chunks_exact_mut(2 * L1).zip(&order) {
        for (o, v) in half.chunks_exact_mut(2).zip(&acc[perspective]) {
            let bytes = v.to_ne_bytes();
            o[0].write(bytes[0]);
            o[1].write(bytes[1]);
        }
    }
    // SAFETY: both `2 * L1`-byte halves were written two bytes at a time.
    unsafe { crate::aligned::assume_init_bytes(out) }
}

/// The i16 values of a transformer output written by
/// [`transform_accumulators`].
#[inline]
pub fn i16_values<const N: usize>(bytes: &[u8]) -> [i16; N] {
    assert_eq!(bytes.len(), 2 * N);
    let mut values = [0i16; N];
    for (v, b) in values.iter_mut().zip(bytes.chunks_exact(2)) {
        *v = i16::from_ne_bytes([b[0], b[1]]);
    }
    values
}

/// `first` then `second` in one array (`N` = 2 x `H`).
#[inline]
pub fn join_halves<T: Copy + Default, const H: usize, const N: usize>(first: &[T; H], second: &[T; H]) -> [T; N] {
    const { assert!(N == 2 * H) };
    let mut out = [T::default(); N];
    out[..H].copy_from_slice(first);
    out[H..].copy_from_slice(second);
    out
}

/// The pairwise transformer output: `out[p * L1/2 + i] = clamp(a[i], 0, max) *
/// clamp(b[i], 0, max) / divisor`, `a` and `b` the two halves of
/// `acc[order[p]]`. `out` holds `L1` bytes, all written and returned.
pub fn transform_pairwise<'o, const L1: usize>(
    acc: &[[i16; L1]; 2],
    order: [usize; 2],
    max: i16,
    divisor: i32,
    out: &'o mut [MaybeUninit<u8>],
) -> &'o mut [u8] {
    assert!(L1.is_multiple_of(2) && out.len() == L1);
    for (half, &perspective) in out.chunks_exact_mut(L1 / 2).zip(&order) {
        let (a, b) = acc[perspective].split_at(L1 / 2);
        for ((o, &x), &y) in half.iter_mut().zip(a).zip(b) {
            let product = i32::from(x.clamp(0, max)) * i32::from(y.clamp(0, max));
            o.write((product / divisor) as u8);
        }
    }
    // SAFETY: both `L1 / 2`-byte halves were written element by element.
    unsafe { crate::aligned::assume_init_bytes(out) }
}
