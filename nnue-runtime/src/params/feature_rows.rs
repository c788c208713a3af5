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
        FeatureRows {
            weights: AlignedSlice::zeroed(features * lanes),
            psqt_weights: AlignedSlice::zeroed(features * buckets),
        }
    }

    /// Stores the lanes in the packing order of `lanes`-wide registers, as
    /// [`super::Transformer::permute_lanes`].
    pub fn permute_lanes(&mut self, lanes: usize) {
        crate::kernels::layout::permute_lanes(&mut self.weights, lanes);
    }
}
