//! Float layers (bullet nets' f32 tails): f32 weights and biases, summed in
//! a fixed order so that every backend gives the same bits as the engine.

use crate::aligned::AlignedSlice;

/// An affine layer with `IN` inputs and `OUT` outputs in f32. The weights
/// are held input-major (`IN` rows of `OUT`), so that one input updates
/// every output at once: the order of each output's sum is unchanged, and
/// the loop over the outputs vectorises without reassociating anything.
pub struct FloatAffine<const IN: usize, const OUT: usize> {
    pub biases: Box<[f32; OUT]>,
    /// `IN` rows of `OUT` weights.
    pub weights: AlignedSlice<f32>,
}

impl<const IN: usize, const OUT: usize> FloatAffine<IN, OUT> {
    /// The layer of stack `stack` out of bullet tensors holding every stack
    /// (see [`crate::format::bullet::weight_index`]).
    pub fn from_tensors(
        biases: &[f32],
        weights: &[f32],
        layout: crate::format::bullet::Layout,
        stacks: usize,
        stack: usize,
    ) -> Self {
        let biases: Box<[f32; OUT]> = super::stack_values(biases, stack);
        let mut rows = AlignedSlice::zeroed(IN * OUT);
        for i in 0..IN {
            for o in 0..OUT {
                rows[i * OUT + o] = weights[crate::format::bullet::weight_index(layout, stacks, OUT, IN, stack, o, i)];
            }
        }
        FloatAffine { biases, weights: rows }
    }
}
