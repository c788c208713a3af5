//! `Bias`'s parameters: one i32 bias per value, added with a wrapping add
//! (an integer layer's biases added after its sum was shifted); its
//! forward pass is in `crate::scalar`.

/// The i32 biases of a `Bias` layer with `N` values.
pub struct Bias<const N: usize> {
    pub biases: Box<[i32; N]>,
}

impl<const N: usize> Bias<N> {
    /// The biases of stack `stack` out of a bullet tensor holding every
    /// stack's, stack by stack.
    pub fn from_tensor(biases: &[i32], stack: usize) -> Self {
        let biases: Box<[i32; N]> = super::stack_values(biases, stack);
        Bias { biases }
    }
}
