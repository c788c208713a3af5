//! Bounds on one feature set's part of the accumulator whatever the
//! position: any `max_active` of its rows may be active at once, so a lane
//! lies between the sum of its `max_active` most negative weights and the
//! sum of its `max_active` largest positive ones (likewise each PSQT
//! bucket). This uses nothing about the set but its `MAX_ACTIVE`, so it is
//! sound for every set, and coarse: it is what bounds the sets after the
//! first of a transformer that sums several (FullThreats in Stockfish 18's
//! big net), whose features depend on pairs of pieces and so escape the
//! king-view bound of [`super::transformer`].

use super::{Int, Interval, OverflowProof};

/// One feature set's part of every lane and PSQT bucket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetBound {
    /// Per lane (logical order), the range of the sum of its active rows.
    pub lanes: Vec<Interval>,
    /// Per PSQT bucket, likewise.
    pub psqt: Vec<Interval>,
}

/// Lanes whose columns are gathered together: each pass reads the weight
/// matrix once, row by row.
const LANE_BLOCK: usize = 32;

/// A block whose values span fewer than this many integers is counted
/// (one count per column and value) instead of selected.
const COUNTED_SPAN: i64 = 1 << 12;

/// The per-column range of `max_active` rows of `values` (`width` columns
/// per row) chosen freely: `[sum of the max_active most negative, sum of
/// the max_active largest positive]`.
pub fn column_ranges<W: Copy + Into<i64>>(values: &[W], width: usize, max_active: usize) -> Vec<Interval> {
    if width == 0 {
        return Vec::new();
    }
    let rows = values.len() / width;
    let mut ranges = Vec::with_capacity(width);
    let mut columns: Vec<Vec<i64>> = vec![Vec::new(); LANE_BLOCK.min(width)];
    let mut counts: Vec<u32> = Vec::new();
    for block in (0..width).step_by(LANE_BLOCK) {
        let n = LANE_BLOCK.min(width - block);
        let block_values =
            || values.chunks_exact(width).flat_map(|row| row[block..block + n].iter().map(|&v| v.into()));
        let (low, high) = block_values().fold((i64::MAX, i64::MIN), |(l, h), v: i64| (l.min(v), h.max(v)));
        if rows > 0 && high - low < COUNTED_SPAN {
            // Few distinct values (i8 weights): counted per column, then
            // taken from either end.
            let span = (high - low + 1) as usize;
            counts.clear();
            counts.resize(n * span, 0);
            for row in values.chunks_exact(width) {
                for (column, &v) in row[block..block + n].iter().enumerate() {
                    counts[column * span + (v.into() - low) as usize] += 1;
                }
            }
            for counts in counts.chunks_exact(span) {
                let taken = |values: &mut dyn Iterator<Item = (i64, u32)>| {
                    let (mut left, mut sum) = (max_active as i64, 0i64);
                    for (v, count) in values {
                        let take = left.min(i64::from(count));
                        (sum, left) = (sum + take * v, left - take);
                    }
                    sum
                };
                let value = |(i, &count): (usize, &u32)| (low + i as i64, count);
                let max = taken(&mut counts.iter().enumerate().rev().map(value).take_while(|&(v, _)| v > 0));
                let min = taken(&mut counts.iter().enumerate().map(value).take_while(|&(v, _)| v < 0));
                ranges.push(Interval::new(min, max));
            }
            continue;
        }
        for column in columns.iter_mut() {
            column.clear();
            column.reserve(rows);
        }
        for row in values.chunks_exact(width) {
            for (column, &v) in columns.iter_mut().zip(&row[block..block + n]) {
                column.push(v.into());
            }
        }
        for column in &mut columns[..n] {
            let max = top_sum(column, max_active, |a, b| b.cmp(a), |v| v > 0);
            let min = top_sum(column, max_active, |a, b| a.cmp(b), |v| v < 0);
            ranges.push(Interval::new(min, max));
        }
    }
    ranges
}

/// The sum of the `k` first values of `values` in `order` that pass
/// `keep` (reorders `values`).
fn top_sum(
    values: &mut [i64],
    k: usize,
    order: impl Fn(&i64, &i64) -> std::cmp::Ordering,
    keep: impl Fn(i64) -> bool,
) -> i64 {
    let k = k.min(values.len());
    if k == 0 {
        return 0;
    }
    if k < values.len() {
        values.select_nth_unstable_by(k - 1, &order);
    }
    values[..k].iter().copied().filter(|&v| keep(v)).sum()
}

/// The bound of a set with `max_active` active features, its weights
/// `lanes` and PSQT weights `buckets` per row. Records the set's own part,
/// held in i16 by Stockfish (an accumulator of its own, without biases),
/// as `<name> accumulator`.
pub fn prove<W: Copy + Into<i64>>(
    proof: &mut OverflowProof,
    name: &str,
    weights: &[W],
    lanes: usize,
    psqt_weights: &[i32],
    buckets: usize,
    max_active: usize,
) -> SetBound {
    let lane_ranges = column_ranges(weights, lanes, max_active);
    proof.record_lanes(&format!("{name} accumulator"), Int::I16, &lane_ranges, |lane| {
        format!("lane {lane}, any {max_active} features")
    });
    SetBound { lanes: lane_ranges, psqt: column_ranges(psqt_weights, buckets, max_active) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_the_largest_positive_and_most_negative_per_column() {
        // 4 rows of 2 columns; any 2 active.
        let w: [i8; 8] = [5, -1, 3, 2, -7, 2, 1, -9];
        assert_eq!(column_ranges(&w, 2, 2), [Interval::new(-7, 8), Interval::new(-10, 4)]);
        // More active than rows: every positive, every negative.
        assert_eq!(column_ranges(&w, 2, 9), [Interval::new(-7, 9), Interval::new(-10, 4)]);
        // Columns past a block of 32 are handled like the first.
        let wide: Vec<i16> = (0..3 * 40).map(|i| if i % 40 == 39 { 100 } else { -1 }).collect();
        let ranges = column_ranges(&wide, 40, 2);
        assert_eq!((ranges[0], ranges[39]), (Interval::new(-2, 0), Interval::new(0, 200)));
    }

    #[test]
    fn counted_and_selected_blocks_agree_with_sorting() {
        // Narrow values (i8) are counted, wide ones selected: both against
        // each column sorted.
        let mut rng = crate::Rng::new(0x2545_f491_4f6c_dd1du64);
        let mut next = |m: i64| rng.range(-m, m);
        for (span, width, rows, k) in [(127, 40, 300, 25), (20_000, 40, 300, 25), (127, 3, 5, 9), (30_000, 3, 5, 9)] {
            let values: Vec<i64> = (0..width * rows).map(|_| next(span)).collect();
            let expected: Vec<Interval> = (0..width)
                .map(|c| {
                    let mut column: Vec<i64> = values.iter().skip(c).step_by(width).copied().collect();
                    column.sort_unstable();
                    let min = column.iter().take(k).filter(|&&v| v < 0).sum();
                    let max = column.iter().rev().take(k).filter(|&&v| v > 0).sum();
                    Interval::new(min, max)
                })
                .collect();
            assert_eq!(column_ranges(&values, width, k), expected, "span {span}, {width} columns");
        }
    }

    #[test]
    fn records_the_sets_own_i16_part() {
        let mut proof = OverflowProof::default();
        let bound = prove(&mut proof, "Threats", &[20_000i16, 1, 20_000, 1], 2, &[3, -4], 1, 2);
        assert_eq!(bound.lanes, [Interval::new(0, 40_000), Interval::new(0, 2)]);
        assert_eq!(bound.psqt, [Interval::new(-4, 3)]);
        assert!(!proof.holds(), "40,000 does not fit in i16");
    }
}
