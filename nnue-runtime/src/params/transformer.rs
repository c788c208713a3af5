//! The feature transformer's parameters: its biases, and a row of weights
//! and a row of PSQT weights per feature (the accumulator is the biases plus
//! the rows of the active features, per perspective).

use crate::aligned::{Aligned, AlignedSlice};
use crate::error::LoadError;
use crate::format::reader::{Encoding, NetReader};

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
    pub fn read(
        r: &mut NetReader<'_>,
        features: usize,
        encoding: Encoding,
        load_scale: i32,
    ) -> Result<Self, LoadError> {
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
        let update =
            crate::kernels::SetUpdate { weights: &self.weights, psqt_weights: &self.psqt_weights, removed, added };
        crate::kernels::SetUpdates::prefetch_rows::<L1, B>(&update, lanes, crate::simd::CacheLevel::First);
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

    /// Stores the lanes in the packing order of `lanes`-wide registers
    /// ([`crate::kernels::layout::permute_lanes`]); the SIMD backends'
    /// transformer kernels expect it.
    pub fn permute_lanes(&mut self, lanes: usize) {
        crate::kernels::layout::permute_lanes(&mut self.biases[..], lanes);
        crate::kernels::layout::permute_lanes(&mut self.weights, lanes);
    }
}
