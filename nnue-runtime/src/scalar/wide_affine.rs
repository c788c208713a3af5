//! The forward pass in plain Rust of an affine layer with i16 weights: the
//! sum divided before the bias is added.

use crate::params::WideAffine;

impl<const IN: usize, const OUT: usize> WideAffine<IN, OUT> {
    /// `out[o] = sums[o] / divisor + biases[o]`: the end of
    /// [`Self::propagate`] for sums computed elsewhere.
    #[inline]
    pub fn finish(&self, sums: &[i32; OUT], divisor: i32, out: &mut [i32; OUT]) {
        for ((value, &sum), &bias) in out.iter_mut().zip(sums).zip(self.biases.iter()) {
            *value = (if divisor == 1 { sum } else { sum.wrapping_div(divisor) }).wrapping_add(bias);
        }
    }

    /// `out[o] = (sum_i weights[o][i] * input[i]) / divisor + biases[o]`, the
    /// sum in wrapping i32 arithmetic and the division truncating toward
    /// zero (C's).
    #[inline]
    pub fn propagate<T: Copy + Into<i32>>(&self, input: &[T; IN], divisor: i32, out: &mut [i32; OUT]) {
        let mut sums = [0i32; OUT];
        for (sum, row) in sums.iter_mut().zip(self.weights.chunks_exact(IN)) {
            *sum =
                input.iter().zip(row).fold(0i32, |acc, (&x, &w)| acc.wrapping_add(x.into().wrapping_mul(i32::from(w))));
        }
        self.finish(&sums, divisor, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::bullet::Layout;

    #[test]
    fn divides_before_the_bias_truncating_toward_zero() {
        // Two stacks of one output over three inputs, input-major with the
        // stacks interleaved: weights[i * 2 + stack].
        let weights = [1i16, -1, 2, -2, 3, -3];
        let layer = WideAffine::<3, 1>::from_tensors(&[10, 20], &weights, Layout::InputMajor, 2, 1);
        assert_eq!(&layer.weights[..], &[-1, -2, -3]);
        let mut out = [0];
        layer.propagate(&[1i32, 1, 1], 4, &mut out);
        // -6 / 4 = -1 (toward zero), + 20.
        assert_eq!(out, [19]);
    }
}
