//! Activations between affine layers: i32 in, u8 out; SCReLU, u8 or i32
//! in, i32 out; and the float layers' (f32 in and out, or a conversion).

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

/// `out[i] = clamp(input[i], 0, max)` in f32 (bullet's CReLU of float
/// layers). A NaN input stays NaN.
#[inline]
pub fn crelu_f32<const N: usize>(input: &[f32; N], max: f32, out: &mut [f32; N]) {
    for (o, &x) in out.iter_mut().zip(input) {
        *o = x.clamp(0.0, max);
    }
}

/// `out[i] = (x * clamp(x + 3, 0, 6)) * (1 / 6)` for `x = input[i]`, in
/// f32, every step rounded (HardSwish as the engines compute it: no fused
/// multiply-add, the reciprocal of 6 rounded to f32 once).
#[inline]
pub fn hard_swish<const N: usize>(input: &[f32; N], out: &mut [f32; N]) {
    const SIXTH: f32 = 1.0 / 6.0;
    for (o, &x) in out.iter_mut().zip(input) {
        *o = (x * (x + 3.0).clamp(0.0, 6.0)) * SIXTH;
    }
}

/// `out[i] = input[i] as f32 / divisor` (the conversion and the division
/// each rounded to nearest).
#[inline]
pub fn to_float<T: Copy + Into<i32>, const N: usize>(input: &[T; N], divisor: f32, out: &mut [f32; N]) {
    for (o, &x) in out.iter_mut().zip(input) {
        *o = x.into() as f32 / divisor;
    }
}

/// `out[i] = (input[i] * multiply) as i32`: the product rounded to f32, then
/// truncated toward zero (saturating at the ends of i32; NaN gives 0).
#[inline]
pub fn to_int<const N: usize>(input: &[f32; N], multiply: f32, out: &mut [i32; N]) {
    for (o, &x) in out.iter_mut().zip(input) {
        *o = (x * multiply) as i32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hard_swish_rounds_each_step() {
        let mut out = [0.0; 5];
        hard_swish(&[-4.0, -3.0, 0.5, 3.0, 7.0], &mut out);
        assert_eq!(out[..2], [-0.0, -0.0]);
        // 0.5 * 3.5 = 1.75, times the rounded sixth.
        assert_eq!(out[2], 1.75 * (1.0f32 / 6.0));
        assert_eq!(out[3], 18.0 * (1.0f32 / 6.0));
        assert_eq!(out[4], 42.0 * (1.0f32 / 6.0));
        // Not (x * clamp) / 6: the division rounds 1.75 / 6 differently.
        assert_ne!(out[2], 1.75f32 / 6.0);
    }

    #[test]
    fn clipped_relu_clamps_after_the_shift() {
        let mut out = [0; 5];
        clipped_relu(&[-1, 63, 64, 127 * 64, i32::MAX], 6, 127, &mut out);
        assert_eq!(out, [0, 0, 1, 127, 127]);
    }

    #[test]
    fn float_conversions() {
        let mut f = [0.0; 3];
        to_float(&[65536i32, 1, -3], 65536.0, &mut f);
        assert_eq!(f, [1.0, 1.0 / 65536.0, -3.0 / 65536.0]);
        let mut c = [0.0; 3];
        crelu_f32(&[-0.5, 0.25, 2.0], 1.0, &mut c);
        assert_eq!(c, [0.0, 0.25, 1.0]);
        let mut i = [0; 3];
        to_int(&[0.18, -0.18, 1e10], 400.0, &mut i);
        assert_eq!(i, [72, -72, i32::MAX]);
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
