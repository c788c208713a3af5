//! Accumulator refresh and update, register-tiled.

use crate::simd::Lanes;

/// `out = base - sum(removed rows) + sum(added rows)`, for the i16 lanes
/// (wrapping) and the i32 PSQT lanes.
///
/// The lanes are processed in tiles of `TILE` registers that stay in
/// registers while every feature's row is added: each weight is loaded once
/// and each output lane stored once. A single move's update (one or two
/// rows out, one in: quiet moves, captures, promotions) is instead one pass
/// over the lanes, as Stockfish does it (`stream`; SFNNv8 and SFNNv9 big
/// nets, AVX2: move + eval -3 to -4 %). So is a long list of long rows (a
/// refresh of a big net): each row is read from start to end, eight at a
/// time (`stream_rows`), rather than a tile's slice of every row in turn.
///
/// # Safety
/// The CPU supports `L`'s instructions.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn accumulate<L: Lanes, const L1: usize, const TILE: usize, const B: usize>(
    weights: &[i16],
    psqt_weights: &[i32],
    base: &[i16; L1],
    psqt_base: &[i32; B],
    removed: &[u32],
    added: &[u32],
    out: &mut [i16; L1],
    psqt_out: &mut [i32; B],
) {
    const { assert!(TILE > 0 && L1.is_multiple_of(TILE * L::LANES)) };
    let rows = weights.len() / L1;
    assert!(
        removed.iter().chain(added).all(|&f| (f as usize) < rows) && psqt_weights.len() >= rows * B,
        "feature index out of range"
    );
    let w = weights.as_ptr();
    if added.len() == 1 && (1..=2).contains(&removed.len()) {
        // SAFETY: the rows exist (checked above); the caller guarantees the instructions.
        unsafe { stream::<L, L1>(w, base, removed, added[0], out) };
        accumulate_psqt::<L, B>(psqt_weights, psqt_base, removed, added, psqt_out);
        return;
    }
    if L1 >= STREAMED_LANES && removed.len() + added.len() >= STREAMED_ROWS {
        // At least one row, so `out` is written whole below.
        const { assert!(STREAMED_ROWS > 0) };
        // The PSQT rows, summed after the streams, are asked for first:
        // they come in while the lanes' rows stream. Refresh, interleaved
        // A/B on a Zen 5: the stand-in 0.977-0.982 with AVX2 and 1.003 with
        // AVX-512 VNNI, the 17.1 big net 0.991 and 0.973. (Nets without
        // PSQT buckets have none to ask for.)
        if B > 0 {
            for &f in removed.iter().chain(added) {
                crate::simd::prefetch(psqt_weights.as_ptr().wrapping_add(f as usize * B));
            }
        }
        let (mut from, o) = (base.as_ptr(), out.as_mut_ptr());
        for (rows, subtract) in [(removed, true), (added, false)] {
            let mut eights = rows.chunks_exact(8);
            for eight in &mut eights {
                // SAFETY: the rows exist (checked above); `from` is `base`
                // or `out`, both L1 lanes; the caller guarantees the instructions.
                unsafe { stream_rows::<L, L1, 8>(w, from, eight, subtract, o) };
                from = o;
            }
            // The last 1 to 7 rows in one more pass, not one pass each:
            // a row streamed alone waits on memory with nothing beside it.
            let rest = eights.remainder();
            // SAFETY: as above.
            unsafe {
                match rest.len() {
                    0 => continue,
                    1 => stream_rows::<L, L1, 1>(w, from, rest, subtract, o),
                    2 => stream_rows::<L, L1, 2>(w, from, rest, subtract, o),
                    3 => stream_rows::<L, L1, 3>(w, from, rest, subtract, o),
                    4 => stream_rows::<L, L1, 4>(w, from, rest, subtract, o),
                    5 => stream_rows::<L, L1, 5>(w, from, rest, subtract, o),
                    6 => stream_rows::<L, L1, 6>(w, from, rest, subtract, o),
                    _ => stream_rows::<L, L1, 7>(w, from, rest, subtract, o),
                }
            }
            from = o;
        }
        accumulate_psqt::<L, B>(psqt_weights, psqt_base, removed, added, psqt_out);
        return;
    }
    // The 8 PSQT buckets ride along the first tile's pass (one more
    // register), so that their rows are fetched with the lanes' rows.
    let fused_psqt = B == 8;
    let p = psqt_weights.as_ptr();
    for tile in 0..L1 / (TILE * L::LANES) {
        let offset = tile * TILE * L::LANES;
        let with_psqt = fused_psqt && tile == 0;
        // Offsets stay below L1 within rows that exist (checked above).
        let mut regs: [L::V; TILE] =
            // SAFETY: `offset + (r + 1) * LANES <= L1`; the caller guarantees the instructions.
            core::array::from_fn(|r| unsafe { L::load(base.as_ptr().add(offset + r * L::LANES)) });
        // SAFETY: `B == 8`; the caller guarantees the instructions.
        let mut psqt = with_psqt.then(|| unsafe { L::load_p(psqt_base.as_ptr()) });
        for &f in removed {
            // SAFETY: row `f` exists (checked above) and `offset < L1`.
            let row = unsafe { w.add(f as usize * L1 + offset) };
            for (r, reg) in regs.iter_mut().enumerate() {
                // SAFETY: within row `f`; the caller guarantees the instructions.
                *reg = unsafe { L::sub(*reg, L::load(row.add(r * L::LANES))) };
            }
            if let Some(psqt) = &mut psqt {
                // SAFETY: row `f` has B = 8 PSQT values (checked above).
                *psqt = unsafe { L::sub_p(*psqt, L::load_p(p.add(f as usize * B))) };
            }
        }
        for &f in added {
            // SAFETY: row `f` exists (checked above) and `offset < L1`.
            let row = unsafe { w.add(f as usize * L1 + offset) };
            for (r, reg) in regs.iter_mut().enumerate() {
                // SAFETY: within row `f`; the caller guarantees the instructions.
                *reg = unsafe { L::add(*reg, L::load(row.add(r * L::LANES))) };
            }
            if let Some(psqt) = &mut psqt {
                // SAFETY: row `f` has B = 8 PSQT values (checked above).
                *psqt = unsafe { L::add_p(*psqt, L::load_p(p.add(f as usize * B))) };
            }
        }
        for (r, reg) in regs.into_iter().enumerate() {
            // SAFETY: `offset + (r + 1) * LANES <= L1`; the caller guarantees the instructions.
            unsafe { L::store(out.as_mut_ptr().add(offset + r * L::LANES), reg) };
        }
        if let Some(psqt) = psqt {
            // SAFETY: `B == 8`; the caller guarantees the instructions.
            unsafe { L::store_p(psqt_out.as_mut_ptr(), psqt) };
        }
    }
    if !fused_psqt {
        accumulate_psqt::<L, B>(psqt_weights, psqt_base, removed, added, psqt_out);
    }
}

/// One move's update (one or two rows removed, one added) in a single pass
/// over the lanes: `out = base - r0 (- r1) + a`, every register independent.
///
/// # Safety
/// The rows exist; the CPU supports `L`'s instructions.
#[inline(always)]
unsafe fn stream<L: Lanes, const L1: usize>(
    w: *const i16,
    base: &[i16; L1],
    removed: &[u32],
    added: u32,
    out: &mut [i16; L1],
) {
    // SAFETY: rows `removed` and `added` exist (the caller's check) and
    // every offset is below L1.
    unsafe {
        let row = |f: u32| w.add(f as usize * L1);
        let (r0, a) = (row(removed[0]), row(added));
        let (b, o) = (base.as_ptr(), out.as_mut_ptr());
        if let [_, second] = removed {
            let r1 = row(*second);
            for i in (0..L1).step_by(L::LANES) {
                let v = L::sub(
                    L::add(L::load(b.add(i)), L::load(a.add(i))),
                    L::add(L::load(r0.add(i)), L::load(r1.add(i))),
                );
                L::store(o.add(i), v);
            }
        } else {
            for i in (0..L1).step_by(L::LANES) {
                L::store(o.add(i), L::add(L::sub(L::load(b.add(i)), L::load(r0.add(i))), L::load(a.add(i))));
            }
        }
    }
}

/// From this many rows of at least [`STREAMED_LANES`] lanes on, each row
/// is read whole ([`stream_rows`]). A refresh (2 x 30-odd rows), AVX2,
/// Zen 3, interleaved A/B against the tiled loop: the SFNNv9 big net (3072
/// lanes) 0.85-0.95, the SFNNv8 stand-in (2560) 0.89-0.91; but 1024-lane
/// nets 1.03, Obsidian's (512) 1.13 and the small net (128) 1.07, whose
/// rows the tiles read well enough. Rows streamed four at a time: 0.92 on
/// the big net.
const STREAMED_ROWS: usize = 8;

/// The shortest rows [`stream_rows`] is used for (4 KB of i16).
const STREAMED_LANES: usize = 2048;

/// `out = from -/+ (the N rows' sum)` in one pass over the lanes, every
/// row read from start to end: a long refresh is waiting for memory, and N
/// sequential streams are fetched faster than one tile-sized slice of every
/// row in turn. The i16 sums wrap, so their order does not change the
/// result.
///
/// # Safety
/// The rows exist; `from` is readable for L1 lanes (it may be `out`); the
/// CPU supports `L`'s instructions.
#[inline(always)]
unsafe fn stream_rows<L: Lanes, const L1: usize, const N: usize>(
    w: *const i16,
    from: *const i16,
    rows: &[u32],
    subtract: bool,
    out: *mut i16,
) {
    // SAFETY: every offset is below L1, within `from`, `out` and each row
    // (the caller's guarantee).
    unsafe {
        let rows: [*const i16; N] = core::array::from_fn(|k| w.add(rows[k] as usize * L1));
        for i in (0..L1).step_by(L::LANES) {
            let sum = rows[1..].iter().fold(L::load(rows[0].add(i)), |sum, row| L::add(sum, L::load(row.add(i))));
            let value = L::load(from.add(i));
            L::store(out.add(i), if subtract { L::sub(value, sum) } else { L::add(value, sum) });
        }
    }
}

/// The PSQT part: one 8-lane register per 8 buckets, else scalar.
#[inline(always)]
pub(super) fn accumulate_psqt<L: Lanes, const B: usize>(
    psqt_weights: &[i32],
    base: &[i32; B],
    removed: &[u32],
    added: &[u32],
    out: &mut [i32; B],
) {
    if B.is_multiple_of(8) {
        for block in (0..B).step_by(8) {
            // SAFETY: `block + 8 <= B` and every row `f` has B entries
            // (checked by the caller); the caller guarantees the instructions.
            unsafe {
                let mut reg = L::load_p(base.as_ptr().add(block));
                for &f in removed {
                    reg = L::sub_p(reg, L::load_p(psqt_weights.as_ptr().add(f as usize * B + block)));
                }
                for &f in added {
                    reg = L::add_p(reg, L::load_p(psqt_weights.as_ptr().add(f as usize * B + block)));
                }
                L::store_p(out.as_mut_ptr().add(block), reg);
            }
        }
    } else {
        *out = *base;
        for &f in removed {
            for (o, w) in out.iter_mut().zip(&psqt_weights[f as usize * B..][..B]) {
                *o = o.wrapping_sub(*w);
            }
        }
        for &f in added {
            for (o, w) in out.iter_mut().zip(&psqt_weights[f as usize * B..][..B]) {
                *o = o.wrapping_add(*w);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// Every backend this CPU has equals plain wrapping sums, for lists of
    /// removed and added rows on both sides of [`super::STREAMED_ROWS`] (and
    /// streamed passes of 1 to 8 rows), on rows streamed
    /// ([`super::STREAMED_LANES`]) and tiled, in one tile and
    /// several, with 8 PSQT buckets (fused into the first tile) and 3
    /// (apart).
    #[test]
    fn equal_to_scalar() {
        fn check<const L1: usize, const TILE: usize, const B: usize>(
            rng: &mut crate::Rng,
            missing: &mut std::collections::BTreeSet<&str>,
        ) {
            const ROWS: usize = 48;
            let weights: Vec<i16> = (0..ROWS * L1).map(|_| rng.next_u64() as i16).collect();
            let psqt_weights: Vec<i32> = (0..ROWS * B).map(|_| rng.next_u64() as i32).collect();
            let base: [i16; L1] = core::array::from_fn(|_| rng.next_u64() as i16);
            let psqt_base: [i32; B] = core::array::from_fn(|_| rng.next_u64() as i32);
            for (removed, added) in [
                (0, 0),
                (0, 1),
                (1, 1),
                (2, 1),
                (0, 7),
                (0, 8),
                (0, 11),
                (2, 12),
                (5, 13),
                (0, 30),
                (3, 5),
                (9, 17),
                (8, 0),
                (1, 31),
            ] {
                let removed: Vec<u32> = (0..removed).map(|_| rng.range(0, ROWS as i64 - 1) as u32).collect();
                let added: Vec<u32> = (0..added).map(|_| rng.range(0, ROWS as i64 - 1) as u32).collect();
                let (mut expected, mut expected_psqt) = (base, psqt_base);
                for (rows, sign) in [(&removed, -1i16), (&added, 1)] {
                    for &f in rows {
                        let f = f as usize;
                        for (e, w) in expected.iter_mut().zip(&weights[f * L1..][..L1]) {
                            *e = e.wrapping_add(sign.wrapping_mul(*w));
                        }
                        for (e, w) in expected_psqt.iter_mut().zip(&psqt_weights[f * B..][..B]) {
                            *e = e.wrapping_add(i32::from(sign).wrapping_mul(*w));
                        }
                    }
                }
                let case =
                    format!("L1 {L1}, tile {TILE}, {B} buckets, {} removed, {} added", removed.len(), added.len());
                let (mut out, mut psqt_out) = ([0i16; L1], [0i32; B]);
                macro_rules! check {
                    ($cpu:expr, $name:literal) => {
                        if let Some(cpu) = $cpu {
                            cpu.accumulate::<L1, TILE, B>(
                                &weights,
                                &psqt_weights,
                                &base,
                                &psqt_base,
                                &removed,
                                &added,
                                &mut out,
                                &mut psqt_out,
                            );
                            assert!(out == expected && psqt_out == expected_psqt, "{}, {case}", $name);
                        } else {
                            missing.insert($name);
                        }
                    };
                }
                #[cfg(target_arch = "x86_64")]
                {
                    use crate::simd::x86::{Avx2, Avx512, Avx512Vnni, AvxVnni};
                    check!(Avx2::new(), "avx2");
                    check!(AvxVnni::new(), "avx-vnni");
                    check!(Avx512::new(), "avx512");
                    check!(Avx512Vnni::new(), "avx512-vnni");
                }
                #[cfg(target_arch = "aarch64")]
                {
                    use crate::simd::aarch64::{Neon, NeonDotprod};
                    check!(Neon::new(), "neon");
                    check!(NeonDotprod::new(), "neon-dotprod");
                }
            }
        }
        let mut rng = crate::Rng::new(0xACC_5EED);
        let mut missing = std::collections::BTreeSet::new();
        // Rows long enough to be streamed.
        const { assert!(super::STREAMED_LANES == 2048) };
        check::<2048, 4, 8>(&mut rng, &mut missing);
        check::<2048, 4, 3>(&mut rng, &mut missing);
        // Tiled: 4 registers of up to 32 lanes, 8 tiles of 1024 lanes or more.
        check::<1024, 4, 8>(&mut rng, &mut missing);
        // One tile: every row's lanes stay in registers.
        check::<128, 4, 8>(&mut rng, &mut missing);
        if !missing.is_empty() {
            eprintln!(
                "NOT TESTED on this CPU (it lacks their instructions): {}",
                missing.into_iter().collect::<Vec<_>>().join(", ")
            );
        }
    }
}
