//! [`Position`] for `shakmaty`'s positions, and the [`crate::MoveChanges`]
//! of its moves; on them, a perft-style walk evaluating every node
//! ([`walk`]) and Stockfish's timed operations ([`bench`](mod@bench)). Feature
//! `shakmaty`, which this folder is all of.

use crate::chess::position::{Color, Piece, PieceKind, Position, Square};
use shakmaty::Position as _;

pub mod bench;
pub mod walk;

#[inline(always)]
fn color(c: shakmaty::Color) -> Color {
    match c {
        shakmaty::Color::White => Color::White,
        shakmaty::Color::Black => Color::Black,
    }
}

#[inline(always)]
fn square(s: shakmaty::Square) -> Square {
    Square::new(u8::from(s)).expect("shakmaty squares are below 64")
}

#[inline(always)]
fn kind(r: shakmaty::Role) -> PieceKind {
    match r {
        shakmaty::Role::Pawn => PieceKind::Pawn,
        shakmaty::Role::Knight => PieceKind::Knight,
        shakmaty::Role::Bishop => PieceKind::Bishop,
        shakmaty::Role::Rook => PieceKind::Rook,
        shakmaty::Role::Queen => PieceKind::Queen,
        shakmaty::Role::King => PieceKind::King,
    }
}

impl Position for shakmaty::Chess {
    fn side_to_move(&self) -> Color {
        color(self.turn())
    }

    fn king_square(&self, c: Color) -> Square {
        let c = match c {
            Color::White => shakmaty::Color::White,
            Color::Black => shakmaty::Color::Black,
        };
        // A `Chess` position has passed shakmaty's validation: one king a side.
        square(self.board().king_of(c).expect("a shakmaty::Chess position has both kings"))
    }

    #[inline(always)]
    fn for_each_piece(&self, mut f: impl FnMut(Square, Piece)) {
        // By bitboard: much cheaper than iterating the board square by square.
        let board = self.board();
        for c in shakmaty::Color::ALL {
            let side = board.by_color(c);
            for r in shakmaty::Role::ALL {
                let piece = Piece { color: color(c), kind: kind(r) };
                for s in side & board.by_role(r) {
                    f(square(s), piece);
                }
            }
        }
    }

    fn piece_count(&self) -> usize {
        self.board().occupied().count()
    }

    #[inline]
    fn bitboards(&self) -> [[u64; 6]; 2] {
        // shakmaty numbers squares as we do (a1 = 0, h8 = 63). Plain loops:
        // `array::map` here compiled to calls and copies of the arrays.
        let board = self.board();
        let mut bitboards = [[0; 6]; 2];
        for (side, c) in bitboards.iter_mut().zip([shakmaty::Color::White, shakmaty::Color::Black]) {
            for (bitboard, r) in side.iter_mut().zip(shakmaty::Role::ALL) {
                *bitboard = u64::from(board.by_color(c) & board.by_role(r));
            }
        }
        bitboards
    }
}

/// The pieces `m` changes in `pos` (which must be legal there).
pub fn move_changes(pos: &shakmaty::Chess, m: &shakmaty::Move) -> crate::MoveChanges {
    use shakmaty::Move;
    let us = pos.turn();
    let piece = |role| Piece { color: color(us), kind: kind(role) };
    let theirs = |role| Piece { color: color(!us), kind: kind(role) };
    let mut changes = crate::MoveChanges::default();
    let change = |piece, from: Option<shakmaty::Square>, to: Option<shakmaty::Square>| crate::PieceChange {
        piece,
        from: from.map(square),
        to: to.map(square),
    };
    match *m {
        Move::Normal { role, from, capture, to, promotion } => {
            if let Some(captured) = capture {
                changes.push(change(theirs(captured), Some(to), None));
            }
            match promotion {
                Some(new) => {
                    changes.push(change(piece(role), Some(from), None));
                    changes.push(change(piece(new), None, Some(to)));
                }
                None => changes.push(change(piece(role), Some(from), Some(to))),
            }
        }
        Move::EnPassant { from, to } => {
            let captured = shakmaty::Square::from_coords(to.file(), from.rank());
            changes.push(change(theirs(shakmaty::Role::Pawn), Some(captured), None));
            changes.push(change(piece(shakmaty::Role::Pawn), Some(from), Some(to)));
        }
        Move::Castle { king, rook } => {
            let side = shakmaty::CastlingSide::from_queen_side(rook < king);
            changes.push(change(piece(shakmaty::Role::King), Some(king), Some(side.king_to(us))));
            changes.push(change(piece(shakmaty::Role::Rook), Some(rook), Some(side.rook_to(us))));
        }
        Move::Put { role, to } => changes.push(change(piece(role), None, Some(to))),
    }
    changes
}

/// Parses a FEN into a `Chess` position, accepting what Stockfish accepts:
/// positions shakmaty deems impossible only for their castling rights,
/// en-passant square, material or checks. A FEN without exactly one king a
/// side is still an error.
pub fn chess_from_fen(fen: &str) -> Result<shakmaty::Chess, String> {
    use shakmaty::{CastlingMode, PositionError, fen::Fen};
    // shakmaty's error holds the position; it is only inspected here.
    #[allow(clippy::result_large_err)]
    fn relax(e: PositionError<shakmaty::Chess>) -> Result<shakmaty::Chess, PositionError<shakmaty::Chess>> {
        e.ignore_invalid_castling_rights()
            .or_else(|e| e.ignore_invalid_ep_square())
            .or_else(|e| e.ignore_too_much_material())
            .or_else(|e| e.ignore_impossible_check())
    }
    let setup = Fen::from_ascii(fen.trim().as_bytes()).map_err(|e| e.to_string())?;
    setup.into_position(CastlingMode::Standard).or_else(relax).map_err(|e| e.to_string())
}
