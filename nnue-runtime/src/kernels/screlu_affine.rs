//! Affine layers with i16 weights over SCReLU of u8 values (bullet's output
//! layers): `sum_i min(x_i, max)^2 * w[o][i]` without widening the inputs to
//! i32, as the engines' own SIMD does it.

use crate::simd::Dot;

/// `sums[o] = sum_i (m_i * w[o][i]) * m_i` with `m_i = min(input[i], max)`,
/// wrapping in i32; `weights` holds `OUT` rows of `IN`. Equal to the scalar
/// [`crate::scalar::screlu`] then [`crate::params::WideAffine`]'s sum when
/// every `|m_i * w[o][i]|` is at most 32767, which the caller checks on
/// loading ([`crate::params::WideAffine::i16_products`]).
///
/// # Safety
/// The CPU supports `D`'s instructions.
#[inline(always)]
pub unsafe fn screlu_affine<D: Dot, const IN: usize, const OUT: usize>(
    input: &[u8; IN],
    max: i16,
    weights: &[i16],
    sums: &mut [i32; OUT],
) {
    const { assert!(IN.is_multiple_of(4 * D::LANES)) };
    assert_eq!(weights.len(), IN * OUT);
    let x = input.as_ptr();
    for (o, sum) in sums.iter_mut().enumerate() {
        let w = weights[o * IN..].as_ptr();
        // SAFETY: `i + k * step + step <= IN` (IN is a multiple of
        // `ways * step`, and `step` is 2 * LANES), so input reads stay
        // within `input` and weight reads within row `o`; the caller
        // guarantees the instructions.
        unsafe {
            // Independent sums, so that consecutive steps do not wait on
            // each other: two, or eight where the input divides into them,
            // the trip count hidden (as in
            // [`screlu_affine_accumulators`]).
            let mut sums8 = [D::zero(); 8];
            let step = 2 * D::LANES;
            let ways = if IN.is_multiple_of(8 * step) { 8 } else { 2 };
            for i in (0..core::hint::black_box(IN / (ways * step))).map(|n| n * ways * step) {
                for (k, s) in sums8.iter_mut().enumerate().take(ways) {
                    *s = D::screlu_dot(*s, x.add(i + k * step), w.add(i + k * step), max);
                }
            }
            *sum = D::hsum(sums8.iter().fold(D::zero(), |acc, &s| D::add(acc, s)));
        }
    }
}

/// [`screlu_affine`] straight from the two accumulators, without the
/// transformer's u8 output: `sums[o] = sum_i (m_i * w[o][i]) * m_i` with
/// `m_i = clamp(lane i, 0, max)` over `first` then `second` (the side to
/// move's lanes, then the other side's); `weights` holds `OUT` rows of
/// `2 * L1`, in the lanes' storage order. The same conditions as
/// [`screlu_affine`].
///
/// # Safety
/// The CPU supports `D`'s instructions.
#[inline(always)]
pub unsafe fn screlu_affine_accumulators<D: Dot, const L1: usize, const OUT: usize>(
    first: &[i16; L1],
    second: &[i16; L1],
    max: i16,
    weights: &[i16],
    sums: &mut [i32; OUT],
) {
    const { assert!(L1.is_multiple_of(2 * D::LANES)) };
    assert_eq!(weights.len(), 2 * L1 * OUT);
    for (o, sum) in sums.iter_mut().enumerate() {
        let (x0, x1) = (first.as_ptr(), second.as_ptr());
        let (w0, w1) = (weights[2 * o * L1..].as_ptr(), weights[(2 * o + 1) * L1..].as_ptr());
        // SAFETY: `j + 2 * LANES <= L1`, so lane reads stay within the
        // accumulators and weight reads within row `o`'s halves; the caller
        // guarantees the instructions.
        unsafe {
            // The two halves side by side, and where the lanes divide into
            // them, four steps at a time into four pairs of sums: with VNNI,
            // LLVM fuses each multiply-add and its addition into one
            // `vpdpwssd`, whose latency a single pair of chains waits on.
            let mut pairs = [(D::zero(), D::zero()); 4];
            let step = 2 * D::LANES;
            let unroll = if L1.is_multiple_of(4 * step) { 4 } else { 1 };
            // The trip count hidden: unrolled, LLVM reassociated the sums
            // into one chain again.
            for i in (0..core::hint::black_box(L1 / (unroll * step))).map(|n| n * unroll * step) {
                for (k, pair) in pairs.iter_mut().enumerate().take(unroll) {
                    let j = i + k * step;
                    *pair = D::screlu_dot_i16_pair(*pair, (x0.add(j), w0.add(j)), (x1.add(j), w1.add(j)), max);
                }
            }
            let total = pairs.iter().fold(D::zero(), |acc, &(a, b)| D::add(acc, D::add(a, b)));
            *sum = D::hsum(total);
        }
    }
}

#[cfg(test)]
mod tests {
    /// Every backend this CPU has gives the scalar SCReLU then i16 affine
    /// sums, on random bytes (clamped below and above 255) and weights
    /// within the 16-bit bound.
    #[test]
    fn equal_to_scalar() {
        const IN: usize = 128;
        let mut rng = crate::Rng::new(0x5C_4E1D);
        for case in 0..200 {
            let max: i16 = if case % 2 == 0 { 255 } else { 181 };
            let input: [u8; IN] = core::array::from_fn(|_| rng.next_u64() as u8);
            let bound = 32767 / i64::from(max);
            let weights: Vec<i16> = (0..IN * 3).map(|_| rng.range(-bound, bound) as i16).collect();
            let mut squares = [0i32; IN];
            crate::scalar::screlu(&input, i32::from(max), &mut squares);
            let expected: Vec<i32> = weights
                .chunks_exact(IN)
                .map(|row| {
                    squares.iter().zip(row).fold(0i32, |a, (&x, &w)| a.wrapping_add(x.wrapping_mul(i32::from(w))))
                })
                .collect();
            // The same from accumulator lanes (of either sign, and beyond
            // 255 for every fourth) in two halves.
            let lanes: [i16; IN] = core::array::from_fn(|i| match i % 4 {
                0 => -i16::from(input[i]),
                3 => rng.next_u64() as i16,
                _ => i16::from(input[i]),
            });
            let mut clamped_squares = [0i32; IN];
            crate::scalar::screlu(&lanes, i32::from(max), &mut clamped_squares);
            let expected_lanes: Vec<i32> = weights
                .chunks_exact(IN)
                .map(|row| {
                    clamped_squares
                        .iter()
                        .zip(row)
                        .fold(0i32, |a, (&x, &w)| a.wrapping_add(x.wrapping_mul(i32::from(w))))
                })
                .collect();
            let (first, second): ([i16; IN / 2], [i16; IN / 2]) =
                (lanes[..IN / 2].try_into().unwrap(), lanes[IN / 2..].try_into().unwrap());
            #[cfg(target_arch = "x86_64")]
            {
                use crate::simd::x86::{Avx2, Avx512};
                let mut sums = [0i32; 3];
                if let Some(cpu) = Avx2::new() {
                    cpu.inside().screlu_affine_accumulators::<{ IN / 2 }, 3>(&first, &second, max, &weights, &mut sums);
                    assert_eq!(sums.to_vec(), expected_lanes, "avx2, accumulators");
                }
                if let Some(cpu) = Avx512::new() {
                    cpu.inside().screlu_affine_accumulators::<{ IN / 2 }, 3>(&first, &second, max, &weights, &mut sums);
                    assert_eq!(sums.to_vec(), expected_lanes, "avx512, accumulators");
                }
                if let Some(cpu) = Avx2::new() {
                    cpu.inside().screlu_affine::<IN, 3>(&input, max, &weights, &mut sums);
                    assert_eq!(sums.to_vec(), expected, "avx2");
                }
                if let Some(cpu) = Avx512::new() {
                    cpu.inside().screlu_affine::<IN, 3>(&input, max, &weights, &mut sums);
                    assert_eq!(sums.to_vec(), expected, "avx512");
                }
            }
            #[cfg(target_arch = "aarch64")]
            {
                use crate::simd::aarch64::{Neon, NeonDotprod};
                let mut sums = [0i32; 3];
                if let Some(cpu) = Neon::new() {
                    cpu.inside().screlu_affine_accumulators::<{ IN / 2 }, 3>(&first, &second, max, &weights, &mut sums);
                    assert_eq!(sums.to_vec(), expected_lanes, "neon, accumulators");
                }
                if let Some(cpu) = NeonDotprod::new() {
                    cpu.inside().screlu_affine_accumulators::<{ IN / 2 }, 3>(&first, &second, max, &weights, &mut sums);
                    assert_eq!(sums.to_vec(), expected_lanes, "neon-dotprod, accumulators");
                }
                if let Some(cpu) = Neon::new() {
                    cpu.inside().screlu_affine::<IN, 3>(&input, max, &weights, &mut sums);
                    assert_eq!(sums.to_vec(), expected, "neon");
                }
                if let Some(cpu) = NeonDotprod::new() {
                    cpu.inside().screlu_affine::<IN, 3>(&input, max, &weights, &mut sums);
                    assert_eq!(sums.to_vec(), expected, "neon-dotprod");
                }
            }
        }
        // The kernels this CPU lacks, named.
        #[cfg(target_arch = "x86_64")]
        let present =
            [("avx2", crate::simd::x86::Avx2::new().is_some()), ("avx512", crate::simd::x86::Avx512::new().is_some())];
        #[cfg(target_arch = "aarch64")]
        let present = [
            ("neon", crate::simd::aarch64::Neon::new().is_some()),
            ("neon-dotprod", crate::simd::aarch64::NeonDotprod::new().is_some()),
        ];
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        let present: [(&str, bool); 0] = [];
        let missing: Vec<&str> = present.iter().filter(|(_, here)| !here).map(|(name, _)| *name).collect();
        if !missing.is_empty() {
            eprintln!("NOT TESTED on this CPU (it lacks their instructions): {}", missing.join(", "));
        }
    }
}
