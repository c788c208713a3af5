//! [`Position`] for `shakmaty`'s positions (feature `shakmaty`).

use crate::position::{Color, Piece, PieceKind, Position, Square};
use shakmaty::Position as _;

fn color(c: shakmaty::Color) -> Color {
    match c {
        shakmaty::Color::White => Color::White,
        shakmaty::Color::Black => Color::Black,
    }
}

fn square(s: shakmaty::Square) -> Square {
    Square::new(u8::from(s)).expect("shakmaty squares are below 64")
}

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

    fn for_each_piece(&self, mut f: impl FnMut(Square, Piece)) {
        for (s, p) in self.board().clone() {
            f(square(s), Piece { color: color(p.color), kind: kind(p.role) });
        }
    }

    fn piece_count(&self) -> usize {
        self.board().occupied().count()
    }
}
