//! Bounds on the FullThreats part of the accumulator over every position of
//! at most 32 pieces, tighter than [`super::rows`]: every feature is an
//! attack of one piece (its attacker, of a relative kind on an oriented
//! square) on another, and
//! - a square holds at most one piece, so of the attackers that could stand
//!   on a square, at most one does;
//! - an attacker's features fall into slots of which at most one feature is
//!   active at once: a target square for a pawn, a knight or a king (the
//!   square holds one piece), a ray for a bishop, a rook or a queen (it
//!   attacks the first piece on the ray only);
//! - at most 32 squares hold a piece.
//!
//! So a lane is at most the sum, over the 32 squares with the largest
//! values, of the largest over the attackers that may stand there of the sum
//! over their slots of each slot's largest positive weight; likewise below.
//! Which pieces are attacked, and the rules binding pieces to each other,
//! are dropped, so this is a true bound.

use super::rows::SetBound;
use super::transformer::{
    ACCUMULATOR, Bounded, IndexFn, PSQT, TransformerParams, pieces_allowed, square_name, top_positive_sum,
};
use super::{Int, Interval, OverflowProof};
use crate::chess::position::{Color, Piece, PieceKind, Square};
use crate::features::{BoardFeatures, FullThreats, PawnPairs, Threat};

/// The most pieces on a board.
const MAX_PIECES: usize = 32;
/// Relative attackers (own and opponent's kinds) times squares.
const GROUPS: usize = 12 * 64;

/// Every feature by its attacker and where it attacks:
/// `slots[relative * 64 + square]` lists that attacker's slots (see the
/// module documentation), each with its features. Found by indexing every
/// attack from White's view with the board unmirrored, where the relative
/// piece and square of an attacker are its own. Features no attack has (the
/// lower half of a same-kind pair, see [`FullThreats`]) are never active and
/// are in no slot.
fn slots<const TARGETS: u64>() -> Vec<Vec<Vec<usize>>> {
    /// Slot keys: a target square (`0..64`) or a ray (`64..73`).
    const KEYS: usize = 64 + 9;
    let a1 = Square::new(0).expect("a1 is a square");
    let mut keyed = vec![vec![Vec::new(); KEYS]; GROUPS];
    for relative in 0..12 {
        let color = if relative < 6 { Color::White } else { Color::Black };
        let attacker = Piece { color, kind: PieceKind::ALL[relative % 6] };
        let slider = matches!(attacker.kind, PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen);
        for (from, to) in (0..64).flat_map(|from| (0..64).map(move |to| (from, to))) {
            let (from, to) = (Square::new(from).expect("a square"), Square::new(to).expect("a square"));
            let key = if slider {
                let step = |a: u8, b: u8| usize::from(b > a) + usize::from(b >= a);
                64 + 3 * step(from.file(), to.file()) + step(from.rank(), to.rank())
            } else {
                to.index()
            };
            for attacked in (0..12)
                .map(|t| Piece { color: if t < 6 { Color::White } else { Color::Black }, kind: PieceKind::ALL[t % 6] })
            {
                if let Some(feature) =
                    FullThreats::<TARGETS>::index(Color::White, a1, Threat { attacker, from, attacked, to })
                {
                    debug_assert_eq!(FullThreats::<TARGETS>::attacker(feature), (relative, from.index()));
                    keyed[relative * 64 + from.index()][key].push(feature);
                }
            }
        }
    }
    keyed.into_iter().map(|keys| keys.into_iter().filter(|f| !f.is_empty()).collect()).collect()
}

/// A piece that may stand on a square: its piece-square feature, its
/// attacker group, whether it is the perspective's, whether a queen.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Candidate {
    row: Option<usize>,
    group: usize,
    /// A pawn's place among the pair holders ([`pair_tops`]).
    pawn: Option<usize>,
    own: bool,
    queen: bool,
}

/// Most queens a side has: its own and 8 promoted pawns.
const MAX_QUEENS: usize = 9;

/// The largest sum of at most `n` values, at most [`MAX_QUEENS`] of them
/// from `queens` and the rest from `others`, each taken once and only when
/// positive (reorders both; `others` has room for the queens after its
/// first `count` values). The best such sum takes the largest queens it
/// takes, so it is the `n` largest of the [`MAX_QUEENS`] largest queens and
/// the others together.
fn side_sum(queens: &mut [i64], others: &mut [i64], count: usize, n: usize) -> i64 {
    let taken = MAX_QUEENS.min(queens.len());
    if taken < queens.len() {
        queens.select_nth_unstable_by(taken, |a, b| b.cmp(a));
    }
    others[count..][..taken].copy_from_slice(&queens[..taken]);
    top_positive_sum(&mut others[..count + taken], n)
}

/// Per column of `values` (`width` per feature row): into `high`, the sum
/// over `slots` of each slot's largest value, when positive; into `low`, the
/// magnitude of the sum of each slot's smallest, when negative. A slot's
/// extremes are kept in i32 (the values are), which the compiler vectorises.
fn slot_sums<W: Copy + Into<i32>>(values: &[W], width: usize, slots: &[Vec<usize>], high: &mut [i64], low: &mut [i64]) {
    let (mut max, mut min) = (vec![0i32; width], vec![0i32; width]);
    for features in slots {
        max.fill(0);
        min.fill(0);
        for &f in features {
            for ((hi, lo), &v) in max.iter_mut().zip(min.iter_mut()).zip(&values[f * width..][..width]) {
                let v: i32 = v.into();
                *hi = (*hi).max(v);
                *lo = (*lo).min(v);
            }
        }
        for (((h, l), &hi), &lo) in high.iter_mut().zip(low.iter_mut()).zip(&max).zip(&min) {
            *h += i64::from(hi);
            *l -= i64::from(lo);
        }
    }
}

/// Per attacker group (`relative * 64 + square`) and column of `values`
/// (`width` per feature row): the sum over the group's slots of each slot's
/// largest positive value, and the magnitude of the sum of each slot's most
/// negative one. Held by blocks of `VIEW_BLOCK` columns (the last padded
/// with zeros), each block's groups together: `block_bound` reads one
/// block of every group at a time.
pub struct GroupTops {
    pub width: usize,
    groups: usize,
    high: Vec<i64>,
    low: Vec<i64>,
}

impl GroupTops {
    pub fn new<const TARGETS: u64, W: Copy + Into<i32>>(values: &[W], width: usize) -> GroupTops {
        GroupTops::with_slots::<TARGETS, W>(values, width, &slots::<TARGETS>())
    }

    /// [`Self::new`] with the slots of [`slots`] already built, for
    /// callers bounding several tables of the same set.
    fn with_slots<const TARGETS: u64, W: Copy + Into<i32>>(
        values: &[W],
        width: usize,
        slots: &[Vec<Vec<usize>>],
    ) -> GroupTops {
        assert_eq!(values.len(), FullThreats::<TARGETS>::DIMENSIONS * width, "one row per FullThreats feature");
        assert_eq!(slots.len(), GROUPS, "one slot list per attacker group");
        debug_assert!(
            slots
                .iter()
                .enumerate()
                .all(|(group, slots)| slots.len() <= FullThreats::<TARGETS>::max_attacked(group / 64))
        );
        GroupTops::of_slots(values, width, slots)
    }

    /// Per group of `slots` (its slots, each with its features), the sums
    /// of [`slot_sums`].
    fn of_slots<W: Copy + Into<i32>>(values: &[W], width: usize, slots: &[Vec<Vec<usize>>]) -> GroupTops {
        let groups = slots.len();
        let blocks = width.div_ceil(VIEW_BLOCK);
        let mut tops = GroupTops {
            width,
            groups,
            high: vec![0; blocks * groups * VIEW_BLOCK],
            low: vec![0; blocks * groups * VIEW_BLOCK],
        };
        let (mut high, mut low) = (vec![0i64; width], vec![0i64; width]);
        for (group, slots) in slots.iter().enumerate() {
            high.fill(0);
            low.fill(0);
            slot_sums(values, width, slots, &mut high, &mut low);
            for (block, (h, l)) in high.chunks(VIEW_BLOCK).zip(low.chunks(VIEW_BLOCK)).enumerate() {
                let at = (block * groups + group) * VIEW_BLOCK;
                tops.high[at..][..h.len()].copy_from_slice(h);
                tops.low[at..][..l.len()].copy_from_slice(l);
            }
        }
        tops
    }

    /// The block of `block` of `group` in `table` (`self.high` or
    /// `self.low`).
    fn block<'a>(&self, table: &'a [i64], group: usize, block: usize) -> &'a [i64; VIEW_BLOCK] {
        table[(block * self.groups + group) * VIEW_BLOCK..][..VIEW_BLOCK]
            .try_into()
            .expect("a block is VIEW_BLOCK columns")
    }

    /// The high and low sums of `group` in `column`.
    fn at(&self, group: usize, column: usize) -> (i64, i64) {
        let (block, j) = (column / VIEW_BLOCK, column % VIEW_BLOCK);
        (self.block(&self.high, group, block)[j], self.block(&self.low, group, block)[j])
    }

    /// Per column, the range of the set's part alone: 32 squares, each with
    /// its best attacker.
    pub fn ranges(&self) -> Vec<Interval> {
        (0..self.width)
            .map(|column| {
                let best = |side: fn((i64, i64)) -> i64| -> i64 {
                    let mut per_square: Vec<i64> = (0..64)
                        .map(|s| (0..12).map(|r| side(self.at(r * 64 + s, column))).max().unwrap_or(0))
                        .collect();
                    top_positive_sum(&mut per_square, MAX_PIECES)
                };
                Interval::new(-best(|(_, low)| low), best(|(high, _)| high))
            })
            .collect()
    }
}

/// The bound of the FullThreats rows `weights` (`lanes` per feature) and
/// `psqt_weights` (`buckets` per feature). Records the set's own part, held
/// in i16 by Stockfish (its threat accumulator, without biases), as
/// `<name> accumulator`.
pub fn prove<const TARGETS: u64, W: Copy + Into<i32>>(
    proof: &mut OverflowProof,
    name: &str,
    weights: &[W],
    lanes: usize,
    psqt_weights: &[i32],
    buckets: usize,
) -> SetBound {
    let slots = slots::<TARGETS>();
    let lane_ranges = GroupTops::with_slots::<TARGETS, W>(weights, lanes, &slots).ranges();
    proof.record_lanes(&format!("{name} accumulator"), Int::I16, &lane_ranges, |lane| {
        format!("lane {lane}, at most one attacker per square, 32 pieces")
    });
    let psqt = if buckets == 0 {
        Vec::new()
    } else {
        GroupTops::with_slots::<TARGETS, i32>(psqt_weights, buckets, &slots).ranges()
    };
    SetBound { lanes: lane_ranges, psqt }
}

/// One view's candidates per other square and its own king's piece-square
/// feature and threat group, as [`views_bound`] reads them.
type ViewCandidates = (Vec<Vec<Candidate>>, (Option<usize>, usize));

/// Columns of one view bounded together: their values of a feature row are
/// contiguous (a cache line of i16 weights), where a column at a time reads
/// one value per row.
const VIEW_BLOCK: usize = 32;

/// How many squares ahead [`block_bound`] asks for the rows it will read.
const PREFETCH_SQUARES: usize = 2;

/// Per view (a perspective and a king square) of [`prove_joint`] and
/// column, the range: each view's candidates per other square and its own
/// king's piece-square feature and threat group; `rows` are the
/// piece-square weights (`tops.width` per feature), `tops` the threat
/// groups' sums, `pairs` the pawn pairs' sums by holder ([`pair_tops`]),
/// `base(column)` the bias. Blocks of columns are shared out among the
/// threads, each bounding its block in every view in turn: a block's
/// threat sums are read by every view.
fn views_bound<W: Copy + Into<i64> + Sync>(
    views: &[&ViewCandidates],
    rows: &[W],
    tops: &GroupTops,
    pairs: Option<&GroupTops>,
    base: impl Fn(usize) -> i64 + Sync,
) -> Vec<Vec<Interval>> {
    let blocks: Vec<usize> = (0..tops.width.div_ceil(VIEW_BLOCK)).collect();
    let by_block = super::map_parallel(&blocks, |&block| {
        let mut scratch = BlockScratch::default();
        views.iter().map(|&view| block_bound(view, block, rows, tops, pairs, &base, &mut scratch)).collect::<Vec<_>>()
    });
    let mut ranges = vec![Vec::with_capacity(tops.width); views.len()];
    for block in by_block {
        for (ranges, block) in ranges.iter_mut().zip(block) {
            ranges.extend(block);
        }
    }
    ranges
}

/// Per other square and block column: the best piece (with its threats)
/// of each side, queens and others apart: own queens, own others, their
/// queens, their others; from above (`hi`) and below (`lo`).
#[derive(Default)]
struct BlockScratch {
    hi: Vec<[[i64; VIEW_BLOCK]; 4]>,
    lo: Vec<[[i64; VIEW_BLOCK]; 4]>,
}

/// The ranges of the columns of `block` in one view ([`views_bound`]).
fn block_bound<W: Copy + Into<i64>>(
    (squares, (own_row, own_group)): &ViewCandidates,
    block: usize,
    rows: &[W],
    tops: &GroupTops,
    pairs: Option<&GroupTops>,
    base: impl Fn(usize) -> i64,
    BlockScratch { hi, lo }: &mut BlockScratch,
) -> Vec<Interval> {
    let width = tops.width;
    let start = block * VIEW_BLOCK;
    let n = VIEW_BLOCK.min(width - start);
    hi.resize(squares.len(), [[0; VIEW_BLOCK]; 4]);
    lo.resize(squares.len(), [[0; VIEW_BLOCK]; 4]);
    // The rows' blocks are far apart in a large table: each square's are
    // asked for two squares ahead.
    let prefetch = |pieces: &[Candidate]| {
        for f in pieces.iter().filter_map(|c| c.row) {
            let block = &rows[f * width + start..][..n];
            crate::simd::prefetch(block.as_ptr());
            crate::simd::prefetch(&block[n - 1]);
        }
    };
    squares.iter().take(PREFETCH_SQUARES).for_each(|pieces| prefetch(pieces));
    for (i, (pieces, (h, l))) in squares.iter().zip(hi.iter_mut().zip(lo.iter_mut())).enumerate() {
        if let Some(ahead) = squares.get(i + PREFETCH_SQUARES) {
            prefetch(ahead);
        }
        *h = [[0; VIEW_BLOCK]; 4];
        *l = [[0; VIEW_BLOCK]; 4];
        for &Candidate { row: f, group: g, pawn, own, queen } in pieces {
            let slot = 2 * usize::from(!own) + usize::from(!queen);
            // The candidate's own values: its row, its threats' and its
            // pawn pairs' sums.
            let mut up = [0i64; VIEW_BLOCK];
            let mut down = [0i64; VIEW_BLOCK];
            if let Some(f) = f {
                for ((u, d), &w) in up.iter_mut().zip(down.iter_mut()).zip(&rows[f * width + start..][..n]) {
                    *u = w.into();
                    *d = -*u;
                }
            }
            let mut add = |t: &GroupTops, group: usize| {
                let (th, tl) = (t.block(&t.high, group, block), t.block(&t.low, group, block));
                for (((u, d), &th), &tl) in up.iter_mut().zip(down.iter_mut()).zip(th).zip(tl) {
                    *u += th;
                    *d += tl;
                }
            };
            add(tops, g);
            if let Some((p, pairs)) = pawn.zip(pairs) {
                add(pairs, p);
            }
            for (((h, l), &u), &d) in h[slot].iter_mut().zip(l[slot].iter_mut()).zip(&up).zip(&down) {
                *h = (*h).max(u);
                *l = (*l).max(d);
            }
        }
    }
    (0..n)
        .map(|j| {
            let column = start + j;
            let base = base(column) + own_row.map_or(0, |f| rows[f * width + column].into());
            // At most 31 other pieces; or per side at most 15 (own, besides
            // the king) or 16 (the opponent's), of which at most 9 queens:
            // the smaller bound (the second drops that pieces stand on
            // different squares).
            let others = |per_square: &[[[i64; VIEW_BLOCK]; 4]]| -> i64 {
                // Per square: the best piece of either side; own queens,
                // own others, their queens, their others (with room for
                // the queens [`side_sum`] adds).
                let mut best = [0i64; 64];
                let mut sides = [[0i64; 64 + MAX_QUEENS]; 4];
                for (s, v) in per_square.iter().enumerate() {
                    for (side, slot) in sides.iter_mut().zip(v) {
                        side[s] = slot[j];
                    }
                    best[s] = v.iter().map(|slot| slot[j]).max().unwrap_or(0);
                }
                let m = per_square.len();
                let all = top_positive_sum(&mut best[..m], MAX_PIECES - 1);
                let [own_queens, own_others, their_queens, their_others] = &mut sides;
                let sides = side_sum(&mut own_queens[..m], own_others, m, MAX_PIECES / 2 - 1)
                    + side_sum(&mut their_queens[..m], their_others, m, MAX_PIECES / 2);
                all.min(sides)
            };
            let (own_high, own_low) = tops.at(*own_group, column);
            Interval::new(base - own_low - others(lo), base + own_high + others(hi))
        })
        .collect()
}

/// PP_3Wide's rows `weights` (`width` per feature) as [`GroupTops`] by
/// holder: each pair is held by its pawn on the lower oriented square, and
/// a pawn of relative colour `c` (0 own, 1 the opponent's) on oriented
/// square `s`, holder `c * 64 + s`, has one slot per partner square (a
/// higher square on its file or an adjacent one, ranks 2 to 7), holding
/// either colour's pawn.
fn pair_tops<P: Copy + Into<i32>>(weights: &[P], width: usize) -> GroupTops {
    let a1 = Square::new(0).expect("a1 is a square");
    let rank = |s: Square| (1..7).contains(&s.rank());
    let colors = [Color::White, Color::Black];
    let mut slots: Vec<Vec<Vec<usize>>> = vec![Vec::new(); 128];
    for (c, color) in colors.into_iter().enumerate() {
        for from in (0..64).filter_map(Square::new).filter(|&s| rank(s)) {
            slots[c * 64 + from.index()] = (from.index() + 1..64)
                .filter_map(|t| Square::new(t as u8))
                .filter(|&to| rank(to) && to.file().abs_diff(from.file()) <= 1)
                .map(|to| {
                    colors.iter().map(|&other| PawnPairs::index(Color::White, a1, (color, from), (other, to))).collect()
                })
                .collect();
        }
    }
    GroupTops::of_slots(weights, width, &slots)
}

/// The bounds of an accumulator summing a per-piece set (`index`, with its
/// biases, weights and PSQT weights in `params`) and FullThreats
/// (`threat_weights`, `threat_psqt_weights`), maybe PP_3Wide (`pairs`: its
/// weights and its rows' bound), plus `others` bounded separately, over
/// every position of at most 32 pieces: the pieces are shared. For each
/// perspective and king square, each other square holds no piece or one of
/// the pieces that may stand there; that piece adds its piece-square row
/// and at most one threat row of each of its slots. So a lane is at most the
/// biases, plus the own king's row and best threats, plus the 31 largest
/// positive per-square maxima of (row + best threats), and at most the 15
/// largest of the own side's maxima plus the 16 largest of the opponent's
/// (16 pieces a side), of which at most 9 queens a side (a queen and 8
/// promotions); likewise below. Pawn pairs come with their pawns: a pawn
/// adds, per partner square, its best pair row (`pair_tops`). Where that
/// leaves i16, [`super::pairwise`] bounds the lane in that view again with
/// each feature's second piece priced; where that still leaves it, the
/// pawn pairs' rows (their `MAX_ACTIVE` largest) stand in for their pawns'
/// share (both bounds hold). Records
/// `transformer accumulator` (i16), `transformer PSQT` (i32) and
/// FullThreats' own part (`FullThreats accumulator`, i16, as [`prove`]);
/// returns each PSQT bucket's range.
#[allow(clippy::too_many_arguments)]
pub fn prove_joint<
    const TARGETS: u64,
    W: Copy + Into<i64> + Bounded + Sync,
    T: Copy + Into<i32> + Sync,
    P: Copy + Into<i32> + Sync,
>(
    proof: &mut OverflowProof,
    index: IndexFn,
    params: &TransformerParams<'_, W>,
    threat_weights: &[T],
    threat_psqt_weights: &[i32],
    pairs: Option<(&[P], &SetBound)>,
    others: &[SetBound],
) -> Vec<Interval> {
    let lanes = params.biases.len();
    let buckets = params.psqt_buckets;
    let slots = slots::<TARGETS>();
    let lane_tops = GroupTops::with_slots::<TARGETS, T>(threat_weights, lanes, &slots);
    let psqt_tops = GroupTops::with_slots::<TARGETS, i32>(threat_psqt_weights, buckets, &slots);
    let own_part = lane_tops.ranges();
    proof.record_lanes("FullThreats accumulator", Int::I16, &own_part, |lane| {
        format!("lane {lane}, at most one attacker per square, 32 pieces")
    });
    // The lanes' pawn pairs come with their pawns; the PSQT values' (i32,
    // far from overflowing) are bounded by their rows.
    let pair_lane_tops = pairs.map(|(weights, _)| pair_tops(weights, lanes));
    let extra = |ranges: fn(&SetBound) -> &[Interval], i: usize| {
        others.iter().fold(Interval::point(0), |sum, set| sum + ranges(set)[i])
    };
    let pair_bound =
        |ranges: fn(&SetBound) -> &[Interval], i: usize| pairs.map_or(Interval::point(0), |(_, set)| ranges(set)[i]);
    // Views' lane ranges, with or without the pawns' pairs.
    let lane_bound = |views: &[&ViewCandidates], pairs| {
        views_bound(views, params.weights, &lane_tops, pairs, |lane| i64::from(params.biases[lane]))
    };
    // The views (a perspective and its king's square) with distinct
    // candidates: mirrored or flipped king squares have the same bounds.
    let mut seen = std::collections::HashSet::new();
    let mut distinct: Vec<(Color, Square, ViewCandidates)> = Vec::new();
    for perspective in [Color::White, Color::Black] {
        for king in (0..64).filter_map(Square::new) {
            let orientation = FullThreats::<TARGETS>::orientation(perspective, king);
            // Per other square: its pieces' piece-square rows and threat groups.
            let own_king = Piece { color: perspective, kind: PieceKind::King };
            let group = |square: Square, piece: Piece| {
                FullThreats::<TARGETS>::relative_piece(perspective, piece) * 64 + square.xor(orientation).index()
            };
            let own = (index(perspective, king, king, own_king), group(king, own_king));
            let squares: Vec<Vec<Candidate>> = (0..64)
                .filter_map(Square::new)
                .filter(|&s| s != king)
                .map(|s| {
                    pieces_allowed(perspective, s)
                        .map(|p| Candidate {
                            row: index(perspective, king, s, p),
                            group: group(s, p),
                            pawn: (pairs.is_some() && p.kind == PieceKind::Pawn)
                                .then(|| 64 * usize::from(p.color != perspective) + s.xor(orientation).index()),
                            own: p.color == perspective,
                            queen: p.kind == PieceKind::Queen,
                        })
                        .collect()
                })
                .collect();
            let mut key: Vec<Vec<Candidate>> = squares.clone();
            key.iter_mut().for_each(|pieces| pieces.sort_unstable());
            key.sort_unstable();
            if seen.insert((own, key)) {
                distinct.push((perspective, king, (squares, own)));
            }
        }
    }
    // Each view's lane and PSQT ranges (recorded in view order, so the
    // proof is the same however many threads ran).
    let all: Vec<&ViewCandidates> = distinct.iter().map(|(.., view)| view).collect();
    let lane_ranges = lane_bound(&all, pair_lane_tops.as_ref());
    let psqt_ranges = views_bound(&all, params.psqt_weights, &psqt_tops, None, |_| 0);
    let bounds = lane_ranges.into_iter().zip(psqt_ranges).map(|(lane_ranges, psqt_ranges)| {
        let lane_ranges = lane_ranges
            .into_iter()
            .enumerate()
            .map(|(lane, range)| range + extra(|s| &s.lanes, lane))
            .collect::<Vec<_>>();
        let psqt_ranges = psqt_ranges
            .into_iter()
            .enumerate()
            .map(|(bucket, range)| range + extra(|s| &s.psqt, bucket) + pair_bound(|s| &s.psqt, bucket))
            .collect::<Vec<_>>();
        (lane_ranges, psqt_ranges)
    });
    let mut psqt = vec![None::<Interval>; buckets];
    let mut views: Vec<(Color, Square, Vec<Interval>)> = Vec::new();
    let mut candidates: Vec<ViewCandidates> = Vec::new();
    for ((perspective, king, view), (lane_ranges, psqt_ranges)) in distinct.into_iter().zip(bounds) {
        for (bucket, &range) in psqt_ranges.iter().enumerate() {
            psqt[bucket] = Some(psqt[bucket].map_or(range, |t: Interval| t.union(range)));
            proof.record(PSQT, Int::I32, range, || {
                format!("bucket {bucket}, {perspective:?} king on {}", square_name(king))
            });
        }
        views.push((perspective, king, lane_ranges));
        candidates.push(view);
    }
    let rounds = tighten::<TARGETS, W, T, P>(
        index,
        params,
        threat_weights,
        pairs.map(|(w, _)| w),
        &|lane| extra(|s| &s.lanes, lane),
        &mut views,
    );
    // Where a lane still leaves i16, the pawn pairs' rows may bound it
    // better than their pawns (many pawns, each with many partners): both
    // bounds hold, so does the intersection.
    let leaves = |r: &Interval| !Int::I16.fits(*r);
    let again: Vec<usize> = (0..views.len()).filter(|&v| pairs.is_some() && views[v].2.iter().any(leaves)).collect();
    let by_rows = lane_bound(&again.iter().map(|&v| &candidates[v]).collect::<Vec<_>>(), None);
    for (v, ranges) in again.into_iter().zip(by_rows) {
        for (lane, (r, range)) in views[v].2.iter_mut().zip(ranges).enumerate() {
            let rows = range + extra(|s| &s.lanes, lane) + pair_bound(|s| &s.lanes, lane);
            *r = Interval::new(r.min.max(rows.min), r.max.min(rows.max));
        }
    }
    for ((perspective, king, lane_ranges), rounds) in views.iter().zip(rounds) {
        proof.record_lanes(ACCUMULATOR, Int::I16, lane_ranges, |lane| match rounds[lane] {
            0 => format!("lane {lane}, {perspective:?} king on {}", square_name(*king)),
            r => format!("lane {lane}, {perspective:?} king on {}, partners priced ({r} rounds)", square_name(*king)),
        });
    }
    psqt.into_iter().map(|r| r.expect("every bucket is bounded in every view")).collect()
}

/// Most rounds of [`super::pairwise`] for one lane, view and side.
const PRICE_ROUNDS: usize = 64;
/// Most rounds of [`super::pairwise`] in one proof: a net whose lanes leave
/// i16 everywhere is not refined for long.
const PRICE_BUDGET: usize = 1 << 14;

/// Bounds again, with [`super::pairwise`], every lane of `views` (each a
/// perspective, its king's square and its lane ranges) whose range leaves
/// i16, lane by lane (a lane's weights are read once), and narrows the
/// range where that is tighter; `others(lane)` is the range of the sets
/// bounded apart. Returns, per view and lane, the rounds it took (0: not
/// refined).
fn tighten<const TARGETS: u64, W: Copy + Into<i64> + Bounded, T: Copy + Into<i32>, P: Copy + Into<i32>>(
    index: IndexFn,
    params: &TransformerParams<'_, W>,
    threat_weights: &[T],
    pair_weights: Option<&[P]>,
    others: &dyn Fn(usize) -> Interval,
    views: &mut [(Color, Square, Vec<Interval>)],
) -> Vec<Vec<usize>> {
    use super::pairwise::{Column, JointView};
    let lanes = params.biases.len();
    let mut rounds = vec![vec![0; lanes]; views.len()];
    let mut joint: Vec<Option<JointView>> = views.iter().map(|_| None).collect();
    let mut budget = PRICE_BUDGET;
    let (i16_min, i16_max) = (i64::from(i16::MIN), i64::from(i16::MAX));
    let wanted: Vec<usize> =
        (0..lanes).filter(|&lane| views.iter().any(|(.., ranges)| !Int::I16.fits(ranges[lane]))).collect();
    // Lanes whose weights share cache lines are read together.
    for block in wanted.chunk_by(|a, b| a / 32 == b / 32) {
        if budget == 0 {
            break;
        }
        let columns = Column::lanes(block, lanes, params.weights, threat_weights, pair_weights.unwrap_or(&[]));
        for (&lane, column) in block.iter().zip(&columns) {
            for sign in [1i64, -1] {
                let leaves = |r: &Interval| if sign > 0 { r.max > i16_max } else { r.min < i16_min };
                if budget == 0 || !views.iter().any(|(.., ranges)| leaves(&ranges[lane])) {
                    continue;
                }
                let negated;
                let column = if sign > 0 {
                    column
                } else {
                    negated = column.negated();
                    &negated
                };
                let rest = others(lane);
                let bias = sign * i64::from(params.biases[lane]);
                // The most `sign * lane` may be apart from the other sets.
                let limit = if sign > 0 { i16_max - rest.max } else { rest.min - i16_min };
                for (v, (perspective, king, ranges)) in views.iter_mut().enumerate() {
                    if budget == 0 || !leaves(&ranges[lane]) {
                        continue;
                    }
                    let view = joint[v].get_or_insert_with(|| {
                        JointView::new::<TARGETS>(index, *perspective, *king, pair_weights.is_some())
                    });
                    let (bound, taken) = view.bound(column, bias, limit, PRICE_ROUNDS.min(budget));
                    budget -= taken;
                    let r = &mut ranges[lane];
                    if sign > 0 && bound + rest.max < r.max {
                        r.max = bound + rest.max;
                    } else if sign < 0 && rest.min - bound > r.min {
                        r.min = rest.min - bound;
                    }
                    rounds[v][lane] += taken;
                }
            }
        }
    }
    rounds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::STOCKFISH_18_TARGETS;

    type Sf18 = FullThreats<STOCKFISH_18_TARGETS>;

    #[test]
    fn slots_are_target_squares_or_rays() {
        let slots = slots::<STOCKFISH_18_TARGETS>();
        // (relative attacker, oriented square): own queen d4, own knight b1,
        // own rook a1, own pawn e2, their bishop h8.
        for ((relative, square), count) in [((4, 27), 8), ((1, 1), 3), ((3, 0), 2), ((0, 12), 2), ((8, 63), 1)] {
            assert_eq!(slots[relative * 64 + square].len(), count, "attacker {relative} on {square}");
        }
        let mut seen = vec![false; Sf18::DIMENSIONS];
        for (group, slots) in slots.iter().enumerate() {
            for features in slots {
                for &f in features {
                    assert!(!std::mem::replace(&mut seen[f], true), "feature {f} in two slots");
                    assert_eq!(Sf18::attacker(f), (group / 64, group % 64));
                }
            }
        }
        // What no slot holds is the lower half of same-kind pairs: a queen
        // on d4 attacking a queen on e5 is the feature of the queen on e5.
        let (d4, e5) = (Square::new(27).unwrap(), Square::new(36).unwrap());
        let queen = Piece { color: Color::White, kind: PieceKind::Queen };
        let a1 = Square::new(0).unwrap();
        assert_eq!(Sf18::index(Color::White, a1, Threat { attacker: queen, from: d4, attacked: queen, to: e5 }), None);
        let upper =
            Sf18::index(Color::White, a1, Threat { attacker: queen, from: e5, attacked: queen, to: d4 }).unwrap();
        assert!(seen[upper]);
    }

    #[test]
    fn side_sum_is_the_best_choice_of_at_most_nine_queens() {
        // Every split of `n` between the largest queens (at most 9) and the
        // largest others, positives only, against side_sum's merge.
        let by_split = |queens: &[i64], others: &[i64], n: usize| -> i64 {
            let top = |v: &[i64], k: usize| {
                let mut v = v.to_vec();
                v.sort_unstable_by(|a, b| b.cmp(a));
                v.iter().take(k).filter(|&&x| x > 0).sum::<i64>()
            };
            (0..=n.min(MAX_QUEENS)).map(|k| top(queens, k) + top(others, n - k)).max().unwrap_or(0)
        };
        let mut rng = crate::Rng::new(0x9e37_79b9_7f4a_7c15u64);
        let mut next = |m: i64| rng.range(-m, m);
        for case in 0..2000 {
            let len = case % 40;
            let n = case % 17;
            let queens: Vec<i64> = (0..len).map(|_| next(50)).collect();
            let mut others = vec![0i64; len + MAX_QUEENS];
            others[..len].iter_mut().for_each(|v| *v = next(50));
            let expected = by_split(&queens, &others[..len], n);
            assert_eq!(side_sum(&mut queens.clone(), &mut others, len, n), expected, "case {case}");
        }
    }

    #[test]
    fn one_attacker_per_square_and_its_largest_attacks() {
        // Column 0: every weight 1 -> 32 squares x 8 attacks at most (no
        // square's best attacker has more than 8 features).
        // Column 1: weight 100 on every feature of own knights on b1 only:
        // one knight, one attacked piece on each square it reaches; every
        // other -1, so the low end is 32 squares x 8 x -1.
        let (b1_knight, b1) = (1, 1);
        let values: Vec<i16> = (0..Sf18::DIMENSIONS)
            .flat_map(|f| [1, if Sf18::attacker(f) == (b1_knight, b1) { 100 } else { -1 }])
            .collect();
        let ranges = GroupTops::new::<STOCKFISH_18_TARGETS, i16>(&values, 2).ranges();
        assert_eq!(ranges[0], Interval::new(0, 32 * 8));
        // A knight on b1 reaches a3, c3 and d2: 3 squares, each with
        // features for several kinds and colours of targets; one counts.
        assert_eq!(ranges[1], Interval::new(-32 * 8, 3 * 100));
    }

    /// One lane; piece-square weights of HalfKAv2_hm `psq`, threat weights
    /// `threat(relative attacker)`: the joint bound of the lane.
    fn joint(psq: i16, threat: impl Fn(usize) -> i8) -> Interval {
        use crate::features::{FeatureSet, HalfKAv2Hm};
        let weights = vec![psq; HalfKAv2Hm::DIMENSIONS];
        let params = TransformerParams { biases: &[0], weights: &weights, psqt_weights: &[], psqt_buckets: 0 };
        let threats: Vec<i8> = (0..Sf18::DIMENSIONS).map(|f| threat(Sf18::attacker(f).0)).collect();
        let mut proof = OverflowProof::default();
        prove_joint::<STOCKFISH_18_TARGETS, i16, i8, i8>(
            &mut proof,
            HalfKAv2Hm::index,
            &params,
            &threats,
            &[],
            None,
            &[],
        );
        proof.bounds().iter().find(|b| b.value == ACCUMULATOR).expect("the accumulator is bounded").range
    }

    /// One lane with every PP_3Wide row `pair` and every piece-square row
    /// `psq` (threat rows 0): the joint bound of the lane.
    fn joint_with_pairs(psq: i16, pair: i8) -> Interval {
        use crate::features::{FeatureSet, HalfKAv2Hm};
        let weights = vec![psq; HalfKAv2Hm::DIMENSIONS];
        let params = TransformerParams { biases: &[0], weights: &weights, psqt_weights: &[], psqt_buckets: 0 };
        let threats = vec![0i8; Sf18::DIMENSIONS];
        let pairs = vec![pair; PawnPairs::DIMENSIONS];
        let mut proof = OverflowProof::default();
        let rows = super::super::rows::prove(&mut proof, "PP_3Wide", &pairs, 1, &[], 0, PawnPairs::MAX_ACTIVE);
        prove_joint::<STOCKFISH_18_TARGETS, i16, i8, i8>(
            &mut proof,
            HalfKAv2Hm::index,
            &params,
            &threats,
            &[],
            Some((&pairs, &rows)),
            &[],
        );
        proof.bounds().iter().find(|b| b.value == ACCUMULATOR).expect("the accumulator is bounded").range
    }

    #[test]
    fn pawn_pairs_come_with_their_pawns() {
        // Piece rows of -100 and pair rows of 1: a pawn's pairs (held by
        // the lower pawn, 16 partner squares at most) never pay for it, so
        // only the own king counts, where the pairs' rows alone would add
        // 120.
        assert_eq!(joint_with_pairs(-100, 1).max, -100);
        // Piece rows of 300 and pair rows of 127: by their pawns, 31
        // squares with up to 16 partners each leave i16, priced or not; the
        // pairs' rows (120 features) keep it in: 32 pieces and 120 pairs.
        assert_eq!(joint_with_pairs(300, 127), Interval::new(300, 32 * 300 + 120 * 127));
    }

    #[test]
    fn joint_bound_counts_each_piece_once_with_its_attacks() {
        // Every threat row 1: 32 pieces with 8 attacks each.
        assert_eq!(joint(0, |_| 1), Interval::new(0, 256));
        // A piece-square row of 2 comes with the piece: up to 32 pieces,
        // at least the own king.
        assert_eq!(joint(2, |_| 1), Interval::new(2, 256 + 64));
        // Only queens' threats count: at most 9 queens a side.
        let queens = |relative: usize| i8::from(relative % 6 == PieceKind::Queen as usize);
        assert_eq!(joint(0, queens), Interval::new(0, 2 * 9 * 8));
        // Negative rows: the same below.
        assert_eq!(joint(0, |r| -queens(r)), Interval::new(-2 * 9 * 8, 0));
    }
}
