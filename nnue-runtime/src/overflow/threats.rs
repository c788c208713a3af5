//! Bounds on the FullThreats part of the accumulator over every position of
//! at most 32 pieces, tighter than [`super::rows`]: every feature is an
//! attack of one piece (its attacker, of a relative kind on an oriented
//! square) on another, and
//! - a square holds at most one piece, so of the attackers that could stand
//!   on a square, at most one does;
//! - a piece attacks at most [`FullThreats::max_attacked`] pieces at once
//!   (2 for a pawn, 4 for a bishop or a rook, 8 for the others);
//! - at most 32 squares hold a piece.
//!
//! So a lane is at most the sum, over the 32 squares with the largest
//! values, of the largest over the attackers that may stand there of the sum
//! of their `max_attacked` largest positive weights; likewise below. Which
//! pieces are attacked, and the rules binding pieces to each other, are
//! dropped, so this is a true bound.

use super::rows::SetBound;
use super::{Int, Interval, OverflowProof};
use crate::features::FullThreats;

/// The most pieces on a board.
const MAX_PIECES: usize = 32;
/// Lanes gathered together: each pass reads the weight matrix once.
const LANE_BLOCK: usize = 32;
/// Relative attackers (own and opponent's kinds) times squares.
const GROUPS: usize = 12 * 64;

/// Every feature by its attacker: `groups[relative * 64 + square]`.
fn groups() -> Vec<Vec<usize>> {
    let mut groups = vec![Vec::new(); GROUPS];
    for feature in 0..FullThreats::DIMENSIONS {
        let (relative, square) = FullThreats::attacker(feature);
        groups[relative * 64 + square].push(feature);
    }
    groups
}

/// The sum of the `k` largest positive values of `values` (reorders it).
fn top_positive(values: &mut [i64], k: usize) -> i64 {
    let k = k.min(values.len());
    if k == 0 {
        return 0;
    }
    if k < values.len() {
        values.select_nth_unstable_by(k - 1, |a, b| b.cmp(a));
    }
    values[..k].iter().filter(|&&v| v > 0).sum()
}

/// Per column of `values` (`width` per feature row), the range described in
/// the module documentation.
pub fn column_ranges<W: Copy + Into<i64>>(values: &[W], width: usize) -> Vec<Interval> {
    assert_eq!(values.len(), FullThreats::DIMENSIONS * width, "one row per FullThreats feature");
    let groups = groups();
    let mut ranges = Vec::with_capacity(width);
    // Per square and column: the best attacker's sum, above and below.
    let mut high = vec![0i64; 64 * LANE_BLOCK];
    let mut low = vec![0i64; 64 * LANE_BLOCK];
    let mut scratch: Vec<i64> = Vec::new();
    for block in (0..width).step_by(LANE_BLOCK) {
        let n = LANE_BLOCK.min(width - block);
        high.fill(0);
        low.fill(0);
        for (group, features) in groups.iter().enumerate() {
            let (relative, square) = (group / 64, group % 64);
            let k = FullThreats::max_attacked(relative);
            for column in 0..n {
                scratch.clear();
                scratch.extend(features.iter().map(|&f| values[f * width + block + column].into()));
                let up = top_positive(&mut scratch, k);
                scratch.iter_mut().for_each(|v| *v = -*v);
                let down = top_positive(&mut scratch, k);
                let at = square * LANE_BLOCK + column;
                high[at] = high[at].max(up);
                low[at] = low[at].max(down);
            }
        }
        for column in 0..n {
            let mut per_square: Vec<i64> = (0..64).map(|s| high[s * LANE_BLOCK + column]).collect();
            let max = top_positive(&mut per_square, MAX_PIECES);
            let mut per_square: Vec<i64> = (0..64).map(|s| low[s * LANE_BLOCK + column]).collect();
            let min = -top_positive(&mut per_square, MAX_PIECES);
            ranges.push(Interval::new(min, max));
        }
    }
    ranges
}

/// The bound of the FullThreats rows `weights` (`lanes` per feature) and
/// `psqt_weights` (`buckets` per feature). Records the set's own part, held
/// in i16 by Stockfish (its threat accumulator, without biases), as
/// `<name> accumulator`.
pub fn prove<W: Copy + Into<i64>>(
    proof: &mut OverflowProof,
    name: &str,
    weights: &[W],
    lanes: usize,
    psqt_weights: &[i32],
    buckets: usize,
) -> SetBound {
    let lane_ranges = column_ranges(weights, lanes);
    if let Some((lane, range)) = lane_ranges.iter().enumerate().min_by_key(|(_, r)| r.margin(Int::I16)) {
        let all = lane_ranges.iter().copied().reduce(Interval::union).unwrap_or(*range);
        let what = format!("{name} accumulator");
        proof.record(&what, Int::I16, *range, || format!("lane {lane}, at most one attacker per square, 32 pieces"));
        proof.record(&what, Int::I16, all, || format!("lane {lane}, at most one attacker per square, 32 pieces"));
    }
    let psqt = if buckets == 0 { Vec::new() } else { column_ranges(psqt_weights, buckets) };
    SetBound { lanes: lane_ranges, psqt }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_attacker_per_square_and_its_largest_attacks() {
        // Column 0: every weight 1 -> 32 squares x 8 attacks at most (no
        // square's best attacker has more than 8 features).
        // Column 1: weight 100 on every feature of own knights on b1 only:
        // one knight, its (at most 8) largest attacks; every other -1, so
        // the low end is 32 squares x 8 x -1.
        let (b1_knight, b1) = (1, 1);
        let values: Vec<i16> = (0..FullThreats::DIMENSIONS)
            .flat_map(|f| [1, if FullThreats::attacker(f) == (b1_knight, b1) { 100 } else { -1 }])
            .collect();
        let ranges = column_ranges(&values, 2);
        assert_eq!(ranges[0], Interval::new(0, 32 * 8));
        // A knight on b1 reaches a3, c3 and d2: 3 squares, 2 colours of
        // targets, so more than 8 features; 8 count.
        assert_eq!(ranges[1], Interval::new(-32 * 8, 8 * 100));
    }
}
