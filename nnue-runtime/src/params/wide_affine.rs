//! Affine layers with i16 weights (bullet nets' output layers): u8 or i32
//! inputs, i32 biases and sums, the sum divided before the bias is added.

use crate::aligned::{Aligned, AlignedSlice};

/// An affine layer with `IN` inputs, `OUT` outputs and i16 weights, one
/// row of `IN` weights per output.
pub struct WideAffine<const IN: usize, const OUT: usize> {
    pub biases: Box<[i32; OUT]>,
    /// `OUT` rows of `IN` weights.
    pub weights: AlignedSlice<i16>,
    /// The largest `|weight|`.
    max_abs_weight: i32,
    /// The weights with each row's two halves (the side to move's lanes,
    /// the other side's) in the accumulators' storage order; zeros until
    /// [`Self::prepare_accumulator_order`]. Held in the layer itself, not
    /// behind a pointer: an evaluation straight from the accumulators
    /// starts on them one load sooner (Obsidian's net, AVX2: eval 0.987,
    /// move + eval 0.980 in an interleaved A/B, faster in 13 of 15 rounds).
    accumulator_weights: Aligned<[[i16; IN]; OUT]>,
}

impl<const IN: usize, const OUT: usize> WideAffine<IN, OUT> {
    /// The layer of stack `stack` out of bullet tensors holding every stack:
    /// `biases[stack * OUT + o]`, and the weights as `layout` orders them
    /// (see [`crate::format::bullet::weight_index`]).
    pub fn from_tensors(
        biases: &[i32],
        weights: &[i16],
        layout: crate::format::bullet::Layout,
        stacks: usize,
        stack: usize,
    ) -> Self {
        let biases: Box<[i32; OUT]> = super::stack_values(biases, stack);
        let mut rows = AlignedSlice::zeroed(OUT * IN);
        for o in 0..OUT {
            for i in 0..IN {
                rows[o * IN + i] = weights[crate::format::bullet::weight_index(layout, stacks, OUT, IN, stack, o, i)];
            }
        }
        let max_abs_weight = rows.iter().map(|&w| i32::from(w).abs()).max().unwrap_or(0);
        WideAffine { biases, weights: rows, max_abs_weight, accumulator_weights: Aligned([[0; IN]; OUT]) }
    }

    /// Makes [`Self::accumulator_weights`] for a layer reading both
    /// accumulators directly (`IN` = 2 x L1): each row's halves permuted as
    /// a backend whose registers hold `lanes` i16 lanes stores the
    /// accumulator (see [`crate::kernels::layout::permute_lanes`]), or
    /// unchanged for `None`.
    pub fn prepare_accumulator_order(&mut self, lanes: Option<usize>) {
        let mut weights = self.weights.clone();
        if let Some(lanes) = lanes {
            for half in weights.chunks_exact_mut(IN / 2) {
                crate::kernels::layout::permute_lanes(half, lanes);
            }
        }
        self.accumulator_weights.0.as_flattened_mut().copy_from_slice(&weights);
    }

    /// The weights in the accumulators' storage order (zeros unless
    /// prepared).
    pub fn accumulator_weights(&self) -> &[i16] {
        self.accumulator_weights.0.as_flattened()
    }

    /// Whether every product of a weight and an input of at most
    /// `max_input` fits an i16 (proven once, on loading): then the SIMD
    /// kernel [`crate::kernels::screlu_affine`] may multiply in 16 bits, as
    /// Obsidian's engine does (its net has |w| <= 126: 255 * 126 <= 32767).
    pub fn i16_products(&self, max_input: i32) -> bool {
        self.max_abs_weight * max_input <= i32::from(i16::MAX)
    }
}
