//! An affine layer with i32 weights on i32 inputs and i32 biases, in
//! wrapping i32 arithmetic (Stormphrax's L2 and L3): `out[o] = bias[o] +
//! sum_i weight[o][i] * input[i]` (its forward pass, which every backend
//! runs, is in `crate::scalar`).

/// The weights and biases of an i32 layer of `IN` inputs and `OUT` outputs.
pub struct I32Affine<const IN: usize, const OUT: usize> {
    pub biases: Box<[i32; OUT]>,
    /// `OUT` rows of `IN` weights.
    pub weights: Box<[i32]>,
}

impl<const IN: usize, const OUT: usize> I32Affine<IN, OUT> {
    /// The layer of stack `stack` out of bullet tensors holding every stack:
    /// `biases[stack * OUT + o]`, and the weights as `layout` orders them
    /// (see [`crate::format::bullet::weight_index`]).
    pub fn from_tensors(
        biases: &[i32],
        weights: &[i32],
        layout: crate::format::bullet::Layout,
        stacks: usize,
        stack: usize,
    ) -> Self {
        let biases: Box<[i32; OUT]> =
            biases[stack * OUT..][..OUT].to_vec().into_boxed_slice().try_into().expect("OUT values");
        let mut rows = vec![0i32; OUT * IN].into_boxed_slice();
        for o in 0..OUT {
            for i in 0..IN {
                rows[o * IN + i] = weights[crate::format::bullet::weight_index(layout, stacks, OUT, IN, stack, o, i)];
            }
        }
        I32Affine { biases, weights: rows }
    }
}
