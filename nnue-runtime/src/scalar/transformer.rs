//! The feature transformer: bias plus the weight rows of the active features,
//! per perspective, and its output stage.

use crate::aligned::{Aligned, AlignedSlice};
use crate::error::LoadError;
use crate::reader::{Encoding, NetReader};

/// A transformer of `L1` i16 lanes over `features` input features, with `B`
/// PSQT buckets (i32).
pub struct Transformer<const L1: usize, const B: usize> {
    pub biases: Box<Aligned<[i16; L1]>>,
    /// `features` rows of `L1` weights.
    pub weights: AlignedSlice<i16>,
    /// `features` rows of `B` PSQT weights.
    pub psqt_weights: AlignedSlice<i32>,
}

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

/// `out[i] = clamp(values[i], 0, max)`.
#[inline]
pub fn clipped_output(values: &[i16], max: i16, out: &mut [u8]) {
    for (o, &v) in out.iter_mut().zip(values) {
        *o = v.clamp(0, max) as u8;
    }
}

/// `out[i] = clamp(a[i], 0, max) * clamp(b[i], 0, max) / divisor` where `a` and
/// `b` are the two halves of `values`.
#[inline]
pub fn pairwise_output(values: &[i16], max: i16, divisor: i32, out: &mut [u8]) {
    let (a, b) = values.split_at(values.len() / 2);
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        let product = i32::from(x.clamp(0, max)) * i32::from(y.clamp(0, max));
        *o = (product / divisor) as u8;
    }
}
