//! A tighter bound on one accumulator lane in one king view, for the lanes
//! where [`super::threats::prove_joint`]'s square-by-square bound leaves
//! i16.
//!
//! A threat feature needs two pieces, its attacker and the piece attacked;
//! so does a pawn pair. The square-by-square bound lets every attacker's
//! slots take their best target, whatever stands on the target's square:
//! the same square may be a knight to one attacker, a rook to another and
//! empty for its own part. Here each feature is held by one of its pieces
//! (a threat by its attacker, a pawn pair by the pawn on the lower square)
//! and its other piece, its *partner*, is priced. For any prices
//! `price(s, t, q, set) >= 0` (the holder on `s`, the partner `q` on `t`):
//!
//! ```text
//! lane <= base + sum over occupied squares s of
//!           row(s, p_s) + sum over a and set of price(a, s, p_s, set)
//!           + sum over the slots of p_s on s of max(0, max over its features e of (w_e - price(s, t_e, q_e, set_e)))
//! ```
//!
//! (one price per holder, partner and feature set) because a holder has at
//! most one active feature of a set with a given partner (one piece per
//! square), at most one per slot (a target square, a ray, a partner
//! square), and every partner stands on the board, so the prices of the
//! active features are at most the prices collected by the pieces standing. An
//! empty square adds nothing, so the lane is at most the own king's term
//! plus the 31 largest positive maxima of the other squares' terms. Every
//! choice of prices gives a true bound; prices start at 0 (the
//! square-by-square bound, with pawn pairs held by their pawns) and move by
//! subgradient steps of the Lagrangian dual: a price rises where a slot
//! takes a partner that is not chosen on its square and falls where a piece
//! is chosen as nobody's partner. The smallest bound seen is kept; the
//! rounds stop as soon as it fits.

use super::transformer::{IndexFn, pieces_allowed};
use crate::chess::attacks::{reach, squares};
use crate::chess::position::{Color, Piece, PieceKind, Square};
use crate::features::{FullThreats, PawnPairs, Threat};
use std::ops::Range;

/// Piece codes: `6 * colour + kind`.
const CODES: usize = 12;
/// Features whose partner is the own king (always on its square): no price.
const UNPRICED: u32 = u32::MAX;
/// Most other pieces than the own king.
const OTHERS: usize = 31;
/// The first step of the prices; round `r` steps by `STEP / sqrt(r + 1)`,
/// at least 1.
const STEP: f64 = 40.0;

/// A feature held by a piece: the price of its partner, which set, its row.
#[derive(Clone, Copy)]
struct Entry {
    price: u32,
    pair: bool,
    feature: u32,
}

/// A piece that may stand on a square, with its features.
struct Holder {
    code: usize,
    /// Its piece-square row, if the set has one.
    row: Option<usize>,
    /// Its features (`entries`), by slot: at most one of each is active.
    slots: Vec<Range<usize>>,
}

/// What one perspective with its king on one square can activate, with
/// every two-piece feature held by one piece and priced on the other.
pub struct JointView {
    /// The own king: always on its square.
    own: Holder,
    /// Every other square and the pieces that may stand there.
    squares: Vec<(Square, Vec<Holder>)>,
    entries: Vec<Entry>,
    /// Per square and piece code (`square * 12 + code`): the prices that
    /// piece there collects as a partner.
    collected: Vec<Vec<u32>>,
    prices: usize,
}

/// One lane's weights, or their negation to bound the lane from below: the
/// piece-square rows, the threat rows, the pawn-pair rows (empty without
/// pawn pairs).
pub struct Column {
    pub rows: Vec<i32>,
    pub threats: Vec<i32>,
    pub pairs: Vec<i32>,
}

impl Column {
    /// Columns `wanted` (lane numbers, ascending) of row-major tables of
    /// `lanes` columns. Each row is read once for all of them, so
    /// lanes that share cache lines cost one pass.
    pub fn lanes<W: Copy + Into<i64>, T: Copy + Into<i32>, P: Copy + Into<i32>>(
        wanted: &[usize],
        lanes: usize,
        rows: &[W],
        threats: &[T],
        pairs: &[P],
    ) -> Vec<Column> {
        fn read<V: Copy>(table: &[V], lanes: usize, wanted: &[usize], value: impl Fn(V) -> i32) -> Vec<Vec<i32>> {
            let mut columns = vec![Vec::with_capacity(table.len() / lanes.max(1)); wanted.len()];
            for row in table.chunks_exact(lanes) {
                for (column, &lane) in columns.iter_mut().zip(wanted) {
                    column.push(value(row[lane]));
                }
            }
            columns
        }
        let rows = read(rows, lanes, wanted, |w| Into::<i64>::into(w) as i32);
        let threats = read(threats, lanes, wanted, Into::into);
        let pairs = read(pairs, lanes, wanted, Into::into);
        rows.into_iter()
            .zip(threats)
            .zip(pairs)
            .map(|((rows, threats), pairs)| Column { rows, threats, pairs })
            .collect()
    }

    /// The same column with the other sign.
    pub fn negated(&self) -> Column {
        let minus = |v: &[i32]| v.iter().map(|&w| -w).collect();
        Column { rows: minus(&self.rows), threats: minus(&self.threats), pairs: minus(&self.pairs) }
    }
}

impl JointView {
    /// The view of `perspective` with its king on `king`: piece-square rows
    /// by `index`, threat features of `FullThreats<TARGETS>`, and pawn
    /// pairs if `pairs`.
    pub fn new<const TARGETS: u64>(index: IndexFn, perspective: Color, king: Square, pairs: bool) -> JointView {
        let own_king = Piece { color: perspective, kind: PieceKind::King };
        // A price per holder square, partner square, partner and set: a
        // pawn may both attack a pawn and pair with it (Stockfish 18's
        // targets), two features of one holder with one partner.
        let mut price_of = vec![UNPRICED; 64 * 64 * CODES * 2];
        let mut collected = vec![Vec::new(); 64 * CODES];
        let mut entries = Vec::new();
        let mut prices = 0u32;
        let partners: Vec<Vec<Piece>> =
            (0..64).filter_map(Square::new).map(|s| partners(perspective, king, s)).collect();
        // (slot key, partner square, partner, pair, feature) of one holder:
        // a target square, a ray (64..73) or a partner pawn's square (128..).
        let mut keyed: Vec<(usize, Square, Piece, bool, usize)> = Vec::new();
        let mut holder = |from: Square, piece: Piece, entries: &mut Vec<Entry>| -> Holder {
            keyed.clear();
            // Slot keys come out grouped: a slider's targets ray by ray, the
            // others' in square order, then the pawn partners in square order.
            let slider = matches!(piece.kind, PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen);
            let reached = reach(piece.color, piece.kind, from);
            let step = |a: u8, b: u8| usize::from(b > a) + usize::from(b >= a);
            let ray = |to: Square| 64 + 3 * step(from.file(), to.file()) + step(from.rank(), to.rank());
            for direction in if slider { 64..73 } else { 0..1 } {
                for to in squares(reached).filter(|&to| !slider || ray(to) == direction) {
                    let key = if slider { direction } else { to.index() };
                    for &attacked in &partners[to.index()] {
                        if let Some(f) = FullThreats::<TARGETS>::index(
                            perspective,
                            king,
                            Threat { attacker: piece, from, attacked, to },
                        ) {
                            keyed.push((key, to, attacked, false, f));
                        }
                    }
                }
            }
            let pawn_rank = |s: Square| (1..7).contains(&s.rank());
            if pairs && piece.kind == PieceKind::Pawn && pawn_rank(from) {
                for to in (from.index() + 1..64).filter_map(|t| Square::new(t as u8)) {
                    if to.file().abs_diff(from.file()) <= 1 && pawn_rank(to) {
                        for color in [Color::White, Color::Black] {
                            let f = PawnPairs::index(perspective, king, (piece.color, from), (color, to));
                            keyed.push((128 + to.index(), to, Piece { color, kind: PieceKind::Pawn }, true, f));
                        }
                    }
                }
            }
            let mut slots: Vec<Range<usize>> = Vec::new();
            for (i, &(key, to, partner, pair, feature)) in keyed.iter().enumerate() {
                let price = if partner == own_king {
                    UNPRICED
                } else {
                    let at = &mut price_of
                        [((from.index() * 64 + to.index()) * CODES + partner.code()) * 2 + usize::from(pair)];
                    if *at == UNPRICED {
                        *at = prices;
                        collected[to.index() * CODES + partner.code()].push(prices);
                        prices += 1;
                    }
                    *at
                };
                if i == 0 || keyed[i - 1].0 != key {
                    slots.push(entries.len()..entries.len());
                }
                entries.push(Entry { price, pair, feature: feature as u32 });
                slots.last_mut().expect("a slot was opened").end = entries.len();
            }
            Holder { code: piece.code(), row: index(perspective, king, from, piece), slots }
        };
        let own = holder(king, own_king, &mut entries);
        let squares = (0..64)
            .filter_map(Square::new)
            .filter(|&s| s != king)
            .map(|s| (s, pieces_allowed(perspective, s).map(|p| holder(s, p, &mut entries)).collect()))
            .collect();
        JointView { own, squares, entries, collected, prices: prices as usize }
    }

    /// The smallest bound on the lane of `column` found (from below: on its
    /// negation, with `column` negated), `base` (the bias, likewise signed)
    /// included, in at most `rounds` rounds, stopping once it is at
    /// most `limit`; and the rounds taken.
    pub fn bound(&self, column: &Column, base: i64, limit: i64, rounds: usize) -> (i64, usize) {
        // Prices are never negative, so a feature adds something only if its
        // weight is positive: only those are kept, by holder and slot. The
        // own king's partners are unpriced: the extra last price, always 0.
        let unpriced = self.prices as u32;
        let mut kept: Vec<(u32, i32)> = Vec::new();
        let mut slots: Vec<Range<usize>> = Vec::new();
        let mut keep = |h: &Holder| -> Range<usize> {
            let first = slots.len();
            for slot in &h.slots {
                let start = kept.len();
                for e in &self.entries[slot.clone()] {
                    let w = if e.pair { column.pairs[e.feature as usize] } else { column.threats[e.feature as usize] };
                    if w > 0 {
                        kept.push((if e.price == UNPRICED { unpriced } else { e.price }, w));
                    }
                }
                if kept.len() > start {
                    slots.push(start..kept.len());
                }
            }
            first..slots.len()
        };
        let own_slots = keep(&self.own);
        let holder_slots: Vec<Vec<Range<usize>>> =
            self.squares.iter().map(|(_, holders)| holders.iter().map(&mut keep).collect()).collect();
        let row = |h: &Holder| h.row.map_or(0, |f| column.rows[f]);
        let mut prices = vec![0i32; self.prices + 1];
        // The sum over a holder's slots of each slot's best feature at these
        // prices; each slot's best into `taken`, if given.
        let slot_sum = |prices: &[i32], range: &Range<usize>, mut taken: Option<&mut Vec<u32>>| -> i32 {
            let mut sum = 0;
            for slot in &slots[range.clone()] {
                let (mut top, mut at) = (0, u32::MAX);
                for &(price, w) in &kept[slot.clone()] {
                    let v = w - prices[price as usize];
                    if v > top {
                        (top, at) = (v, price);
                    }
                }
                sum += top;
                if let (Some(taken), true) = (taken.as_deref_mut(), at != u32::MAX) {
                    taken.push(at);
                }
            }
            sum
        };
        let mut best = i64::MAX;
        let mut chosen: Vec<(i32, usize, usize)> = Vec::with_capacity(64);
        let mut taken = Vec::new();
        for round in 0..rounds {
            chosen.clear();
            for (i, (square, holders)) in self.squares.iter().enumerate() {
                let collected = &self.collected[square.index() * CODES..][..CODES];
                let (mut top, mut at) = (0, usize::MAX);
                for (j, h) in holders.iter().enumerate() {
                    let v = row(h)
                        + collected[h.code].iter().map(|&p| prices[p as usize]).sum::<i32>()
                        + slot_sum(&prices, &holder_slots[i][j], None);
                    if v > top {
                        (top, at) = (v, j);
                    }
                }
                if at != usize::MAX {
                    chosen.push((top, i, at));
                }
            }
            if chosen.len() > OTHERS {
                chosen.select_nth_unstable_by(OTHERS - 1, |a, b| b.0.cmp(&a.0));
                chosen.truncate(OTHERS);
            }
            let own = i64::from(row(&self.own) + slot_sum(&prices, &own_slots, None));
            best = best.min(base + own + chosen.iter().map(|c| i64::from(c.0)).sum::<i64>());
            if best <= limit || round + 1 == rounds {
                return (best, round + 1);
            }
            // The subgradient: +1 for each partner a chosen slot takes, -1
            // for each price a chosen piece collects.
            let step = (STEP / ((round + 1) as f64).sqrt()).round().max(1.0) as i32;
            taken.clear();
            slot_sum(&prices, &own_slots, Some(&mut taken));
            for &(_, i, j) in &chosen {
                slot_sum(&prices, &holder_slots[i][j], Some(&mut taken));
            }
            for &(_, i, j) in &chosen {
                let (square, holders) = &self.squares[i];
                for &p in &self.collected[square.index() * CODES + holders[j].code] {
                    prices[p as usize] -= step;
                }
            }
            for &p in &taken {
                prices[p as usize] += step;
            }
            prices[self.prices] = 0;
            prices.iter_mut().for_each(|p| *p = (*p).max(0));
        }
        (best, 0)
    }
}

/// The pieces that may stand on `square` as a partner: the own king on its
/// square, else any piece allowed there.
fn partners(perspective: Color, king: Square, square: Square) -> Vec<Piece> {
    if square == king {
        vec![Piece { color: perspective, kind: PieceKind::King }]
    } else {
        pieces_allowed(perspective, square).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::{BoardFeatures, FeatureSet, HalfKAv2Hm, STOCKFISH_18_TARGETS};

    type Sf18 = FullThreats<STOCKFISH_18_TARGETS>;

    fn square(name: &str) -> Square {
        let b = name.as_bytes();
        Square::from_file_rank(b[0] - b'a', b[1] - b'1').expect("a square")
    }

    const WHITE_KNIGHT: Piece = Piece { color: Color::White, kind: PieceKind::Knight };
    const BLACK_ROOK: Piece = Piece { color: Color::Black, kind: PieceKind::Rook };

    /// White's view with its king on a1: the threat of a knight on g1 on a
    /// rook on f3 has row `threat`, the rook on f3 row `rook`, every other
    /// row 0. The bounds after each number of rounds up to 64.
    fn knight_and_rook(threat: i32, rook: i32) -> Vec<i64> {
        let king = square("a1");
        let view = JointView::new::<STOCKFISH_18_TARGETS>(HalfKAv2Hm::index, Color::White, king, false);
        let mut column =
            Column { rows: vec![0; HalfKAv2Hm::DIMENSIONS], threats: vec![0; Sf18::DIMENSIONS], pairs: Vec::new() };
        let threat_row = Sf18::index(
            Color::White,
            king,
            Threat { attacker: WHITE_KNIGHT, from: square("g1"), attacked: BLACK_ROOK, to: square("f3") },
        );
        column.threats[threat_row.expect("a knight attacks a rook")] = threat;
        column.rows[HalfKAv2Hm::index(Color::White, king, square("f3"), BLACK_ROOK).expect("a row")] = rook;
        (1..=64).map(|rounds| view.bound(&column, 0, i64::MIN, rounds).0).collect()
    }

    #[test]
    fn an_attack_on_a_piece_that_does_not_pay_is_priced_out() {
        // Square by square, the knight's slot takes the rook (100), and f3
        // stays empty; the rook costs 1000, so the most is 0 (no piece).
        let bounds = knight_and_rook(100, -1000);
        assert_eq!(bounds[0], 100);
        assert_eq!(*bounds.last().unwrap(), 0);
    }

    #[test]
    fn a_priced_bound_never_drops_below_a_position() {
        // Knight and rook together: 100 - 50 = 50, a real position (kings
        // aside); every round's bound is at least that, and the last is it.
        let bounds = knight_and_rook(100, -50);
        assert_eq!(bounds[0], 100);
        assert!(bounds.iter().all(|&b| b >= 50), "{bounds:?}");
        assert_eq!(*bounds.last().unwrap(), 50);
    }

    /// The board of a FEN's first field.
    fn board(fen: &str) -> crate::Board {
        let mut pieces = Vec::new();
        for (r, row) in fen.split('/').enumerate() {
            let mut file = 0u8;
            for c in row.chars() {
                if let Some(n) = c.to_digit(10) {
                    file += n as u8;
                    continue;
                }
                let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
                let kind = PieceKind::ALL["pnbrqk".find(c.to_ascii_lowercase()).expect("a piece letter")];
                pieces.push((Square::from_file_rank(file, 7 - r as u8).expect("a square"), Piece { color, kind }));
                file += 1;
            }
        }
        crate::Board::new(Color::White, pieces).expect("one king a side")
    }

    #[test]
    fn a_position_whose_features_are_all_rewarded_stays_within_the_bound() {
        // Weights of 100 on every feature a position has and -100 on every
        // other: the lane's value on that position is a lower bound of the
        // largest, so every round's bound must reach it (a wrong slot, a
        // feature counted with the wrong piece or a price charged twice would
        // cut it off).
        // Three boards dense in threats and pawn pairs, and every tenth
        // position of the reference file.
        use crate::chess::position::Position;
        let reference = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/reference/fens.txt"));
        let fens = [
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R",
            "1k6/pp1p1p2/1P1P1Pp1/6P1/3QQ3/2qn1N2/3R1r2/K7",
            "4k3/1ppp1pp1/pPPPpPPp/P6P/8/8/8/4K3",
        ]
        .into_iter()
        .chain(reference.lines().step_by(10).map(|line| line.split(' ').next().expect("a board")));
        let mut views = std::collections::HashMap::new();
        for fen in fens {
            let pos = board(fen);
            for perspective in [Color::White, Color::Black] {
                let king = pos.king_square(perspective);
                let mut column = Column {
                    rows: vec![-100; HalfKAv2Hm::DIMENSIONS],
                    threats: vec![-100; Sf18::DIMENSIONS],
                    pairs: vec![-100; PawnPairs::DIMENSIONS],
                };
                let mut rows = crate::FeatureList::default();
                HalfKAv2Hm::active_features(&pos, perspective, &mut rows);
                rows.as_slice().iter().for_each(|&f| column.rows[f as usize] = 100);
                Sf18::for_each_active(&pos, perspective, |f| column.threats[f] = 100);
                PawnPairs::for_each_active(&pos, perspective, |f| column.pairs[f] = 100);
                let value = 100
                    * (column.rows.iter().chain(&column.threats).chain(&column.pairs).filter(|&&w| w > 0).count()
                        as i64);
                let view = views.entry((perspective, king)).or_insert_with(|| {
                    JointView::new::<STOCKFISH_18_TARGETS>(HalfKAv2Hm::index, perspective, king, true)
                });
                for rounds in [1, 8, 64] {
                    let (bound, _) = view.bound(&column, 0, i64::MIN, rounds);
                    assert!(
                        bound >= value,
                        "{fen}, {perspective:?}, {rounds} rounds: bound {bound} below the position's {value}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_pawn_pair_is_priced_on_its_second_pawn() {
        // A white pawn on c2 and a black one on d4: pair row 100, the black
        // pawn's row -1000. With pawn pairs, round 1 counts the pair with
        // the c2 pawn; priced, nothing pays.
        let king = square("a1");
        let view = JointView::new::<STOCKFISH_18_TARGETS>(HalfKAv2Hm::index, Color::White, king, true);
        let black_pawn = Piece { color: Color::Black, kind: PieceKind::Pawn };
        let mut column = Column {
            rows: vec![0; HalfKAv2Hm::DIMENSIONS],
            threats: vec![0; Sf18::DIMENSIONS],
            pairs: vec![0; PawnPairs::DIMENSIONS],
        };
        column.pairs
            [PawnPairs::index(Color::White, king, (Color::White, square("c2")), (Color::Black, square("d4")))] = 100;
        column.rows[HalfKAv2Hm::index(Color::White, king, square("d4"), black_pawn).expect("a row")] = -1000;
        assert_eq!(view.bound(&column, 0, i64::MIN, 1).0, 100);
        assert_eq!(view.bound(&column, 0, i64::MIN, 64).0, 0);
        // Stopping once the bound is at most the limit.
        assert_eq!(view.bound(&column, 0, 100, 64), (100, 1));
    }
}
