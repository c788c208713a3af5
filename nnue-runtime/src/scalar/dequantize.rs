//! The forward pass of `Dequantize`: each i32 sum to f32 with its bias, in
//! one rounding (every backend runs it).

use crate::params::Dequantize;

impl<const N: usize> Dequantize<N> {
    /// `out[i] = fma(input[i] as f32, multiply, bias[i])`, in one rounding
    /// after the conversion (`as f32` rounds to nearest, as the engines'
    /// conversions do; exact within ±2^24).
    /// Always inlined: in a SIMD backend's kernel it is compiled with the
    /// backend's features, its multiply-adds one instruction each.
    #[inline(always)]
    pub fn propagate(&self, input: &[i32; N], multiply: f32, out: &mut [f32; N]) {
        for ((o, &x), &b) in out.iter_mut().zip(input).zip(self.biases.iter()) {
            *o = (x as f32).mul_add(multiply, b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_rounding() {
        // 3 * (1/3 rounded) + (-1): fused, the exact residue of the rounding
        // (2^-25) survives; multiplied first, it would round to 0.
        let third = 1.0f32 / 3.0;
        let layer = Dequantize::<2>::from_tensor(&[9.0, 9.0, -1.0, 0.5], 1);
        let mut out = [0.0; 2];
        layer.propagate(&[3, 0], third, &mut out);
        assert_eq!(out, [2f32.powi(-25), 0.5]);
    }
}
