//! Float layers that combine two inputs value by value: `Multiply` (a gate
//! times a linear part) and `Add` (a residual connection), each result
//! rounded to f32 (every backend runs them).

/// `out[i] = a[i] * b[i]`.
#[inline]
pub fn multiply<const N: usize>(a: &[f32; N], b: &[f32; N], out: &mut [f32; N]) {
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        *o = x * y;
    }
}

/// `out[i] = a[i] + b[i]`.
#[inline]
pub fn add<const N: usize>(a: &[f32; N], b: &[f32; N], out: &mut [f32; N]) {
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        *o = x + y;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_by_value() {
        let mut out = [0.0; 3];
        multiply(&[1.5, -2.0, 0.0], &[2.0, 3.0, -1.0], &mut out);
        assert_eq!(out, [3.0, -6.0, -0.0]);
        add(&[1e8, 1.0, 0.25], &[1.0, 2.0, 0.5], &mut out);
        assert_eq!(out, [1e8, 3.0, 0.75]);
    }
}
