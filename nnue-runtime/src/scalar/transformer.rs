//! The feature transformer in plain Rust: the rows of the active features
//! added and removed, and its output stage.

use crate::params::Transformer;
use core::mem::MaybeUninit;

impl<const L1: usize, const B: usize> Transformer<L1, B> {
    /// `out = base - sum(removed rows) + sum(added rows)` (wrapping i16 and
    /// i32, as Stockfish's), the values and the PSQT values.
    #[allow(clippy::too_many_arguments)]
    pub fn accumulate(
        &self,
        base: &[i16; L1],
        psqt_base: &[i32; B],
        removed: &[u32],
        added: &[u32],
        out: &mut [i16; L1],
        psqt_out: &mut [i32; B],
    ) {
        *out = *base;
        *psqt_out = *psqt_base;
        for &feature in removed {
            self.remove(feature as usize, out, psqt_out);
        }
        for &feature in added {
            self.add(feature as usize, out, psqt_out);
        }
    }

    /// Adds one feature's rows.
    #[inline]
    pub fn add(&self, feature: usize, values: &mut [i16; L1], psqt: &mut [i32; B]) {
        let row = &self.weights[feature * L1..][..L1];
        for (v, &w) in values.iter_mut().zip(row) {
            *v = v.wrapping_add(w);
        }
        let row = &self.psqt_weights[feature * B..][..B];
        for (p, &w) in psqt.iter_mut().zip(row) {
            *p = p.wrapping_add(w);
        }
    }

    /// Subtracts one feature's rows.
    #[inline]
    pub fn remove(&self, feature: usize, values: &mut [i16; L1], psqt: &mut [i32; B]) {
        let row = &self.weights[feature * L1..][..L1];
        for (v, &w) in values.iter_mut().zip(row) {
            *v = v.wrapping_sub(w);
        }
        let row = &self.psqt_weights[feature * B..][..B];
        for (p, &w) in psqt.iter_mut().zip(row) {
            *p = p.wrapping_sub(w);
        }
    }
}

/// The clipped transformer output: `out[p * L1 + i] = clamp(acc[order[p]][i],
/// 0, max)`. `out` holds `2 * L1` bytes, all written and returned.
pub fn transform_clip<'o, const L1: usize>(
    acc: &[[i16; L1]; 2],
    order: [usize; 2],
    max: i16,
    out: &'o mut [MaybeUninit<u8>],
) -> &'o mut [u8] {
    assert_eq!(out.len(), 2 * L1);
    for (half, &perspective) in out.chunks_exact_mut(L1).zip(&order) {
        for (o, &v) in half.iter_mut().zip(&acc[perspective]) {
            o.write(v.clamp(0, max) as u8);
        }
    }
    // SAFETY: both `L1`-byte halves were written element by element.
    unsafe { crate::aligned::assume_init_bytes(out) }
}

/// Both accumulators unchanged, `order[0]`'s first: `out` holds `2 * L1`
/// i16 values as native-endian bytes, all written and returned (read back by
/// [`i16_values`]).
pub fn transform_accumulators<'o, const L1: usize>(
    acc: &[[i16; L1]; 2],
    order: [usize; 2],
    out: &'o mut [MaybeUninit<u8>],
) -> &'o mut [u8] {
    assert_eq!(out.len(), 4 * L1);
    for (half, &perspective) in out.chunks_exact_mut(2 * L1).zip(&order) {
        for (o, v) in half.chunks_exact_mut(2).zip(&acc[perspective]) {
            let bytes = v.to_ne_bytes();
            o[0].write(bytes[0]);
            o[1].write(bytes[1]);
        }
    }
    // SAFETY: both `2 * L1`-byte halves were written two bytes at a time.
    unsafe { crate::aligned::assume_init_bytes(out) }
}

/// The i16 values of a transformer output written by
/// [`transform_accumulators`].
#[inline]
pub fn i16_values<const N: usize>(bytes: &[u8]) -> [i16; N] {
    assert_eq!(bytes.len(), 2 * N);
    let mut values = [0i16; N];
    for (v, b) in values.iter_mut().zip(bytes.chunks_exact(2)) {
        *v = i16::from_ne_bytes([b[0], b[1]]);
    }
    values
}

/// `first` then `second` in one array (`N` = 2 x `H`).
#[inline]
pub fn join_halves<T: Copy + Default, const H: usize, const N: usize>(first: &[T; H], second: &[T; H]) -> [T; N] {
    const { assert!(N == 2 * H) };
    let mut out = [T::default(); N];
    out[..H].copy_from_slice(first);
    out[H..].copy_from_slice(second);
    out
}

/// The pairwise transformer output: `out[p * L1/2 + i] = clamp(a[i], 0, max) *
/// clamp(b[i], 0, max) / divisor`, `a` and `b` the two halves of
/// `acc[order[p]]`. `out` holds `L1` bytes, all written and returned.
pub fn transform_pairwise<'o, const L1: usize>(
    acc: &[[i16; L1]; 2],
    order: [usize; 2],
    max: i16,
    divisor: i32,
    out: &'o mut [MaybeUninit<u8>],
) -> &'o mut [u8] {
    assert!(L1.is_multiple_of(2) && out.len() == L1);
    for (half, &perspective) in out.chunks_exact_mut(L1 / 2).zip(&order) {
        let (a, b) = acc[perspective].split_at(L1 / 2);
        for ((o, &x), &y) in half.iter_mut().zip(a).zip(b) {
            let product = i32::from(x.clamp(0, max)) * i32::from(y.clamp(0, max));
            o.write((product / divisor) as u8);
        }
    }
    // SAFETY: both `L1 / 2`-byte halves were written element by element.
    unsafe { crate::aligned::assume_init_bytes(out) }
}
