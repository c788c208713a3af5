//! Activations between affine layers: i32 in, u8 out; and SCReLU, u8 or
//! i32 in, i32 out.

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

/// `out[i] = clamp(input[i], 0, max)^2` (bullet's SCReLU; `max * max` fits
/// an i32, as the architecture's validation ensures).
#[inline]
pub fn screlu<T: Copy + Into<i32>, const N: usize>(input: &[T; N], max: i32, out: &mut [i32; N]) {
    for (o, &x) in out.iter_mut().zip(input) {
        let x = x.into().clamp(0, max);
        *o = x * x;
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
    fn screlu_clamps_then_squares() {
        let mut out = [0; 5];
        screlu(&[-5i32, 0, 3, 255, 300], 255, &mut out);
        assert_eq!(out, [0, 0, 9, 65025, 65025]);
        let mut out = [0; 2];
        screlu(&[200u8, 255], 181, &mut out);
        assert_eq!(out, [32761, 32761]);
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
