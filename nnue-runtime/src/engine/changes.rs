//! What a move changes on the board, as an engine reports it, and the
//! feature changes that follow (Stockfish's "dirty pieces").

use crate::chess::placement::Placement;
use crate::chess::position::{Bitboards, Color, Piece, PieceKind, Square};
use crate::features::FeatureSink;

/// A piece that appeared (`from` `None`), disappeared (`to` `None`) or moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceChange {
    pub piece: Piece,
    pub from: Option<Square>,
    pub to: Option<Square>,
}

/// The pieces a move changed: at most three (a promotion with capture:
/// the pawn leaves, the captured piece leaves, the new piece appears; castling:
/// king and rook move).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MoveChanges {
    len: usize,
    items: [Option<PieceChange>; 3],
}

impl MoveChanges {
    /// Adds a change (a fourth is ignored: no chess move makes one).
    #[inline]
    pub fn push(&mut self, change: PieceChange) {
        if self.len < 3 {
            self.items[self.len] = Some(change);
            self.len += 1;
        }
    }

    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = &PieceChange> {
        self.items[..self.len].iter().flatten()
    }

    /// Whether `perspective`'s own king moved to a square from which it sees
    /// the board otherwise (`same_view` false for its squares before and
    /// after): then every feature of that perspective may change.
    pub fn changes_view(&self, perspective: Color, same_view: impl Fn(Color, Square, Square) -> bool) -> bool {
        self.iter().any(|c| {
            c.piece.kind == PieceKind::King
                && c.piece.color == perspective
                && !matches!((c.from, c.to), (Some(from), Some(to)) if same_view(perspective, from, to))
        })
    }

    /// The removed and added features from `perspective` (whose king is on
    /// `king` after the move), via `index`. Returns `false`, leaving the lists
    /// unspecified, when [`MoveChanges::changes_view`] (refresh instead).
    pub fn features(
        &self,
        perspective: Color,
        king: Square,
        same_view: impl Fn(Color, Square, Square) -> bool,
        index: impl Fn(Color, Square, Square, Piece) -> Option<usize>,
        removed: &mut impl FeatureSink,
        added: &mut impl FeatureSink,
    ) -> bool {
        if self.changes_view(perspective, same_view) {
            return false;
        }
        for change in self.iter() {
            if let Some(f) = change.from.and_then(|s| index(perspective, king, s, change.piece)) {
                removed.push(f);
            }
            if let Some(f) = change.to.and_then(|s| index(perspective, king, s, change.piece)) {
                added.push(f);
            }
        }
        true
    }

    /// Makes the move on `board`: every piece leaves its square, then every
    /// piece lands on its new one (so castling may move the king onto the
    /// rook's square, as in Chess960).
    #[inline]
    pub fn apply(&self, board: &mut Bitboards) {
        self.steps(
            board,
            |board, square, piece| board[piece.color.index()][piece.kind as usize] &= !(1 << square.index()),
            |board, square, piece| board[piece.color.index()][piece.kind as usize] |= 1 << square.index(),
        );
    }

    /// [`Self::apply`] on a [`Placement`]: its bitboards and its squares'
    /// codes.
    #[inline]
    pub fn apply_to(&self, placement: &mut Placement) {
        self.steps(placement, |p, square, piece| p.lift(square, piece), |p, square, piece| p.put(square, piece));
    }

    /// The move as single steps on `board`: every piece lifted from its
    /// square, then every piece put on its new one.
    #[inline(always)]
    fn steps<B>(&self, board: &mut B, lift: impl Fn(&mut B, Square, Piece), put: impl Fn(&mut B, Square, Piece)) {
        for change in self.iter() {
            if let Some(from) = change.from {
                lift(board, from, change.piece);
            }
        }
        for change in self.iter() {
            if let Some(to) = change.to {
                put(board, to, change.piece);
            }
        }
    }
}
