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
/// nets, AVX2: move + eval -3 to -4 %).
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
unsafe fn stream<L: Lanes, const L1: usize>(w: *const i16, base: &[i16; L1], removed: &[u32], added: u32, out: &mut [i16; L1]) {
    // SAFETY: rows `removed` and `added` exist (the caller's check) and
    // every offset is below L1.
    unsafe {
        let row = |f: u32| w.add(f as usize * L1);
        let (r0, a) = (row(removed[0]), row(added));
        let (b, o) = (base.as_ptr(), out.as_mut_ptr());
        if let [_, second] = removed {
            let r1 = row(*second);
            for i in (0..L1).step_by(L::LANES) {
                let v = L::sub(L::add(L::load(b.add(i)), L::load(a.add(i))), L::add(L::load(r0.add(i)), L::load(r1.add(i))));
                L::store(o.add(i), v);
            }
        } else {
            for i in (0..L1).step_by(L::LANES) {
                L::store(o.add(i), L::add(L::sub(L::load(b.add(i)), L::load(r0.add(i))), L::load(a.add(i))));
            }
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
