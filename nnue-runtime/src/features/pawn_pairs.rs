//! PP_3Wide (Stockfish 19): one feature for each pair of pawns, of either
//! colour, standing on the same file or on adjacent files, seen from a
//! perspective.
//!
//! The board is oriented as for [`super::FullThreats`]: black's view flips
//! the ranks and swaps the colours, and the files are mirrored when the
//! perspective's king stands on files e-h. A pawn then has a place among 96:
//! `48 * relative colour + oriented square - 8` (own pawns `0..48`, the
//! opponent's `48..96`; pawns stand on ranks 2 to 7). A pair of places
//! `hi > lo` is feature `hi * (hi - 1) / 2 + lo`: every unordered pair of
//! places has an index, though only pairs within three files are ever
//! active.
//!
//! Like the threats, a pair depends on two pieces: this set does not
//! implement [`super::FeatureSet`]. A change of the board changes the pairs
//! of the pawns that appeared or disappeared: it is a
//! [`super::BoardFeatures`] set.

use super::full_threats::orientation;
use super::{BoardFeatures, FeatureSink};
use crate::chess::attacks::{Bitboard, squares};
use crate::chess::placement::Placement;
use crate::chess::position::{Bitboards, Color, PieceKind, Position, Square};

/// The PP_3Wide feature set; see the module documentation.
pub struct PawnPairs;

/// The pawns of a board change: both colours' pawns before and after.
/// Perspective-independent, found once per move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PawnChanges {
    before: [Bitboard; 2],
    after: [Bitboard; 2],
}

/// The files of the squares' files and of their neighbours, ranks 2 to 7.
const BANDS: [Bitboard; 8] = {
    let mut bands = [0; 8];
    let mut file = 0;
    while file < 8 {
        let column: Bitboard = 0x0101_0101_0101_0101 << file;
        let mut band = column;
        if file > 0 {
            band |= column >> 1;
        }
        if file < 7 {
            band |= column << 1;
        }
        bands[file] = band & 0x00FF_FFFF_FFFF_FF00;
        file += 1;
    }
    bands
};

/// The squares whose pawns pair with a pawn on `square`: its file and the
/// adjacent ones, ranks 2 to 7, not the square itself.
#[inline]
fn partners(square: Square) -> Bitboard {
    BANDS[square.file() as usize] & !(1 << square.index())
}

/// Pawns standing on ranks 1 or 8 (no legal position has them) have no
/// place and make no pairs.
const PAWN_RANKS: Bitboard = 0x00FF_FFFF_FFFF_FF00;

impl PawnPairs {
    /// The hash word of the set (Stockfish 19's transformer hash mixes it in).
    pub const HASH: u32 = 0x86F2_B1DD;

    /// The place (`0..96`) of a pawn of `color` on `square` from
    /// `perspective`, with the board oriented by `orientation`.
    #[inline]
    fn place(perspective: Color, orientation: u8, color: Color, square: Square) -> usize {
        48 * usize::from(color != perspective) + square.xor(orientation).index() - 8
    }

    /// The feature of the pawns `a` and `b` (colour and square, on ranks 2
    /// to 7, on different squares) from `perspective`, whose king is on
    /// `king`.
    #[inline]
    pub fn index(perspective: Color, king: Square, a: (Color, Square), b: (Color, Square)) -> usize {
        let orientation = orientation(perspective, king);
        Self::pair(Self::place(perspective, orientation, a.0, a.1), Self::place(perspective, orientation, b.0, b.1))
    }

    /// The feature of two distinct places.
    #[inline]
    fn pair(a: usize, b: usize) -> usize {
        let (hi, lo) = if a > b { (a, b) } else { (b, a) };
        hi * (hi - 1) / 2 + lo
    }

    /// Calls `f` with every pair between the pawns of `new` (both colours,
    /// listed once each) and the pawns of `pawns` (a board holding `new`),
    /// each pair once: a pawn of `new` pairs with the pawns of `pawns` not in
    /// `new` and with the pawns of `new` after it.
    fn pairs_of(
        perspective: Color,
        orientation: u8,
        new: [Bitboard; 2],
        pawns: [Bitboard; 2],
        mut f: impl FnMut(usize),
    ) {
        let (new, pawns) = (new.map(|b| b & PAWN_RANKS), pawns.map(|b| b & PAWN_RANKS));
        let mut left = new[0] | new[1];
        let old = (pawns[0] | pawns[1]) & !left;
        for color in [Color::White, Color::Black] {
            for square in squares(new[color.index()]) {
                left &= !(1 << square.index());
                let a = Self::place(perspective, orientation, color, square);
                let mask = partners(square) & (old | left);
                for other in [Color::White, Color::Black] {
                    for partner in squares(pawns[other.index()] & mask) {
                        f(Self::pair(a, Self::place(perspective, orientation, other, partner)));
                    }
                }
            }
        }
    }

    /// Calls `f` with every active feature of the pawns `pawns` (white's,
    /// black's) from `perspective`, whose king is on `king`.
    pub fn for_each_active_on(pawns: [Bitboard; 2], perspective: Color, king: Square, f: impl FnMut(usize)) {
        let orientation = orientation(perspective, king);
        Self::pairs_of(perspective, orientation, pawns, pawns, f);
    }

    /// Calls `f` with every active feature of `pos` from `perspective`, in
    /// no particular order.
    pub fn for_each_active(pos: &impl Position, perspective: Color, f: impl FnMut(usize)) {
        Self::for_each_active_on(pawns(pos), perspective, pos.king_square(perspective), f);
    }
}

impl BoardFeatures for PawnPairs {
    const NAME: &'static str = "PP_3Wide";
    /// The unordered pairs of 96 places.
    const DIMENSIONS: usize = 96 * 95 / 2;
    /// Every pair of 16 pawns.
    const MAX_ACTIVE: usize = 16 * 15 / 2;

    /// Both colours' pawns before and after.
    type Changes = PawnChanges;

    /// The board is oriented the same way.
    #[inline]
    fn same_view(perspective: Color, a: Square, b: Square) -> bool {
        orientation(perspective, a) == orientation(perspective, b)
    }

    fn for_each_active_both(pos: &impl Position, mut f: impl FnMut(Color, usize)) {
        let pawns = pawns(pos);
        for perspective in [Color::White, Color::Black] {
            Self::for_each_active_on(pawns, perspective, pos.king_square(perspective), |feature| {
                f(perspective, feature)
            });
        }
    }

    /// Keeps the pawns of `before` and of `after`.
    fn board_changes(before: &Placement, after: &Placement, changes: &mut PawnChanges) {
        let pawns = |board: &Placement| {
            let board = board.bitboards();
            [board[0][PieceKind::Pawn as usize], board[1][PieceKind::Pawn as usize]]
        };
        *changes = PawnChanges { before: pawns(before), after: pawns(after) };
    }

    fn active_on(board: &Bitboards, perspective: Color, king: Square, active: &mut impl FeatureSink) {
        let pawns = board.map(|side| side[PieceKind::Pawn as usize]);
        Self::for_each_active_on(pawns, perspective, king, |f| active.push(f));
    }

    /// The pairs of a pawn gone are removed, those of a pawn come added.
    fn features_of(
        perspective: Color,
        king: Square,
        changes: &PawnChanges,
        removed: &mut impl FeatureSink,
        added: &mut impl FeatureSink,
    ) {
        let PawnChanges { before, after } = *changes;
        if before == after {
            return;
        }
        let orientation = orientation(perspective, king);
        let gone = [before[0] & !after[0], before[1] & !after[1]];
        let come = [after[0] & !before[0], after[1] & !before[1]];
        Self::pairs_of(perspective, orientation, gone, before, |f| removed.push(f));
        Self::pairs_of(perspective, orientation, come, after, |f| added.push(f));
    }
}

/// White's and black's pawns of `pos`.
fn pawns(pos: &impl Position) -> [Bitboard; 2] {
    let mut pawns = [0; 2];
    pos.for_each_piece(|square, piece| {
        if piece.kind == PieceKind::Pawn {
            pawns[piece.color.index()] |= 1 << square.index();
        }
    });
    pawns
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::FeatureBuffer;
    use crate::format::writer::Rng;
    use std::collections::BTreeSet;

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        Square::from_file_rank(b[0] - b'a', b[1] - b'1').unwrap()
    }

    /// Indices Stockfish 19's own code gives (less its 59808 threat
    /// features, which come first in its numbering).
    #[test]
    fn indices_of_stockfish() {
        let (w, b) = (Color::White, Color::Black);
        assert_eq!(PawnPairs::index(w, sq("g1"), (w, sq("e2")), (w, sq("f3"))), 59856 - 59808);
        assert_eq!(PawnPairs::index(w, sq("c1"), (w, sq("e2")), (w, sq("f3"))), 59890 - 59808);
        assert_eq!(PawnPairs::index(b, sq("e8"), (w, sq("e2")), (w, sq("f3"))), 63985 - 59808);
        assert_eq!(PawnPairs::index(b, sq("d8"), (w, sq("e2")), (w, sq("f3"))), 64079 - 59808);
        assert_eq!(PawnPairs::index(w, sq("g1"), (w, sq("e4")), (b, sq("d5"))), 62677 - 59808);
        assert_eq!(PawnPairs::index(b, sq("g8"), (w, sq("e4")), (b, sq("d5"))), 62603 - 59808);
        // Order does not matter.
        assert_eq!(
            PawnPairs::index(w, sq("g1"), (w, sq("e4")), (b, sq("d5"))),
            PawnPairs::index(w, sq("g1"), (b, sq("d5")), (w, sq("e4")))
        );
    }

    fn random_pawns(rng: &mut Rng) -> [Bitboard; 2] {
        let mut pawns = [0; 2];
        let mut taken: Bitboard = 0;
        for side in pawns.iter_mut() {
            for _ in 0..rng.range(0, 8) {
                let s = rng.range(8, 55) as u32;
                if taken & (1 << s) == 0 {
                    taken |= 1 << s;
                    *side |= 1 << s;
                }
            }
        }
        pawns
    }

    fn active(pawns: [Bitboard; 2], perspective: Color, king: Square) -> BTreeSet<usize> {
        let mut set = BTreeSet::new();
        PawnPairs::for_each_active_on(pawns, perspective, king, |f| assert!(set.insert(f), "feature {f} twice"));
        set
    }

    /// Every pair of pawns within three files, once, by brute force.
    #[test]
    fn active_pairs_are_the_pawns_within_three_files() {
        let mut rng = Rng::new(19);
        for _ in 0..500 {
            let pawns = random_pawns(&mut rng);
            let king = Square::new(rng.range(0, 63) as u8).unwrap();
            for perspective in [Color::White, Color::Black] {
                let mut list: Vec<(Color, Square)> = Vec::new();
                for color in [Color::White, Color::Black] {
                    list.extend(squares(pawns[color.index()]).map(|s| (color, s)));
                }
                let mut expected = BTreeSet::new();
                for (i, &a) in list.iter().enumerate() {
                    for &b in &list[i + 1..] {
                        if a.1.file().abs_diff(b.1.file()) <= 1 {
                            let f = PawnPairs::index(perspective, king, a, b);
                            assert!(f < PawnPairs::DIMENSIONS);
                            assert!(expected.insert(f));
                        }
                    }
                }
                assert_eq!(active(pawns, perspective, king), expected);
                assert!(expected.len() <= PawnPairs::MAX_ACTIVE);
            }
        }
    }

    /// A refresh's listing from the board (`active_on`) gives the active
    /// pairs of the board's pawns, each once, whatever else stands on it.
    #[test]
    fn listing_from_the_board_gives_the_active_pairs() {
        let mut rng = Rng::new(21);
        for _ in 0..200 {
            let pawns = random_pawns(&mut rng);
            let mut board: Bitboards = [[0; 6]; 2];
            (board[0][0], board[1][0]) = (pawns[0], pawns[1]);
            // A knight and a king of each side off the pawns' squares.
            let free = !(pawns[0] | pawns[1]);
            board[0][1] = free & (1 << 1);
            board[1][5] = free & (1 << 60);
            let king = Square::new(rng.range(0, 63) as u8).unwrap();
            for perspective in [Color::White, Color::Black] {
                let mut listed = FeatureBuffer::<{ PawnPairs::MAX_ACTIVE }>::default();
                PawnPairs::active_on(&board, perspective, king, &mut listed);
                let set: BTreeSet<usize> = listed.as_slice().iter().map(|&f| f as usize).collect();
                assert_eq!((set.len(), listed.dropped()), (listed.as_slice().len(), 0), "a pair listed twice");
                assert_eq!(set, active(pawns, perspective, king));
            }
        }
    }

    /// Removing the changes from the features before and adding them gives
    /// the features after, each once, for boards a few pawn moves apart and
    /// unrelated ones.
    #[test]
    fn changes_turn_one_board_into_another() {
        let mut rng = Rng::new(20);
        for _ in 0..500 {
            let a = random_pawns(&mut rng);
            let mut b = if rng.range(0, 3) == 0 { random_pawns(&mut rng) } else { a };
            for _ in 0..rng.range(0, 3) {
                let (color, s) = (rng.range(0, 1) as usize, rng.range(8, 55) as u32);
                let bit = 1 << s;
                if rng.range(0, 1) == 0 {
                    b[color] &= !bit;
                } else {
                    b[1 - color] &= !bit;
                    b[color] |= bit;
                }
            }
            let board = |pawns: [Bitboard; 2]| -> Bitboards {
                let mut board = [[0; 6]; 2];
                board[0][0] = pawns[0];
                board[1][0] = pawns[1];
                board
            };
            let king = Square::new(rng.range(0, 63) as u8).unwrap();
            for perspective in [Color::White, Color::Black] {
                let (mut removed, mut added) = (FeatureBuffer::<300>::default(), FeatureBuffer::<300>::default());
                PawnPairs::changes(perspective, king, &board(a), &board(b), &mut removed, &mut added);
                let mut features = active(a, perspective, king);
                for &f in removed.as_slice() {
                    assert!(features.remove(&(f as usize)), "removed {f}, not active before");
                }
                for &f in added.as_slice() {
                    assert!(features.insert(f as usize), "added {f}, active before");
                }
                assert_eq!(features, active(b, perspective, king));
            }
        }
    }
}
