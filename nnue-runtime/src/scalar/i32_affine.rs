//! The forward pass of an i32-weight `Affine` (`crate::params::I32Affine`):
//! one loop every backend runs; at Stormphrax's 64 x 64 the compiler's
//! vectorisation of it is enough.

use crate::params::I32Affine;

impl<const IN: usize, const OUT: usize> I32Affine<IN, OUT> {
    /// `out[o] = bias[o] + sum_i weight[o][i] * input[i]`, wrapping.
    #[inline]
    pub fn propagate(&self, input: &[i32; IN], out: &mut [i32; OUT]) {
        let mut sums = *self.biases;
        for (column, &x) in self.weights.iter().zip(input) {
            for (sum, &w) in sums.iter_mut().zip(column) {
                *sum = sum.wrapping_add(w.wrapping_mul(x));
            }
        }
        *out = sums;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::bullet::{Layout, StackOrder};

    #[test]
    fn sums_wrap_and_stacks_are_cut_out() {
        // Two stacks of 2 inputs -> 1 output, stack by stack, input-major.
        let layer = I32Affine::<2, 1>::from_tensors(
            &[10, 20],
            &[1, 2, i32::MAX, 1],
            Layout::Stacked(StackOrder::InputMajor),
            2,
            1,
        );
        let mut out = [0];
        layer.propagate(&[2, 3], &mut out);
        assert_eq!(out, [20i32.wrapping_add(i32::MAX.wrapping_mul(2)).wrapping_add(3)]);
    }
}
