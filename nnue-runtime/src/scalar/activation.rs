//! Activations between affine layers: i32 in, u8 out.

/// `out[i] = clamp(input[i] >> shift, 0, max)`.
#[inline]
pub fn clipped_relu<const N: usize>(input: &[i32; N], shift: u32, max: i32, out: &mut [u8; N]) {
    for (o, &x) in out.iter_mut().zip(input) {
        *o = (x >> shift).clamp(0, max) as u8;
    }
}

/// `out[i] = min((input[i] * input[i]) >> shift, max)`, the square in 64 bits.
#[inline]
pub fn sqr_clipped_relu<const N: usize>(input: &[i32; N], shift: u32, max: i32, out: &mut [u8; N]) {
    for (o, &x) in out.iter_mut().zip(input) {
        let square = i64::from(x) * i64::from(x);
        *o = (square >> shift).min(i64::from(max)) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipped_relu_clamps_after_the_shift() {
        let mut out = [0; 5];
        clipped_relu(&[-1, 63, 64, 127 * 64, i32::MAX], 6, 127, &mut out);
        assert_eq!(out, [0, 0, 1, 127, 127]);
    }

    #[test]
    fn sqr_clipped_relu_squares_in_64_bits() {
        let mut out = [0; 4];
        sqr_clipped_relu(&[-724, 724, 1 << 20, i32::MIN], 19, 127, &mut out);
        assert_eq!(out, [0, 0, 127, 127]);
        sqr_clipped_relu(&[-2048, 2048, 8000, 0], 19, 127, &mut out);
        assert_eq!(out, [8, 8, 122, 0]);
    }
}
