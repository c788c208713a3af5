//! `Dequantize`'s parameters: one f32 bias per output, added to each
//! integer sum by a fused multiply-add (`runtime::scalar::dequantize`).

/// The f32 biases of a `Dequantize` layer with `N` values.
pub struct Dequantize<const N: usize> {
    pub biases: Box<[f32; N]>,
}

impl<const N: usize> Dequantize<N> {
    /// The biases of stack `stack` out of a bullet tensor holding every
    /// stack's, stack by stack.
    pub fn from_tensor(biases: &[f32], stack: usize) -> Self {
        let biases: Box<[f32; N]> = super::stack_values(biases, stack);
        Dequantize { biases }
    }
}
