//! An affine layer's forward pass in plain Rust.

use crate::params::Affine;

impl<const IN: usize, const PADDED: usize, const OUT: usize> Affine<IN, PADDED, OUT> {
    /// `out[o] = biases[o] + sum_i weights[o][i] * input[i]` (wrapping, as the
    /// SIMD kernels do).
    #[inline]
    pub fn propagate(&self, input: &[u8; IN], out: &mut [i32; OUT]) {
        for (o, (sum, row)) in out.iter_mut().zip(self.weights.chunks_exact(PADDED)).enumerate() {
            *sum = input
                .iter()
                .zip(row)
                .fold(self.biases[o], |acc, (&x, &w)| acc.wrapping_add(i32::from(x) * i32::from(w)));
        }
    }
}
