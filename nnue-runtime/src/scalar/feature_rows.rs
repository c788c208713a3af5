//! One feature set's rows in a transformer that sums several feature sets
//! into one accumulator: a row of `L1` weights (i16, or i8 widened when
//! added) and a row of `B` PSQT weights (i32) per feature.

use crate::aligned::AlignedSlice;
use crate::simd::Widen;

/// The rows of one feature set, weights of type `W`.
pub struct FeatureRows<W: Widen> {
    /// `features` rows of `L1` weights.
    pub weights: AlignedSlice<W>,
    /// `features` rows of `B` PSQT weights.
    pub psqt_weights: AlignedSlice<i32>,
}

impl<W: Widen> FeatureRows<W> {
    /// All-zero rows for `features` features, `lanes` lanes and `buckets`
    /// PSQT buckets (filled by the reader).
    pub fn zeroed(features: usize, lanes: usize, buckets: usize) -> Self {
        FeatureRows { weights: AlignedSlice::zeroed(features * lanes), psqt_weights: AlignedSlice::zeroed(features * buckets) }
    }

    /// `values += sum(added rows) - sum(removed rows)`, the same for `psqt`
    /// with the PSQT rows, wrapping as Stockfish's i16 and i32 sums: the
    /// scalar reference of [`crate::kernels::update_rows`].
    pub fn update<const L1: usize, const B: usize>(&self, removed: &[u32], added: &[u32], values: &mut [i16; L1], psqt: &mut [i32; B]) {
        for &feature in removed {
            let feature = feature as usize;
            for (v, &w) in values.iter_mut().zip(&self.weights[feature * L1..][..L1]) {
                *v = v.wrapping_sub(w.into());
            }
            for (p, &w) in psqt.iter_mut().zip(&self.psqt_weights[feature * B..][..B]) {
                *p = p.wrapping_sub(w);
            }
        }
        for &feature in added {
            let feature = feature as usize;
            for (v, &w) in values.iter_mut().zip(&self.weights[feature * L1..][..L1]) {
                *v = v.wrapping_add(w.into());
            }
            for (p, &w) in psqt.iter_mut().zip(&self.psqt_weights[feature * B..][..B]) {
                *p = p.wrapping_add(w);
            }
        }
    }

    /// Stores the lanes in the packing order of `lanes`-wide registers, as
    /// [`super::Transformer::permute_lanes`].
    pub fn permute_lanes(&mut self, lanes: usize) {
        crate::kernels::layout::permute_lanes(&mut self.weights, lanes);
    }
}
