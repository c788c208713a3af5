//! Affine layers with i32 weights on i32 inputs (Stormphrax's L2), in 16-bit
//! multiplies where the values allow it: one multiply-add of two inputs'
//! i16 products per i32 lane (`vpmaddwd`, or `vpdpwssd` with VNNI, which
//! adds them to the sum too) instead of a 32-bit multiply and an addition
//! per input (`vpmulld`, `vpaddd`). On Stormphrax's 64 x 64 L2 (a Zen 4,
//! `nnue bench`, 3 interleaved runs): eval 505 -> 435 ns with AVX-512 VNNI,
//! 514 -> 445 ns with AVX2.
//!
//! Exact: an input and a weight that fit an i16 have the same product in
//! i32, and every sum wraps in i32 as the scalar loop's does, so the
//! outputs equal [`crate::params::I32Affine::propagate`]'s bit for bit. The
//! weights are checked once, on loading (the layer keeps them in pairs only
//! if each fits); the inputs on every call (a few vector instructions), the
//! 32-bit loop running whenever one does not fit.

use crate::simd::Dot;

/// `out[o] = biases[o] + sum_i w[i][o] * input[i]`, wrapping, `OUT` being
/// `REGS` of `D`'s registers, in 16-bit multiplies, the weights given in
/// pairs (`pairs[p][o]` holds the weights of inputs `2p` and `2p + 1`, as
/// [`crate::params::I32Affine`] keeps them when each fits an i16). Returns
/// false, writing nothing, when an input does not fit an i16 or `pairs` is
/// not one entry per two inputs (no weights in pairs): the caller then runs
/// the 32-bit loop.
///
/// # Safety
/// The CPU supports `D`'s instructions.
#[inline(always)]
pub unsafe fn i32_affine_pairs<D: Dot, const IN: usize, const OUT: usize, const REGS: usize>(
    biases: &[i32; OUT],
    pairs: &[[[i16; 2]; OUT]],
    input: &[i32; IN],
    out: &mut [i32; OUT],
) -> bool {
    const { assert!(REGS * D::LANES == OUT) };
    if pairs.len() != IN / 2 || !IN.is_multiple_of(2) {
        return false;
    }
    if input.iter().fold(0, |bits, &x| bits | (i32::from(x as i16) ^ x)) != 0 {
        return false;
    }
    // SAFETY: `r * LANES + LANES <= OUT` for every `r < REGS`, so bias
    // reads and output writes stay within their arrays; the caller
    // guarantees the instructions.
    unsafe {
        let mut first: [D::S; REGS] = core::array::from_fn(|r| D::load(biases.as_ptr().add(r * D::LANES)));
        let mut second = [D::zero(); REGS];
        // Two sets of sums where a multiply-add accumulates in place (VNNI:
        // each pair would wait on the previous one's latency), consecutive
        // pairs alternating between them.
        if D::SETS > 1 && IN.is_multiple_of(4) {
            for (four, weights) in input.chunks_exact(4).zip(pairs.chunks_exact(2)) {
                pair_step::<D, OUT, REGS>(&mut first, &four[..2], &weights[0]);
                pair_step::<D, OUT, REGS>(&mut second, &four[2..], &weights[1]);
            }
        } else {
            for (two, weights) in input.chunks_exact(2).zip(pairs) {
                pair_step::<D, OUT, REGS>(&mut first, two, weights);
            }
        }
        for r in 0..REGS {
            D::store(out.as_mut_ptr().add(r * D::LANES), D::add(first[r], second[r]));
        }
    }
    true
}

/// `sums` plus two inputs' products (`two`, each fitting an i16) with their
/// `weights` in pairs.
///
/// # Safety
/// `REGS * D::LANES == OUT`; the CPU supports `D`'s instructions.
#[inline(always)]
unsafe fn pair_step<D: Dot, const OUT: usize, const REGS: usize>(
    sums: &mut [D::S; REGS],
    two: &[i32],
    weights: &[[i16; 2]; OUT],
) {
    let pair = u32::from(two[0] as u16) | u32::from(two[1] as u16) << 16;
    let w = weights.as_ptr().cast::<i16>();
    for (r, sum) in sums.iter_mut().enumerate() {
        // SAFETY: `2 * (r * LANES + LANES) <= 2 * OUT` weights; the caller
        // guarantees the instructions.
        *sum = unsafe { D::dot2_i16(*sum, pair, w.add(2 * r * D::LANES)) };
    }
}

#[cfg(test)]
mod tests {
    use crate::format::bullet::{Layout, StackOrder};
    use crate::params::I32Affine;

    /// A layer of random weights in `weights` (inclusive), random inputs in
    /// `inputs`, and the 32-bit loop's sums.
    fn case<const IN: usize, const OUT: usize>(
        rng: &mut crate::Rng,
        weights: (i64, i64),
        inputs: (i64, i64),
    ) -> (I32Affine<IN, OUT>, [i32; IN], [i32; OUT]) {
        let biases: Vec<i32> = (0..OUT).map(|_| rng.next_u64() as i32).collect();
        let w: Vec<i32> = (0..IN * OUT).map(|_| rng.range(weights.0, weights.1) as i32).collect();
        let layer = I32Affine::<IN, OUT>::from_tensors(&biases, &w, Layout::Stacked(StackOrder::InputMajor), 1, 0);
        let input: [i32; IN] = core::array::from_fn(|_| rng.range(inputs.0, inputs.1) as i32);
        let mut expected = [0; OUT];
        layer.propagate(&input, &mut expected);
        (layer, input, expected)
    }

    /// Every backend this CPU has gives the 32-bit loop's sums with the
    /// weights and inputs within i16 (up to its extremes, where a pair's
    /// sum wraps), on 64 outputs and on 48 (an odd number of 128-bit and
    /// 512-bit registers); beyond i16 it declines. The weights are kept in
    /// pairs exactly when each fits.
    #[test]
    fn equal_to_the_32_bit_loop() {
        const I16: (i64, i64) = (-32768, 32767);
        let mut rng = crate::Rng::new(0x132_AFF1);
        let mut tested = Vec::new();
        for round in 0..200 {
            let (weights, inputs) = match round % 4 {
                0 => ((-16, 16), (0, 4096)),
                1 => (I16, I16),
                2 => ((-40000, 40000), (0, 4096)),
                _ => ((-16, 16), (-40000, 40000)),
            };
            let (layer, input, expected) = case::<64, 64>(&mut rng, weights, inputs);
            assert_eq!(!layer.pairs.is_empty(), round % 4 != 2, "pairs kept exactly when every weight fits");
            // Whether the 16-bit path runs: weights and inputs within i16.
            let sixteen_bits = round % 4 < 2;
            let (odd, odd_input, odd_expected) = case::<64, 48>(&mut rng, weights, inputs);
            macro_rules! check {
                ($($token:ident: $lanes:literal),*) => {$(
                    if let Some(cpu) = $token::new() {
                        let mut out = [0; 64];
                        let ran = cpu.inside().i32_affine_pairs::<64, 64, { 64 / $lanes }>(&layer.biases, &layer.pairs, &input, &mut out);
                        assert_eq!(ran, sixteen_bits, "{} on round {round}", stringify!($token));
                        if ran {
                            assert_eq!(out, expected, "{} on round {round}", stringify!($token));
                        }
                        let mut out = [0; 48];
                        if cpu.inside().i32_affine_pairs::<64, 48, { 48 / $lanes }>(&odd.biases, &odd.pairs, &odd_input, &mut out) {
                            assert_eq!(out, odd_expected, "{}, 48 outputs, on round {round}", stringify!($token));
                        }
                        tested.push(stringify!($token));
                    }
                )*};
            }
            #[cfg(target_arch = "x86_64")]
            {
                use crate::simd::x86::{Avx2, Avx512, Avx512Vnni, AvxVnni};
                check!(Avx2: 8, AvxVnni: 8, Avx512: 16, Avx512Vnni: 16);
            }
            #[cfg(target_arch = "aarch64")]
            {
                use crate::simd::aarch64::{Neon, NeonDotprod};
                check!(Neon: 4, NeonDotprod: 4);
            }
        }
        // The kernels this CPU lacks, named.
        #[cfg(target_arch = "x86_64")]
        let all = ["Avx2", "AvxVnni", "Avx512", "Avx512Vnni"];
        #[cfg(target_arch = "aarch64")]
        let all = ["Neon", "NeonDotprod"];
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        let all: [&str; 0] = [];
        let missing: Vec<&str> = all.into_iter().filter(|name| !tested.contains(name)).collect();
        if !missing.is_empty() {
            eprintln!("NOT TESTED on this CPU (it lacks their instructions): {}", missing.join(", "));
        }
    }
}
