//! Bounds through a layer stack, by interval arithmetic: each value's range
//! from its inputs' ranges. Called by the generated code, layer by layer, in
//! the order of the forward pass; each function records what it proves.

use super::{Int, Interval, OverflowProof};

/// An affine layer's outputs `biases[o] + sum_i weights[o][i] * input[i]`
/// (rows of `padded` i8 weights; `input` shorter than `padded` is followed by
/// zeros). Records `{name} sums` (i32) and `{name} pair sums` (i16: the SIMD
/// kernels without VNNI add two `u8 x i8` products in an i16 lane before
/// widening). Returns each output's range as held in i32.
pub fn affine<const OUT: usize>(
    proof: &mut OverflowProof,
    name: &str,
    stack: usize,
    biases: &[i32; OUT],
    weights: &[i8],
    padded: usize,
    input: &[Interval],
) -> Vec<Interval> {
    let product = |w: i8, x: Interval| x.scale(i64::from(w));
    let sums = format!("{name} sums");
    let pairs = format!("{name} pair sums");
    biases
        .iter()
        .zip(weights.chunks_exact(padded))
        .enumerate()
        .map(|(o, (&bias, row))| {
            let mut sum = Interval::point(i64::from(bias));
            let mut widest_pair: Option<(usize, Interval)> = None;
            for (i, (w, x)) in row.chunks(2).zip(input.chunks(2)).enumerate() {
                let pair = w.iter().zip(x).fold(Interval::point(0), |acc, (&w, &x)| acc + product(w, x));
                sum = sum + pair;
                if widest_pair.is_none_or(|(_, p)| pair.margin(Int::I16) < p.margin(Int::I16)) {
                    widest_pair = Some((i, pair));
                }
            }
            if let Some((i, pair)) = widest_pair {
                proof.record(&pairs, Int::I16, pair, || {
                    format!("layer stack {stack}, output {o}, inputs {} and {}", 2 * i, 2 * i + 1)
                });
            }
            proof.record(&sums, Int::I32, sum, || format!("layer stack {stack}, output {o}"));
            sum.held_in(Int::I32)
        })
        .collect()
}

/// Which four-byte input chunks a column kernel adds together in i16 lanes
/// before widening them ([`crate::simd::Dot::dot4_pair`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChunkPairs {
    /// Chunks `2k` and `2k + 1` (the dense kernel, which reads every chunk).
    Consecutive,
    /// Any two chunks (the sparse kernel pairs the non-zero ones in order).
    Any,
}

/// Per output of an affine layer (rows of `padded` i8 weights), the range
/// of the i16 lanes of a column kernel that adds two input chunks' pairs of
/// products before widening, for every input in `0..=127` (the kernels'
/// contract): each lane holds the products of inputs `4c + 2h` and `4c + 2h +
/// 1` of two chunks `c` paired as `pairs` says (a chunk left alone, its
/// own).
pub fn paired_sums(weights: &[i8], padded: usize, pairs: ChunkPairs) -> Vec<Interval> {
    const MAX_INPUT: i64 = 127;
    let chunks = padded / 4;
    weights
        .chunks_exact(padded)
        .map(|row| {
            // The products of inputs `4c + 2h` and `4c + 2h + 1`.
            let pair = |c: usize, h: usize| {
                row[4 * c + 2 * h..][..2]
                    .iter()
                    .fold(Interval::point(0), |sum, &w| sum + Interval::new(0, MAX_INPUT).scale(i64::from(w)))
            };
            let half = |h: usize| -> Option<Interval> {
                match pairs {
                    ChunkPairs::Consecutive => (0..chunks)
                        .step_by(2)
                        .map(|c| if c + 1 < chunks { pair(c, h) + pair(c + 1, h) } else { pair(c, h) })
                        .reduce(Interval::union),
                    ChunkPairs::Any => {
                        // The two largest maxima and the two smallest minima.
                        let (mut highs, mut lows): (Vec<i64>, Vec<i64>) =
                            (0..chunks).map(|c| (pair(c, h).max, pair(c, h).min)).unzip();
                        highs.sort_unstable_by(|a, b| b.cmp(a));
                        lows.sort_unstable();
                        let n = chunks.min(2);
                        (n > 0).then(|| Interval::new(lows[..n].iter().sum(), highs[..n].iter().sum()))
                    }
                }
            };
            [half(0), half(1)].into_iter().flatten().reduce(Interval::union).unwrap_or(Interval::point(0))
        })
        .collect()
}

/// Whether a SIMD column kernel may add two input chunks' pairs of products
/// in i16 lanes before widening them ([`crate::simd::Dot::dot4_pair`]):
/// when every such sum stays within i16 for the layer's weights
/// ([`crate::overflow::layers::paired_sums`]), for the dense kernel's pairs
/// of consecutive chunks and for the sparse kernel's pairs of any two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PairedSums {
    pub consecutive: bool,
    pub any: bool,
}

impl PairedSums {
    /// The test on `OUT` rows of `padded` weights (false for both when
    /// `padded` is not whole chunks: no column kernel reads such a layer).
    pub fn of(weights: &[i8], padded: usize) -> PairedSums {
        use crate::overflow::layers::{ChunkPairs, paired_sums};
        let fits = |pairs| {
            padded.is_multiple_of(4)
                && paired_sums(weights, padded, pairs).iter().all(|&r| crate::overflow::Int::I16.fits(r))
        };
        PairedSums { consecutive: fits(ChunkPairs::Consecutive), any: fits(ChunkPairs::Any) }
    }
}

/// Records `{name} paired sums` (i16, [`paired_sums`]) for a stack whose
/// column kernel pairs chunks as `pairs`, when the layer's loaded
/// [`PairedSums`] (`decided`, found by the same sums) say they all fit: then
/// the SIMD backends that can ([`crate::simd::Dot::PAIRS`]) add two chunks'
/// products in i16. Otherwise they widen each chunk's, and nothing is
/// recorded.
pub fn paired(
    proof: &mut OverflowProof,
    name: &str,
    stack: usize,
    weights: &[i8],
    padded: usize,
    pairs: ChunkPairs,
    decided: PairedSums,
) {
    let pairs_here = match pairs {
        ChunkPairs::Consecutive => decided.consecutive,
        ChunkPairs::Any => decided.any,
    };
    if pairs_here {
        let ranges = paired_sums(weights, padded, pairs);
        proof.record_lanes(&format!("{name} paired sums"), Int::I16, &ranges, |o| {
            format!("layer stack {stack}, output {o}")
        });
    }
}

/// An i16-weight affine layer's outputs `(sum_i weights[o][i] * input[i]) /
/// divisor + biases[o]` (rows of `inputs` weights). Records `{name} sums`
/// (i32, before the division) and `{name} outputs` (i32), both wrapping:
/// every backend forms the sums by wrapping i32 multiplies and adds (the
/// SIMD kernels' 16-bit products, which must fit, are bounded apart by
/// [`screlu_products`]) and adds the bias to the quotient with a wrapping
/// add ([`crate::params::WideAffine::finish`]). Returns each output's range
/// as held in i32.
#[allow(clippy::too_many_arguments)]
pub fn wide_affine<const OUT: usize>(
    proof: &mut OverflowProof,
    name: &str,
    stack: usize,
    biases: &[i32; OUT],
    weights: &[i16],
    inputs: usize,
    divisor: i64,
    input: &[Interval],
) -> Vec<Interval> {
    let (sums, outputs) = (format!("{name} sums"), format!("{name} outputs"));
    biases
        .iter()
        .zip(weights.chunks_exact(inputs))
        .enumerate()
        .map(|(o, (&bias, row))| {
            let sum = row.iter().zip(input).fold(Interval::point(0), |acc, (&w, &x)| acc + x.scale(i64::from(w)));
            proof.record_wrapping(&sums, sum, || format!("layer stack {stack}, output {o}"));
            let value = sum.held_in(Int::I32).divide(divisor) + Interval::point(i64::from(bias));
            proof.record_wrapping(&outputs, value, || format!("layer stack {stack}, output {o}"));
            value.held_in(Int::I32)
        })
        .collect()
}

/// The products `clamp(x, 0, max) * w` of an i16 layer over an SCReLU of
/// values up to `max` (at most 255), which the sums then multiply by the
/// clamped value once more: the SIMD backends compute them in 16 bits when
/// every one of the stack's fits ([`crate::params::WideAffine::i16_products`],
/// Obsidian's `255 * |w| <= 32767`), recorded as `{name} 16-bit products`
/// (i16). A stack whose weights do not allow it takes the i32 path, where
/// even `max * max * w` fits for every i16 weight: recorded as
/// `{name} products` (i32).
pub fn screlu_products(proof: &mut OverflowProof, name: &str, stack: usize, weights: &[i16], inputs: usize, max: i64) {
    let sixteen_bits = weights.iter().all(|&w| i64::from(w).abs() * max <= i64::from(i16::MAX));
    let (value, ty) = if sixteen_bits {
        (format!("{name} 16-bit products"), Int::I16)
    } else {
        (format!("{name} products"), Int::I32)
    };
    for (o, row) in weights.chunks_exact(inputs).enumerate() {
        let range =
            row.iter().fold(Interval::point(0), |range, &w| range.union(Interval::new(0, max).scale(i64::from(w))));
        proof.record(&value, ty, range, || format!("layer stack {stack}, output {o}"));
    }
}

/// The integers a float layer starts from (converted to f32, rounded to
/// nearest): records `{name} inputs` (i32), the range of the values
/// converted. They are exact in f32 within ±2^24.
pub fn to_float(proof: &mut OverflowProof, name: &str, stack: usize, input: &[Interval]) {
    let all = input.iter().fold(input.first().copied().unwrap_or(Interval::point(0)), |a, &b| a.union(b));
    proof.record(&format!("{name} inputs"), Int::I32, all, || format!("layer stack {stack}"));
}

/// `clamp(x, 0, max)^2` of each input.
pub fn screlu(input: &[Interval], max: i64) -> Vec<Interval> {
    input
        .iter()
        .map(|x| {
            let (low, high) = (x.min.clamp(0, max), x.max.clamp(0, max));
            Interval::new(low * low, high * high)
        })
        .collect()
}

/// `clamp(x >> shift, 0, max)` of each input.
pub fn clipped_relu(input: &[Interval], shift: u32, max: i64) -> Vec<Interval> {
    input.iter().map(|x| Interval::new((x.min >> shift).clamp(0, max), (x.max >> shift).clamp(0, max))).collect()
}

/// `min(x * x >> shift, max)` of each input (the square in 64 bits; inputs
/// are i32).
pub fn sqr_clipped_relu(input: &[Interval], shift: u32, max: i64) -> Vec<Interval> {
    let f = |x: i64| ((x * x) >> shift).min(max);
    input
        .iter()
        .map(|x| {
            let low = if x.min <= 0 && x.max >= 0 { 0 } else { f(x.min).min(f(x.max)) };
            Interval::new(low, f(x.min).max(f(x.max)))
        })
        .collect()
}

/// `clamp(x, min, max)` of each input.
pub fn clamp(input: &[Interval], min: i64, max: i64) -> Vec<Interval> {
    input.iter().map(|x| Interval::new(x.min.clamp(min, max), x.max.clamp(min, max))).collect()
}

/// `x >> by` of each input (arithmetic: a monotone function).
pub fn shift_right(input: &[Interval], by: u32) -> Vec<Interval> {
    input.iter().map(|x| Interval::new(x.min >> by, x.max >> by)).collect()
}

/// `x << by` of each input, wrapping in i32 as every backend does: records
/// `{name} outputs` (wrapping).
pub fn shift_left(proof: &mut OverflowProof, name: &str, stack: usize, input: &[Interval], by: u32) -> Vec<Interval> {
    wrapped(proof, name, stack, input.iter().map(|x| x.scale(1 << by)))
}

/// `x * x` of each input, wrapping in i32 as every backend does: records
/// `{name} outputs` (wrapping).
pub fn square(proof: &mut OverflowProof, name: &str, stack: usize, input: &[Interval]) -> Vec<Interval> {
    let f = |x: i64| x.saturating_mul(x);
    let squares = input.iter().map(|x| {
        let low = if x.min <= 0 && x.max >= 0 { 0 } else { f(x.min).min(f(x.max)) };
        Interval::new(low, f(x.min).max(f(x.max)))
    });
    wrapped(proof, name, stack, squares)
}

/// `a + b` of two inputs value by value, wrapping in i32: records `{name}
/// outputs` (wrapping).
pub fn add(proof: &mut OverflowProof, name: &str, stack: usize, a: &[Interval], b: &[Interval]) -> Vec<Interval> {
    wrapped(proof, name, stack, a.iter().zip(b).map(|(&x, &y)| x + y))
}

/// `x + bias` of each input, wrapping in i32: records `{name} outputs`
/// (wrapping).
pub fn bias(proof: &mut OverflowProof, name: &str, stack: usize, biases: &[i32], input: &[Interval]) -> Vec<Interval> {
    wrapped(proof, name, stack, input.iter().zip(biases).map(|(&x, &b)| x + Interval::point(i64::from(b))))
}

/// An i32-weight layer's outputs `biases[o] + sum_i weights[i][o] *
/// input[i]` (for each input its weight to every output), wrapping in i32
/// as every backend computes them ([`crate::params::I32Affine`]): records
/// `{name} outputs` (wrapping).
pub fn i32_affine<const OUT: usize>(
    proof: &mut OverflowProof,
    name: &str,
    stack: usize,
    biases: &[i32; OUT],
    weights: &[[i32; OUT]],
    input: &[Interval],
) -> Vec<Interval> {
    let sums = biases.iter().enumerate().map(|(o, &bias)| {
        weights.iter().zip(input).fold(Interval::point(i64::from(bias)), |acc, (w, &x)| acc + x.scale(i64::from(w[o])))
    });
    wrapped(proof, name, stack, sums)
}

/// Records each value as `{name} outputs` (wrapping) and returns them as
/// held in i32.
fn wrapped(
    proof: &mut OverflowProof,
    name: &str,
    stack: usize,
    values: impl Iterator<Item = Interval>,
) -> Vec<Interval> {
    let label = format!("{name} outputs");
    values
        .enumerate()
        .map(|(o, value)| {
            proof.record_wrapping(&label, value, || format!("layer stack {stack}, output {o}"));
            value.held_in(Int::I32)
        })
        .collect()
}

/// The sum of several outputs of affine layers, each added or (`true`)
/// subtracted, in i32. Records `stack value`.
pub fn value_sum(proof: &mut OverflowProof, stack: usize, terms: &[(Interval, bool)]) -> Interval {
    let sum = terms
        .iter()
        .fold(Interval::point(0), |sum, &(value, subtract)| if subtract { sum - value } else { sum + value });
    proof.record("stack value", Int::I32, sum, || format!("layer stack {stack}"));
    sum.held_in(Int::I32)
}

/// `value * multiply / divide`, the quotient in i32 and the product in 64
/// bits (`wide`) or in wrapping i32 arithmetic. Records `rescaled value`,
/// and for an i32 product `rescale product` (wrapping).
pub fn rescale(
    proof: &mut OverflowProof,
    stack: usize,
    value: Interval,
    multiply: i64,
    divide: i64,
    wide: bool,
) -> Interval {
    let product = value.scale(multiply);
    let product = if wide {
        product
    } else {
        proof.record_wrapping("rescale product", product, || format!("layer stack {stack}"));
        product.held_in(Int::I32)
    };
    let scaled = product.divide(divide);
    proof.record("rescaled value", Int::I32, scaled, || format!("layer stack {stack}"));
    scaled.held_in(Int::I32)
}

/// The stack's output `value + input * multiply / divide` (the skip term's
/// product in 64 bits, its quotient and the sum in i32). Records
/// `forward term` and `stack output`.
pub fn forward(
    proof: &mut OverflowProof,
    stack: usize,
    value: Interval,
    input: Interval,
    multiply: i64,
    divide: i64,
) -> Interval {
    let term = input.scale(multiply).divide(divide);
    proof.record("forward term", Int::I32, term, || format!("layer stack {stack}"));
    stack_output(proof, stack, value + term.held_in(Int::I32))
}

/// Records the stack's output (`stack output`, i32) and returns it as held.
pub fn stack_output(proof: &mut OverflowProof, stack: usize, value: Interval) -> Interval {
    proof.record("stack output", Int::I32, value, || format!("layer stack {stack}"));
    value.held_in(Int::I32)
}

/// How the PSQT and positional parts combine into the evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Combine {
    /// `(psqt + positional) / scale`.
    SumThenDivide,
    /// `psqt / scale + positional / scale`.
    DivideThenSum,
}

/// The evaluation of bucket `stack` from its PSQT bucket's accumulator range
/// (`None` without PSQT) and the stack's output. Records `PSQT difference`
/// (`(us - them) / 2`, the difference in i32) and `evaluation` (i32).
pub fn evaluation(
    proof: &mut OverflowProof,
    stack: usize,
    psqt: Option<Interval>,
    positional: Interval,
    scale: i64,
    combine: Combine,
) -> Interval {
    let psqt = match psqt {
        None => Interval::point(0),
        Some(bucket) => {
            // The two perspectives' values: each anywhere in the bucket's range.
            let (us, them) = (bucket, bucket);
            let difference = us - them;
            proof.record("PSQT difference", Int::I32, difference, || format!("bucket {stack}"));
            difference.held_in(Int::I32).divide(2)
        }
    };
    let value = match combine {
        Combine::SumThenDivide => psqt + positional,
        Combine::DivideThenSum => psqt.divide(scale) + positional.divide(scale),
    };
    proof.record("evaluation", Int::I32, value, || format!("bucket {stack}"));
    let value = value.held_in(Int::I32);
    match combine {
        Combine::SumThenDivide => value.divide(scale),
        Combine::DivideThenSum => value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paired_sums_of_consecutive_and_of_any_chunks() {
        // One output, 3 chunks (12 inputs); weights of input 4c + k.
        // Chunk 0: 1, 1 | 0, 0; chunk 1: 0, 0 | -2, 0; chunk 2: 3, 0 | 0, 0.
        let w: [i8; 12] = [1, 1, 0, 0, 0, 0, -2, 0, 3, 0, 0, 0];
        // Consecutive: chunks 0 and 1 (first halves 2 * 127, second halves
        // -2 * 127), chunk 2 alone (3 * 127).
        assert_eq!(paired_sums(&w, 12, ChunkPairs::Consecutive), [Interval::new(-254, 381)]);
        // Any two: chunks 0 and 2 (5 * 127), or 1 and either other (-2 * 127).
        assert_eq!(paired_sums(&w, 12, ChunkPairs::Any), [Interval::new(-254, 635)]);
        // Four weights of 64 fit (127 * 256 = 32512); weights summing to
        // 259 do not (32893).
        let mut w = [0i8; 8];
        w[..2].fill(64);
        w[4..6].fill(64);
        let mut proof = OverflowProof::default();
        assert!(PairedSums::of(&w, 8).consecutive);
        paired(&mut proof, "fc", 0, &w, 8, ChunkPairs::Consecutive, PairedSums::of(&w, 8));
        assert_eq!(proof.bounds()[0].range, Interval::new(0, 4 * 127 * 64));
        assert!(proof.holds());
        w[5] = 67;
        let mut proof = OverflowProof::default();
        assert_eq!(PairedSums::of(&w, 8), PairedSums { consecutive: false, any: false });
        paired(&mut proof, "fc", 0, &w, 8, ChunkPairs::Any, PairedSums::of(&w, 8));
        assert!(proof.bounds().is_empty(), "not recorded when the kernel cannot pair");
    }

    #[test]
    fn affine_bounds_take_each_weight_at_its_worst_input() {
        let mut proof = OverflowProof::default();
        // Two outputs over three inputs in 0..=127, rows padded to four.
        let out = affine(&mut proof, "fc", 0, &[10, -5], &[2, -3, 0, 9, 1, 1, 1, 0], 4, &[Interval::new(0, 127); 3]);
        assert_eq!(out, vec![Interval::new(10 - 3 * 127, 10 + 2 * 127), Interval::new(-5, -5 + 3 * 127)]);
        let b = &proof.bounds();
        assert_eq!((b[0].value.as_str(), b[0].range), ("fc pair sums", Interval::new(-3 * 127, 2 * 127)));
        assert_eq!((b[1].value.as_str(), b[1].tightest.as_str()), ("fc sums", "layer stack 0, output 1"));
        assert!(proof.holds());
    }

    #[test]
    fn affine_sums_past_i32_are_caught() {
        let mut proof = OverflowProof::default();
        let out = affine(&mut proof, "fc", 3, &[i32::MAX - 100], &[1, 0], 2, &[Interval::new(0, 127)]);
        assert_eq!(out, vec![Int::I32.range()]);
        let err = proof.check().unwrap_err().to_string();
        assert!(err.contains("fc sums") && err.contains("layer stack 3, output 0"), "{err}");
    }

    #[test]
    fn screlu_products_name_the_path_each_stack_takes() {
        let mut proof = OverflowProof::default();
        // Stack 0 fits 16 bits (255 * 128 = 32640); stack 1 does not
        // (255 * 129 = 32895): it is bounded in i32.
        screlu_products(&mut proof, "out", 0, &[128, -3, 0, -128], 2, 255);
        screlu_products(&mut proof, "out", 1, &[5, -129], 2, 255);
        let b = proof.bounds();
        assert_eq!(
            (b[0].value.as_str(), b[0].ty, b[0].range, b[0].margin()),
            ("out 16-bit products", Int::I16, Interval::new(-255 * 128, 255 * 128), 32767 - 32640)
        );
        assert_eq!(
            (b[1].value.as_str(), b[1].ty, b[1].range, b[1].tightest.as_str()),
            ("out products", Int::I32, Interval::new(-255 * 129, 255 * 5), "layer stack 1, output 0")
        );
        assert!(proof.holds());
    }

    #[test]
    fn activations() {
        let x = [Interval::new(-1000, 64 * 50), Interval::new(200, 100_000)];
        assert_eq!(clipped_relu(&x, 6, 127), vec![Interval::new(0, 50), Interval::new(3, 127)]);
        assert_eq!(sqr_clipped_relu(&x, 19, 127), vec![Interval::new(0, 19), Interval::new(0, 127)]);
        assert_eq!(sqr_clipped_relu(&[Interval::new(-3000, -2048)], 19, 127), vec![Interval::new(8, 17)]);
    }

    #[test]
    fn forward_and_evaluation() {
        let mut proof = OverflowProof::default();
        let out = forward(&mut proof, 0, Interval::new(-10, 10), Interval::new(-8128, 8128), 9600, 8128);
        assert_eq!(out, Interval::new(-9610, 9610));
        let eval = evaluation(&mut proof, 0, Some(Interval::new(-100, 300)), out, 16, Combine::DivideThenSum);
        assert_eq!(eval, Interval::new(-200 / 16 - 9610 / 16, 200 / 16 + 9610 / 16));
        assert!(proof.holds());
        let out = forward(&mut proof, 1, Interval::point(0), Interval::new(0, i64::from(i32::MAX)), 9600, 8128);
        assert_eq!(out, Int::I32.range());
        assert!(proof.check().unwrap_err().to_string().contains("forward term"));
    }
}
