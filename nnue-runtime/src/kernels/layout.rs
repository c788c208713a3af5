//! Weight layouts the SIMD kernels expect, prepared once at load time.

/// The packing order of `lanes`-wide registers (16 for AVX2, 32 for
/// AVX-512): `order[p]` is the logical lane stored at physical lane `p` of a
/// block of `2 * lanes`, so that packing two registers with the ISA's
/// per-128-bit-lane `packus` yields bytes in logical order.
pub fn packus_order(lanes: usize) -> Vec<usize> {
    (0..2 * lanes)
        .map(|p| {
            let (q, high) = if p < lanes { (p, 0) } else { (p - lanes, 8) };
            (q / 8) * 16 + high + q % 8
        })
        .collect()
}

/// Lanes that [`packus_order`] moves together: a 128-bit lane's half of a
/// pack.
const RUN: usize = 8;

/// [`packus_order`] as runs of [`RUN`] consecutive lanes: `runs[k]` is the
/// first logical lane of physical run `k`.
fn packus_runs(lanes: usize) -> Vec<usize> {
    let order = packus_order(lanes);
    assert!(
        order.len().is_multiple_of(RUN)
            && order.chunks_exact(RUN).all(|run| run.iter().enumerate().all(|(k, &l)| l == run[0] + k)),
        "the packing order moves runs of {RUN} lanes"
    );
    order.chunks_exact(RUN).map(|run| run[0]).collect()
}

/// Reorders every block of `2 * lanes` values of `values` by
/// [`packus_order`]: `new[p] = old[order[p]]`, a run of eight lanes (the
/// packing order moves whole runs) at a time.
pub fn permute_lanes<T: Copy>(values: &mut [T], lanes: usize) {
    let runs = packus_runs(lanes);
    // One copy of the block at a time, reused (a big net has millions of
    // blocks).
    let mut old = Vec::with_capacity(2 * lanes);
    for block in values.chunks_exact_mut(2 * lanes) {
        old.clear();
        old.extend_from_slice(block);
        for (run, &logical) in block.chunks_exact_mut(RUN).zip(&runs) {
            run.copy_from_slice(&old[logical..logical + RUN]);
        }
    }
}

/// The inverse of [`permute_lanes`]: logical order from physical.
pub fn unpermute_lanes<T: Copy>(values: &mut [T], lanes: usize) {
    let runs = packus_runs(lanes);
    let mut old = Vec::with_capacity(2 * lanes);
    for block in values.chunks_exact_mut(2 * lanes) {
        old.clear();
        old.extend_from_slice(block);
        for (run, &logical) in old.chunks_exact(RUN).zip(&runs) {
            block[logical..logical + RUN].copy_from_slice(run);
        }
    }
}

/// The four-byte chunks of a 32-byte group of AVX2's packed activations
/// ([`crate::simd::x86::Avx2Activations::packed`]): physical chunk `k`
/// holds the values of chunk `AVX2_PACKED_CHUNKS[k]`.
const AVX2_PACKED_CHUNKS: [usize; 8] = [0, 2, 4, 6, 1, 3, 5, 7];

/// Where AVX2's packed activations leave `n` values (a multiple of 32):
/// byte `p` holds value `order[p]`.
pub fn avx2_packed_order(n: usize) -> Vec<Option<usize>> {
    assert!(n.is_multiple_of(32));
    (0..n).map(|p| Some(p / 32 * 32 + 4 * AVX2_PACKED_CHUNKS[p % 32 / 4] + p % 4)).collect()
}

/// Where AVX2's joined activations
/// ([`crate::simd::x86::Avx2Activations::joined_16`]) of `a` and `b`
/// (sixteen values each) leave the inputs of their concatenation `a[..la]
/// ++ b[..lb]`: byte `p` holds input `order[p]`, or a value the
/// concatenation leaves out (`None`: its weights are zero).
pub fn avx2_joined_order(la: usize, lb: usize) -> Vec<Option<usize>> {
    assert!(la <= 16 && lb <= 16);
    (0..32)
        .map(|p| {
            // Physical chunk `k`: the pack of `a`'s then `b`'s 16-bit
            // lanes (each in `_mm256_packs_epi32` order) per 128-bit lane,
            // so chunks `0, 2` of `a`, `0, 2` of `b`, `1, 3` of `a`, `1, 3`
            // of `b`.
            let k = p / 4;
            let i = 4 * [0, 2, 0, 2, 1, 3, 1, 3][k] + p % 4;
            if k % 4 < 2 { (i < la).then_some(i) } else { (i < lb).then_some(la + i) }
        })
        .collect()
}

/// `values` in `order`: `new[p] = values[order[p]]`, `zero` where
/// `order[p]` is `None`.
pub fn reorder<T: Copy>(values: &[T], order: &[Option<usize>], zero: T) -> Vec<T> {
    order.iter().map(|&i| i.map_or(zero, |i| values[i])).collect()
}

/// Row-major `[out][padded]` weights whose rows read their inputs in
/// `order` (of `padded` entries, see [`reorder`]): zero weights for the
/// bytes no input is at.
pub fn ordered_inputs(weights: &[i8], padded: usize, order: &[Option<usize>]) -> Vec<i8> {
    assert_eq!(order.len(), padded);
    weights.chunks_exact(padded).flat_map(|row| reorder(row, order, 0)).collect()
}

/// Row-major `[out][padded]` weights as four-byte columns
/// `[padded / 4][out][4]`: chunk `i`'s weights for every output, contiguous.
pub fn to_columns(weights: &[i8], out: usize, padded: usize) -> Box<[i8]> {
    let mut columns = vec![0i8; weights.len()];
    for o in 0..out {
        for i in 0..padded / 4 {
            for k in 0..4 {
                columns[(i * out + o) * 4 + k] = weights[o * padded + 4 * i + k];
            }
        }
    }
    columns.into_boxed_slice()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn avx2_packus_order() {
        let expected: Vec<usize> = (0..8).chain(16..24).chain(8..16).chain(24..32).collect();
        assert_eq!(packus_order(16), expected);
    }

    #[test]
    fn permutation_round_trips() {
        for lanes in [16, 32] {
            let original: Vec<u16> = (0..256).collect();
            let mut v = original.clone();
            permute_lanes(&mut v, lanes);
            let order = packus_order(lanes);
            assert!(
                v.iter()
                    .enumerate()
                    .all(|(p, &x)| x as usize == (p / order.len()) * order.len() + order[p % order.len()])
            );
            assert_ne!(v, original);
            unpermute_lanes(&mut v, lanes);
            assert_eq!(v, original);
        }
    }

    #[test]
    fn avx2_activation_orders() {
        // Chunks 0, 2, 4, 6, 1, 3, 5, 7 of every 32 values.
        let packed: Vec<usize> = avx2_packed_order(64).into_iter().map(Option::unwrap).collect();
        let chunks: Vec<usize> = packed.chunks_exact(4).map(|c| c[0] / 4).collect();
        assert_eq!(chunks, [0, 2, 4, 6, 1, 3, 5, 7, 8, 10, 12, 14, 9, 11, 13, 15]);
        assert!(packed.chunks_exact(4).all(|c| c.windows(2).all(|w| w[1] == w[0] + 1)));
        // The whole of `a` and `b`: a permutation of the 32 inputs.
        let whole: Vec<usize> = avx2_joined_order(16, 16).into_iter().map(Option::unwrap).collect();
        let mut sorted = whole.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..32).collect::<Vec<_>>());
        assert_eq!(&whole[..12], &[0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19]);
        // `a[..15] ++ b[..15]`: the sixteenth values left out, `b` from 15 on.
        let cut = avx2_joined_order(15, 15);
        for (p, (&w, &c)) in whole.iter().zip(&cut).enumerate() {
            let expected = match w {
                15 | 31 => None,
                i if i < 15 => Some(i),
                i => Some(i - 1),
            };
            assert_eq!(c, expected, "byte {p}");
        }
    }

    #[test]
    fn inputs_in_order() {
        let w: Vec<i8> = (0..8).collect(); // 2 outputs x 4 inputs
        assert_eq!(ordered_inputs(&w, 4, &[Some(2), None, Some(0), Some(3)]), [2, 0, 0, 3, 6, 0, 4, 7]);
    }

    #[test]
    fn columns() {
        let w: Vec<i8> = (0..64).collect(); // 2 outputs x 32 inputs
        let c = to_columns(&w, 2, 32);
        assert_eq!(&c[..8], &[0, 1, 2, 3, 32, 33, 34, 35]);
        assert_eq!(&c[8..12], &[4, 5, 6, 7]);
    }
}
