//! Input feature sets: which rows of the transformer's weight matrix a
//! position activates, from each perspective. One feature set per file.

mod board_features;
mod buffer;
mod full_threats;
mod half_kp;
mod pawn_pairs;
mod piece_square;
mod set_lists;
mod threat_changes;

pub use board_features::BoardFeatures;
pub use buffer::{FeatureBuffer, FeatureChanges, FeatureSink};
pub use full_threats::{FullThreats, MAX_THREATS, STOCKFISH_18_TARGETS, Threat, threat_targets};
pub use half_kp::HalfKP;
pub use pawn_pairs::{PawnChanges, PawnPairs};
pub use piece_square::{Mirror, PieceSquare, PieceSquareLayout, PlaneOrder, StockfishHalfKAv2, StockfishHalfKAv2Hm};
pub use set_lists::SetLists;
pub use threat_changes::ThreatChanges;

/// Stockfish 14's HalfKAv2, an instance of [`PieceSquare`].
pub type HalfKAv2 = PieceSquare<StockfishHalfKAv2>;

/// Stockfish 14.1's HalfKAv2_hm, an instance of [`PieceSquare`].
pub type HalfKAv2Hm = PieceSquare<StockfishHalfKAv2Hm>;

use crate::chess::position::{Color, Piece, Position, Square};

/// A set of binary input features.
pub trait FeatureSet {
    /// The name Stockfish gives it.
    const NAME: &'static str;
    /// Number of features (weight-matrix rows).
    const DIMENSIONS: usize;
    /// Most features active at once, per perspective.
    const MAX_ACTIVE: usize;
    /// The hash word Stockfish mixes into the transformer's hash.
    const HASH: u32;

    /// The feature of `piece` on `square` from `perspective`, whose king is on
    /// `king`; `None` for pieces the set ignores (kings in HalfKP).
    fn index(perspective: Color, king: Square, square: Square, piece: Piece) -> Option<usize>;

    /// Whether every piece has the same feature from `perspective` with its
    /// king on `a` and on `b` (the king's own feature aside): then a move of
    /// that king from one to the other is an update, not a refresh. By
    /// default only when `a == b`.
    fn same_view(perspective: Color, a: Square, b: Square) -> bool {
        let _ = perspective;
        a == b
    }

    /// Appends every active feature of `pos` from `perspective`.
    fn active_features(pos: &impl Position, perspective: Color, out: &mut FeatureList) {
        let king = pos.king_square(perspective);
        pos.for_each_piece(|square, piece| {
            if let Some(index) = Self::index(perspective, king, square, piece) {
                out.push(index);
            }
        });
    }

    /// Both perspectives' active features (indexed by [`Color::index`]), in
    /// one walk over the pieces.
    fn active_features_both(pos: &impl Position, out: &mut [FeatureList; 2]) {
        Self::active_features_both_with(pos, out, |_| ());
    }

    /// [`Self::active_features_both`], calling `listed` with each feature
    /// as soon as it is listed, so that a refresh can request the feature's
    /// row while the rest are listed.
    fn active_features_both_with(pos: &impl Position, out: &mut [FeatureList; 2], listed: impl Fn(u32)) {
        let kings = [pos.king_square(Color::White), pos.king_square(Color::Black)];
        pos.for_each_piece(|square, piece| {
            for perspective in [Color::White, Color::Black] {
                if let Some(index) = Self::index(perspective, kings[perspective.index()], square, piece) {
                    listed(index as u32);
                    out[perspective.index()].push(index);
                }
            }
        });
    }
}

/// Capacity of a [`FeatureList`]: every piece of a full board.
pub const MAX_FEATURES: usize = 32;

/// The active features of one perspective for the per-piece feature sets:
/// one per piece of a full board. Pieces beyond the capacity (impossible in a
/// legal position) are counted but not stored, so a bad position gives a
/// wrong value, never a crash.
pub type FeatureList = FeatureBuffer<MAX_FEATURES>;

/// Plane offsets of pieces seen from `perspective`: the perspective's own
/// pieces first, then the opponent's, interleaved per kind
/// (own pawn, their pawn, own knight, ...), each plane 64 squares.
#[inline]
fn relative_plane(perspective: Color, piece: Piece) -> usize {
    2 * piece.kind as usize + usize::from(piece.color != perspective)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, PieceKind};
    use std::cell::RefCell;

    /// `active_features_both_with` lists what `active_features` lists from
    /// each perspective, and calls `listed` with every listed feature of
    /// both perspectives, once each (the default body: HalfKP; the bit-plane
    /// loop: HalfKAv2_hm).
    fn lists_and_calls_back<S: FeatureSet>(board: &Board) {
        let calls = RefCell::new(Vec::new());
        let mut both = [FeatureList::default(), FeatureList::default()];
        S::active_features_both_with(board, &mut both, |f| calls.borrow_mut().push(f));
        let mut expected = Vec::new();
        for perspective in [Color::White, Color::Black] {
            let mut one = FeatureList::default();
            S::active_features(board, perspective, &mut one);
            let (mut got, mut want) = (both[perspective.index()].as_slice().to_vec(), one.as_slice().to_vec());
            got.sort_unstable();
            want.sort_unstable();
            assert_eq!(got, want, "{} from {perspective:?}", S::NAME);
            expected.extend(want);
        }
        let mut calls = calls.into_inner();
        calls.sort_unstable();
        expected.sort_unstable();
        assert_eq!(calls, expected, "{}: the features `listed` was called with", S::NAME);
    }

    #[test]
    fn listed_features_are_called_back() {
        let piece = |color, kind| Piece { color, kind };
        let (w, b) = (Color::White, Color::Black);
        let pieces = [
            (4, piece(w, PieceKind::King)),
            (3, piece(w, PieceKind::Queen)),
            (12, piece(w, PieceKind::Pawn)),
            (21, piece(w, PieceKind::Knight)),
            (62, piece(b, PieceKind::King)),
            (52, piece(b, PieceKind::Pawn)),
            (45, piece(b, PieceKind::Bishop)),
            (56, piece(b, PieceKind::Rook)),
        ];
        let board = Board::new(w, pieces.map(|(s, p)| (Square::new(s).unwrap(), p))).unwrap();
        lists_and_calls_back::<HalfKP>(&board);
        lists_and_calls_back::<HalfKAv2Hm>(&board);
        lists_and_calls_back::<HalfKAv2>(&board);
    }
}
