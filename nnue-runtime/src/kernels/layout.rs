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
        order.len().is_multiple_of(RUN) && order.chunks_exact(RUN).all(|run| run.iter().enumerate().all(|(k, &l)| l == run[0] + k)),
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
            assert!(v.iter().enumerate().all(|(p, &x)| x as usize == (p / order.len()) * order.len() + order[p % order.len()]));
            assert_ne!(v, original);
            unpermute_lanes(&mut v, lanes);
            assert_eq!(v, original);
        }
    }

    #[test]
    fn columns() {
        let w: Vec<i8> = (0..64).collect(); // 2 outputs x 32 inputs
        let c = to_columns(&w, 2, 32);
        assert_eq!(&c[..8], &[0, 1, 2, 3, 32, 33, 34, 35]);
        assert_eq!(&c[8..12], &[4, 5, 6, 7]);
    }
}
