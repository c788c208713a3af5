//! The forward pass of a float layer: summed in a fixed order, so that
//! every backend (all run it) gives the same bits as the engine.

use crate::params::FloatAffine;

impl<const IN: usize, const OUT: usize> FloatAffine<IN, OUT> {
    /// Per output: `out = bias`, then for each input in order `out = out +
    /// input * weight`, the product and the sum each rounded to f32 (Rust
    /// never fuses them into a multiply-add).
    #[inline]
    pub fn propagate(&self, input: &[f32; IN], out: &mut [f32; OUT]) {
        self.propagate_mapped(input, |x| x, out);
    }

    /// [`Self::propagate`] of `map` applied to each input as it is read:
    /// the same results as mapping the inputs first (`map` is what the
    /// layers before this one compute per value), without the arrays in
    /// between.
    #[inline]
    pub fn propagate_mapped<T: Copy>(&self, input: &[T; IN], map: impl Fn(T) -> f32, out: &mut [f32; OUT]) {
        *out = *self.biases;
        accumulate_mapped(out, input, &self.weights, &map);
    }
}

impl<const IN: usize, const OUT: usize> FloatAffine<IN, OUT> {
    /// Per output: `out = bias`, then for each input in order `out =
    /// fma(input, weight, out)`, one rounding per input (`sum: Fused`).
    /// Always inlined: in a SIMD backend's kernel it is compiled with the
    /// backend's features, its multiply-adds one instruction each.
    #[inline(always)]
    pub fn propagate_fused(&self, input: &[f32; IN], out: &mut [f32; OUT]) {
        *out = *self.biases;
        for (&x, row) in input.iter().zip(self.weights.chunks_exact(OUT)) {
            for (o, &w) in out.iter_mut().zip(row) {
                *o = x.mul_add(w, *o);
            }
        }
    }

    /// Per output: `LANES` partial sums from zero, input `i` added to
    /// partial `i % LANES` by a fused multiply-add in input order; the
    /// partials halved pairwise (`p[j] + p[j + LANES / 2]`) down to one;
    /// then the bias added (`sum: FusedLanes(LANES)`).
    /// Always inlined: in a SIMD backend's kernel it is compiled with the
    /// backend's features, its multiply-adds one instruction each.
    /// The inputs are read `LANES` at a time, each block's multiply-adds
    /// lane by lane into the partials, so that the compiler makes them
    /// vector instructions; with the partial indexed `i % LANES` over all
    /// inputs in one loop it kept them scalar, each partial stored and
    /// reloaded (Reckless v60's L3, 32 inputs into 16 lanes: a sixth of
    /// its evaluation with AVX2).
    #[inline(always)]
    pub fn propagate_fused_lanes<const LANES: usize>(&self, input: &[f32; IN], out: &mut [f32; OUT]) {
        const { assert!(LANES.is_power_of_two() && IN.is_multiple_of(LANES)) };
        let mut partial = [[0f32; LANES]; OUT];
        for (block, rows) in input.chunks_exact(LANES).zip(self.weights.chunks_exact(LANES * OUT)) {
            for (o, p) in partial.iter_mut().enumerate() {
                for (lane, (&x, row)) in block.iter().zip(rows.chunks_exact(OUT)).enumerate() {
                    p[lane] = x.mul_add(row[o], p[lane]);
                }
            }
        }
        for ((o, p), &b) in out.iter_mut().zip(&mut partial).zip(self.biases.iter()) {
            let mut width = LANES;
            while width > 1 {
                width /= 2;
                for j in 0..width {
                    p[j] += p[j + width];
                }
            }
            *o = p[0] + b;
        }
    }
}

/// Inputs mapped at once before their products are summed: the mapping of
/// a block is independent of the running sums, so it overlaps the chain of
/// additions (which bounds the layer) instead of lengthening it.
const MAPPED_BLOCK: usize = 16;

/// `out[o] += map(x) * row[o]` for each input `x` of `input` in order,
/// `rows` holding one row of `OUT` weights per input; `map` applied to a
/// block of [`MAPPED_BLOCK`] inputs before the block's products are added.
#[inline(always)]
fn accumulate_mapped<T: Copy, const OUT: usize>(
    out: &mut [f32; OUT],
    input: &[T],
    rows: &[f32],
    map: &impl Fn(T) -> f32,
) {
    let add = |out: &mut [f32; OUT], x: f32, row: &[f32]| {
        for (o, &w) in out.iter_mut().zip(row) {
            *o += x * w;
        }
    };
    let blocks = input.chunks_exact(MAPPED_BLOCK);
    let rest = blocks.remainder();
    let mut block_rows = rows.chunks_exact(MAPPED_BLOCK * OUT);
    for (block, rows) in blocks.zip(&mut block_rows) {
        let mut mapped = [0f32; MAPPED_BLOCK];
        for (m, &x) in mapped.iter_mut().zip(block) {
            *m = map(x);
        }
        for (&x, row) in mapped.iter().zip(rows.chunks_exact(OUT)) {
            add(out, x, row);
        }
    }
    let rest_rows = &rows[(input.len() - rest.len()) * OUT..];
    for (&x, row) in rest.iter().zip(rest_rows.chunks_exact(OUT)) {
        add(out, map(x), row);
    }
}

impl<const IN: usize, const OUT: usize> FloatAffine<IN, OUT> {
    /// [`Self::propagate_mapped`] of `first` then `second` (`IN` = 2 x `H`):
    /// the two accumulators read in place, in the same order.
    #[inline]
    pub fn propagate_mapped_halves<T: Copy, const H: usize>(
        &self,
        first: &[T; H],
        second: &[T; H],
        map: impl Fn(T) -> f32,
        out: &mut [f32; OUT],
    ) {
        const { assert!(IN == 2 * H) };
        *out = *self.biases;
        let (rows_first, rows_second) = self.weights.split_at(H * OUT);
        accumulate_mapped(out, first, rows_first, &map);
        accumulate_mapped(out, second, rows_second, &map);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::bullet::Layout;

    #[test]
    fn sums_in_input_order() {
        // 1e8 + 1 - 1e8 in order is 0 in f32 (1e8 + 1 rounds to 1e8); any
        // other order could give 1.
        let layer = FloatAffine::<3, 1>::from_tensors(&[0.0], &[1e8, 1.0, -1e8], Layout::InputMajor, 1, 0);
        let mut out = [0.0];
        layer.propagate(&[1.0, 1.0, 1.0], &mut out);
        assert_eq!(out, [0.0]);
        let layer = FloatAffine::<3, 1>::from_tensors(&[0.0], &[1.0, 1e8, -1e8], Layout::InputMajor, 1, 0);
        layer.propagate(&[1.0, 1.0, 1.0], &mut out);
        assert_eq!(out, [0.0]);
        let layer = FloatAffine::<3, 1>::from_tensors(&[0.0], &[1e8, -1e8, 1.0], Layout::InputMajor, 1, 0);
        layer.propagate(&[1.0, 1.0, 1.0], &mut out);
        assert_eq!(out, [1.0]);
    }

    #[test]
    fn blocks_and_the_rest_sum_as_one_loop() {
        // 37 inputs: two blocks of 16, then 5 one at a time; the same bits
        // as mapping and summing each input in turn.
        const IN: usize = 37;
        let mut rng = crate::Rng::new(37);
        let mut value = || (rng.range(-1000, 1000) as f32) / 7.0;
        let weights: Vec<f32> = (0..IN * 3).map(|_| value()).collect();
        let biases = [value(), value(), value()];
        let input: [i16; IN] = core::array::from_fn(|i| (i as i16 - 18) * 37);
        let map = |x: i16| f32::from(x.clamp(0, 256)) / 256.0;
        let layer = FloatAffine::<IN, 3>::from_tensors(&biases, &weights, Layout::InputMajor, 1, 0);
        let mut out = [0.0; 3];
        layer.propagate_mapped(&input, map, &mut out);
        let mut expected = biases;
        for (i, &x) in input.iter().enumerate() {
            for (o, e) in expected.iter_mut().enumerate() {
                *e += map(x) * weights[i * 3 + o];
            }
        }
        assert_eq!(out.map(f32::to_bits), expected.map(f32::to_bits));
    }

    #[test]
    fn fused_sums_round_once_per_input() {
        // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: the last term survives a fused
        // multiply-add onto -(1 + 2^-11), and is lost when the product is
        // rounded first.
        let x = 1.0 + 2f32.powi(-12);
        let layer = FloatAffine::<1, 1>::from_tensors(&[-(1.0 + 2f32.powi(-11))], &[x], Layout::InputMajor, 1, 0);
        let (mut fused, mut plain) = ([0.0], [0.0]);
        layer.propagate_fused(&[x], &mut fused);
        layer.propagate(&[x], &mut plain);
        assert_eq!((fused, plain), ([2f32.powi(-24)], [0.0]));
    }

    #[test]
    fn lanes_are_halved_pairwise_then_biased() {
        // Four lanes over eight inputs: lane j holds inputs j and j + 4;
        // then (l0 + l2) + (l1 + l3), then the bias. With 1e8 in lanes 0
        // and 2 and ones elsewhere the big values cancel before the ones
        // are added: exactly 4 + 0.5.
        let weights = [1e8, 1.0, -1e8, 1.0, 0.0, 1.0, 0.0, 1.0];
        let layer = FloatAffine::<8, 1>::from_tensors(&[0.5], &weights, Layout::InputMajor, 1, 0);
        let mut out = [0.0];
        layer.propagate_fused_lanes::<4>(&[1.0; 8], &mut out);
        assert_eq!(out, [4.5]);
        // In input order from the bias, the bias and the one after 1e8 are lost.
        layer.propagate_fused(&[1.0; 8], &mut out);
        assert_eq!(out, [3.0]);
    }

    #[test]
    fn halves_are_read_in_order() {
        let layer = FloatAffine::<4, 2>::from_tensors(
            &[0.5, -0.5],
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
            Layout::InputMajor,
            1,
            0,
        );
        let (mut whole, mut halves) = ([0.0; 2], [0.0; 2]);
        layer.propagate_mapped(&[1i16, -2, 3, 4], |x| f32::from(x) / 4.0, &mut whole);
        layer.propagate_mapped_halves(&[1i16, -2], &[3, 4], |x| f32::from(x) / 4.0, &mut halves);
        assert_eq!(whole, halves);
    }
}
