//! An affine layer with i32 weights on i32 inputs and i32 biases, in
//! wrapping i32 arithmetic (Stormphrax's L2 and L3): `out[o] = bias[o] +
//! sum_i weight[o][i] * input[i]` (its forward pass is in `crate::scalar`;
//! SIMD backends multiply in 16 bits where the values fit, with
//! `crate::kernels::i32_affine_pairs`).

/// The weights and biases of an i32 layer of `IN` inputs and `OUT` outputs.
pub struct I32Affine<const IN: usize, const OUT: usize> {
    pub biases: Box<[i32; OUT]>,
    /// For each input, its weight to every output (input-major: the
    /// forward pass adds one input's products to all the sums at once,
    /// which vectorises across outputs without a horizontal sum per
    /// output).
    pub weights: Box<[[i32; OUT]]>,
    /// The weights again in i16, two inputs' side by side for every output
    /// (`pairs[p][o] = [weight of input 2p, of input 2p + 1]`), when every
    /// weight fits an i16, `IN` is even and `OUT` a multiple of 4 (whole
    /// registers of the narrowest backend, NEON's four i32 lanes: only such
    /// layers run the kernel); else empty.
    pub pairs: Box<[[[i16; 2]; OUT]]>,
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
        let biases: Box<[i32; OUT]> = super::stack_values(biases, stack);
        let mut columns = vec![[0i32; OUT]; IN].into_boxed_slice();
        for (i, column) in columns.iter_mut().enumerate() {
            for (o, w) in column.iter_mut().enumerate() {
                *w = weights[crate::format::bullet::weight_index(layout, stacks, OUT, IN, stack, o, i)];
            }
        }
        let narrow = IN.is_multiple_of(2)
            && OUT.is_multiple_of(4)
            && columns.iter().flatten().all(|&w| i16::try_from(w).is_ok());
        let pairs = if narrow {
            columns.chunks_exact(2).map(|two| core::array::from_fn(|o| [two[0][o] as i16, two[1][o] as i16])).collect()
        } else {
            Box::default()
        };
        I32Affine { biases, weights: columns, pairs }
    }
}
