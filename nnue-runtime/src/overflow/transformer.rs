//! Bounds on the accumulators over every legal position.
//!
//! A perspective's accumulator lane is the bias plus one weight per active
//! feature. With that perspective's king on a given square, its own king's
//! feature (if the set has kings) is always active, and every other square
//! holds at most one piece: no piece, or one of the pieces that may stand
//! there (no pawn on the first or last rank, the other king anywhere else).
//! At most `MAX_ACTIVE` features are active. So a lane's largest value is
//! at most the bias, plus the own king's weight, plus the largest positive
//! per-square maxima (over the pieces that may stand on that square), as
//! many as pieces other than the own king can be active; the smallest value
//! likewise. This drops only the rules that bind pieces to each other (piece
//! counts, pawn structure, check), so it is a true bound and close to the
//! attainable extreme.

use super::rows::SetBound;
use super::{Int, Interval, OverflowProof};
use crate::chess::position::{Color, Piece, PieceKind, Square};
use std::collections::HashSet;

/// A feature set's index function ([`crate::FeatureSet::index`]).
pub type IndexFn = fn(Color, Square, Square, Piece) -> Option<usize>;

/// The transformer's parameters as the proof reads them: lanes in logical
/// order, rows of `lanes` weights per feature.
pub struct TransformerParams<'a, W = i16> {
    pub biases: &'a [i16],
    pub weights: &'a [W],
    pub psqt_weights: &'a [i32],
    pub psqt_buckets: usize,
}

/// What one perspective with its king on one square can activate.
#[derive(Clone, PartialEq, Eq, Hash)]
struct KingView {
    /// The own king's feature, always active.
    own: Option<usize>,
    /// Per other square, the features of the pieces that may stand there
    /// (each list sorted; squares with none left out), sorted.
    squares: Vec<Vec<usize>>,
}

impl KingView {
    fn new(index: IndexFn, perspective: Color, king: Square) -> KingView {
        let own = index(perspective, king, king, Piece { color: perspective, kind: PieceKind::King });
        let mut squares: Vec<Vec<usize>> = (0..64)
            .filter_map(Square::new)
            .filter(|&s| s != king)
            .map(|square| {
                let mut features: Vec<usize> =
                    pieces_allowed(perspective, square).filter_map(|p| index(perspective, king, square, p)).collect();
                features.sort_unstable();
                features.dedup();
                features
            })
            .filter(|f| !f.is_empty())
            .collect();
        squares.sort_unstable();
        KingView { own, squares }
    }
}

/// Every distinct [`KingView`] of the feature set (mirrored and flipped
/// king squares share one), with the first perspective and king square that
/// has it.
fn king_views(index: IndexFn) -> Vec<(KingView, Color, Square)> {
    let mut seen = HashSet::new();
    let mut views = Vec::new();
    for perspective in [Color::White, Color::Black] {
        for king in (0..64).filter_map(Square::new) {
            let view = KingView::new(index, perspective, king);
            if seen.insert(view.clone()) {
                views.push((view, perspective, king));
            }
        }
    }
    views
}

/// The pieces that may stand on `square` in a legal position, besides
/// `perspective`'s own king (which stands on its own square).
pub(super) fn pieces_allowed(perspective: Color, square: Square) -> impl Iterator<Item = Piece> {
    let back_rank = square.rank() == 0 || square.rank() == 7;
    [Color::White, Color::Black]
        .into_iter()
        .flat_map(|color| PieceKind::ALL.into_iter().map(move |kind| Piece { color, kind }))
        .filter(move |p| {
            !((p.kind == PieceKind::Pawn && back_rank) || (p.kind == PieceKind::King && p.color == perspective))
        })
}

/// The sum of the `k` largest positive values of `values` (reorders it).
pub(super) fn top_positive_sum(values: &mut [i64], k: usize) -> i64 {
    let mut positive = 0;
    for i in 0..values.len() {
        if values[i] > 0 {
            values.swap(positive, i);
            positive += 1;
        }
    }
    let chosen = &mut values[..positive];
    if chosen.len() > k {
        chosen.select_nth_unstable_by(k, |a, b| b.cmp(a));
    }
    chosen[..k.min(positive)].iter().sum()
}

/// Weight types with extreme values.
pub trait Bounded {
    const MIN: Self;
    const MAX: Self;
}

impl Bounded for i8 {
    const MIN: i8 = i8::MIN;
    const MAX: i8 = i8::MAX;
}

impl Bounded for i16 {
    const MIN: i16 = i16::MIN;
    const MAX: i16 = i16::MAX;
}

impl Bounded for i32 {
    const MIN: i32 = i32::MIN;
    const MAX: i32 = i32::MAX;
}

/// Lanes handled together: their per-square extremes stay in L1/L2 while the
/// view's weight rows are read once.
const LANE_BLOCK: usize = 32;

/// Each lane's range with one king view: `base(lane)` (bias and own king)
/// plus the `others` largest positive per-square maxima, down to `base`
/// minus the `others` largest negative per-square minima. Calls
/// `each(lane, range)` in lane order.
fn view_ranges<W: Copy + Ord + Into<i64> + Bounded>(
    view: &KingView,
    others: usize,
    weights: &[W],
    lanes: usize,
    base: impl Fn(usize) -> i64,
    mut each: impl FnMut(usize, Interval),
) {
    let squares = view.squares.len();
    let mut highest = vec![W::MIN; squares * LANE_BLOCK];
    let mut lowest = vec![W::MAX; squares * LANE_BLOCK];
    let mut scratch = Vec::with_capacity(squares);
    for block in (0..lanes).step_by(LANE_BLOCK) {
        let width = LANE_BLOCK.min(lanes - block);
        highest.fill(W::MIN);
        lowest.fill(W::MAX);
        for (s, features) in view.squares.iter().enumerate() {
            let (high, low) = (&mut highest[s * LANE_BLOCK..][..width], &mut lowest[s * LANE_BLOCK..][..width]);
            for &f in features {
                let row = &weights[f * lanes + block..][..width];
                for ((h, l), &w) in high.iter_mut().zip(low.iter_mut()).zip(row) {
                    *h = (*h).max(w);
                    *l = (*l).min(w);
                }
            }
        }
        for j in 0..width {
            scratch.clear();
            scratch.extend((0..squares).map(|s| highest[s * LANE_BLOCK + j].into()));
            let max = top_positive_sum(&mut scratch, others);
            scratch.clear();
            scratch.extend((0..squares).map(|s| -lowest[s * LANE_BLOCK + j].into()));
            let min = -top_positive_sum(&mut scratch, others);
            let base = base(block + j);
            each(block + j, Interval::new(base + min, base + max));
        }
    }
}

/// Records the bounds of the accumulator lanes (`transformer accumulator`,
/// i16) and the PSQT values (`transformer PSQT`, i32) over every legal
/// position, and returns each PSQT bucket's range.
pub fn prove(
    proof: &mut OverflowProof,
    index: IndexFn,
    max_active: usize,
    params: &TransformerParams<'_>,
) -> Vec<Interval> {
    prove_with(proof, index, max_active, params, &[])
}

/// [`prove`] for an accumulator that sums further feature sets after this
/// one (the first, whose king views bound it): each lane's and bucket's
/// range per king view is widened by `others`' ranges, added.
pub fn prove_with<W: Copy + Ord + Into<i64> + Bounded>(
    proof: &mut OverflowProof,
    index: IndexFn,
    max_active: usize,
    params: &TransformerParams<'_, W>,
    others: &[SetBound],
) -> Vec<Interval> {
    let lanes = params.biases.len();
    let buckets = params.psqt_buckets;
    let extra = |ranges: fn(&SetBound) -> &[Interval], i: usize| {
        others.iter().fold(Interval::point(0), |sum, set| sum + ranges(set)[i])
    };
    let lane_extra: Vec<Interval> = (0..lanes).map(|lane| extra(|s| &s.lanes, lane)).collect();
    let psqt_extra: Vec<Interval> = (0..buckets).map(|bucket| extra(|s| &s.psqt, bucket)).collect();
    let mut psqt = vec![None::<Interval>; buckets];
    for (view, perspective, king) in king_views(index) {
        let others = max_active - usize::from(view.own.is_some());
        let at = |what: String| format!("{what}, {perspective:?} king on {}", square_name(king));
        let own = |row: &dyn Fn(usize) -> i64| view.own.map_or(0, row);

        let base =
            |lane| i64::from(params.biases[lane]) + own(&|f| Into::<i64>::into(params.weights[f * lanes + lane]));
        let mut lane_ranges = vec![Interval::point(0); lanes];
        view_ranges(&view, others, params.weights, lanes, base, |lane, range| {
            lane_ranges[lane] = range + lane_extra[lane]
        });
        proof.record_lanes(ACCUMULATOR, Int::I16, &lane_ranges, |lane| at(format!("lane {lane}")));
        if buckets > 0 {
            let base = |bucket| own(&|f| i64::from(params.psqt_weights[f * buckets + bucket]));
            view_ranges(&view, others, params.psqt_weights, buckets, base, |bucket, range| {
                let range = range + psqt_extra[bucket];
                psqt[bucket] = Some(psqt[bucket].map_or(range, |t: Interval| t.union(range)));
                proof.record(PSQT, Int::I32, range, || at(format!("bucket {bucket}")));
            });
        }
    }
    psqt.into_iter().map(|r| r.expect("every bucket is bounded in every view")).collect()
}

/// The bounds of an accumulator made only of sets bounded by their rows
/// (no set with one feature per piece): biases plus `others`' ranges.
pub fn prove_rows_only(
    proof: &mut OverflowProof,
    biases: &[i16],
    buckets: usize,
    others: &[SetBound],
) -> Vec<Interval> {
    let sum = |ranges: fn(&SetBound) -> &[Interval], i: usize| {
        others.iter().fold(Interval::point(0), |sum, set| sum + ranges(set)[i])
    };
    for (lane, &bias) in biases.iter().enumerate() {
        let range = Interval::point(i64::from(bias)) + sum(|s| &s.lanes, lane);
        proof.record(ACCUMULATOR, Int::I16, range, || format!("lane {lane}"));
    }
    (0..buckets)
        .map(|bucket| {
            let range = sum(|s| &s.psqt, bucket);
            proof.record(PSQT, Int::I32, range, || format!("bucket {bucket}"));
            range
        })
        .collect()
}

/// The name of the accumulator lanes' bound.
pub const ACCUMULATOR: &str = "transformer accumulator";
/// The name of the PSQT values' bound.
pub const PSQT: &str = "transformer PSQT";

/// `e1`, `h8`...
pub fn square_name(square: Square) -> String {
    format!("{}{}", char::from(b'a' + square.file()), square.rank() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::{FeatureSet, HalfKAv2, HalfKAv2Hm, HalfKP};

    /// Weights of three lanes per feature: `lanes(feature)`.
    fn weights<F: FeatureSet>(lanes: impl Fn(usize) -> [i16; 3]) -> Vec<i16> {
        (0..F::DIMENSIONS).flat_map(lanes).collect()
    }

    fn prove_lanes<F: FeatureSet>(biases: [i16; 3], weights: &[i16]) -> Vec<Interval> {
        let params = TransformerParams { biases: &biases, weights, psqt_weights: &[], psqt_buckets: 0 };
        let mut ranges = vec![None::<Interval>; 3];
        for (view, ..) in king_views(F::index) {
            let others = F::MAX_ACTIVE - usize::from(view.own.is_some());
            let base = |lane: usize| i64::from(biases[lane]) + view.own.map_or(0, |f| i64::from(weights[f * 3 + lane]));
            view_ranges(&view, others, params.weights, 3, base, |lane, r| {
                ranges[lane] = Some(ranges[lane].map_or(r, |a: Interval| a.union(r)));
            });
        }
        ranges.into_iter().map(Option::unwrap).collect()
    }

    #[test]
    fn distinct_king_views() {
        // Mirrored king squares share a bucket, Black's view is White's
        // flipped: 32 views; without mirroring 64.
        assert_eq!(king_views(HalfKAv2Hm::index).len(), 32);
        assert_eq!(king_views(HalfKAv2::index).len(), 64);
        assert_eq!(king_views(HalfKP::index).len(), 64);
    }

    #[test]
    fn half_ka_counts_the_own_king_and_31_other_pieces() {
        let w = weights::<HalfKAv2Hm>(|_| [1, -1, 0]);
        let ranges = prove_lanes::<HalfKAv2Hm>([100, 100, 5], &w);
        assert_eq!(ranges, [Interval::new(101, 132), Interval::new(68, 99), Interval::point(5)]);
    }

    #[test]
    fn half_kp_counts_30_pieces_and_no_king() {
        let w = weights::<HalfKP>(|_| [1, -1, 0]);
        let ranges = prove_lanes::<HalfKP>([0, 0, 0], &w);
        assert_eq!(ranges, [Interval::new(0, 30), Interval::new(-30, 0), Interval::point(0)]);
    }

    #[test]
    fn pawns_on_the_back_ranks_and_the_own_king_elsewhere_are_not_counted() {
        // Weights only where no legal position has a feature: pawns on ranks
        // 1 and 8, the own king off its own square.
        let king = Square::from_file_rank(4, 0).unwrap();
        let mut illegal = vec![false; HalfKAv2::DIMENSIONS];
        for s in (0..64).filter_map(Square::new) {
            for color in [Color::White, Color::Black] {
                if s.rank() == 0 || s.rank() == 7 {
                    illegal[HalfKAv2::index(Color::White, king, s, Piece { color, kind: PieceKind::Pawn }).unwrap()] =
                        true;
                }
            }
        }
        let w = weights::<HalfKAv2>(|f| if illegal[f] { [1000, -1000, 0] } else { [0, 0, 0] });
        assert_eq!(prove_lanes::<HalfKAv2>([0; 3], &w), [Interval::point(0); 3]);
        // The same weights on a legal feature count.
        let legal = HalfKAv2::index(
            Color::White,
            king,
            Square::from_file_rank(0, 1).unwrap(),
            Piece { color: Color::White, kind: PieceKind::Pawn },
        )
        .unwrap();
        let w = weights::<HalfKAv2>(|f| if f == legal { [1000, -1000, 0] } else { [0, 0, 0] });
        assert_eq!(
            prove_lanes::<HalfKAv2>([0; 3], &w),
            [Interval::new(0, 1000), Interval::new(-1000, 0), Interval::point(0)]
        );
    }

    #[test]
    fn top_positive_sum_takes_the_largest_positives() {
        assert_eq!(top_positive_sum(&mut [5, -1, 3, 9, 0, 7], 2), 16);
        assert_eq!(top_positive_sum(&mut [5, -1, 3], 5), 8);
        assert_eq!(top_positive_sum(&mut [-5, -1], 3), 0);
        assert_eq!(top_positive_sum(&mut [], 3), 0);
    }
}
