//! Integer layers of one value to one value (`Clamp`, `ShiftRight`,
//! `ShiftLeft`, `Square`), the wrapping `Add` of two i32 inputs and
//! `Bias`: the steps of an all-integer layer stack written out one by one
//! (every backend runs them; the compiler vectorises the loops).

use crate::params::Bias;

/// `out[i] = clamp(input[i], min, max)`.
#[inline]
pub fn clamp<const N: usize>(input: &[i32; N], min: i32, max: i32, out: &mut [i32; N]) {
    for (o, &x) in out.iter_mut().zip(input) {
        *o = x.clamp(min, max);
    }
}

/// `out[i] = input[i] >> by`, arithmetic (rounding toward negative
/// infinity); `by` at most 31.
#[inline]
pub fn shift_right<const N: usize>(input: &[i32; N], by: u32, out: &mut [i32; N]) {
    for (o, &x) in out.iter_mut().zip(input) {
        *o = x >> by;
    }
}

/// `out[i] = input[i] << by`, wrapping; `by` at most 31.
#[inline]
pub fn shift_left<const N: usize>(input: &[i32; N], by: u32, out: &mut [i32; N]) {
    for (o, &x) in out.iter_mut().zip(input) {
        *o = x.wrapping_shl(by);
    }
}

/// `out[i] = input[i] * input[i]`, wrapping.
#[inline]
pub fn square<const N: usize>(input: &[i32; N], out: &mut [i32; N]) {
    for (o, &x) in out.iter_mut().zip(input) {
        *o = x.wrapping_mul(x);
    }
}

/// `out[i] = a[i] + b[i]`, wrapping.
#[inline]
pub fn add_wrapping<const N: usize>(a: &[i32; N], b: &[i32; N], out: &mut [i32; N]) {
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        *o = x.wrapping_add(y);
    }
}

impl<const N: usize> Bias<N> {
    /// `out[i] = input[i] + bias[i]`, wrapping.
    #[inline]
    pub fn propagate(&self, input: &[i32; N], out: &mut [i32; N]) {
        add_wrapping(input, &self.biases, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_by_value() {
        let input = [-5, 3, 70_000, i32::MIN];
        let mut out = [0; 4];
        clamp(&input, 0, 4096, &mut out);
        assert_eq!(out, [0, 3, 4096, 0]);
        shift_right(&input, 2, &mut out);
        assert_eq!(out, [-2, 0, 17_500, i32::MIN / 4]);
        shift_left(&input, 6, &mut out);
        assert_eq!(out, [-320, 192, 4_480_000, 0]);
        square(&input, &mut out);
        assert_eq!(out, [25, 9, 70_000i32.wrapping_mul(70_000), 0]);
        add_wrapping(&input, &[1, 1, 1, -1], &mut out);
        assert_eq!(out, [-4, 4, 70_001, i32::MAX]);
    }
}
