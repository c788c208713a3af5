//! A plain board: the pieces and the side to move, nothing else. Used where a
//! position must cross a vtable ([`crate::AnyNetwork`]) and in tests.

use crate::chess::position::{Color, Piece, Position, Square};

/// Pieces on squares and the side to move, with exactly one king per side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    side_to_move: Color,
    squares: [Option<Piece>; 64],
    kings: [Square; 2],
}

/// Why a set of pieces is not a [`Board`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{color:?} has {kings} kings (a board needs exactly one per side)")]
pub struct BoardError {
    pub color: Color,
    pub kings: usize,
}

impl Board {
    /// A board from its pieces; each side must have exactly one king.
    pub fn new(side_to_move: Color, pieces: impl IntoIterator<Item = (Square, Piece)>) -> Result<Board, BoardError> {
        let mut squares = [None; 64];
        for (square, piece) in pieces {
            squares[square.index()] = Some(piece);
        }
        let king = |color: Color| {
            let mut found = squares
                .iter()
                .enumerate()
                .filter(|(_, p)| p.is_some_and(|p| p.color == color && p.kind == crate::PieceKind::King));
            match (found.next(), found.count()) {
                (Some((i, _)), 0) => Ok(Square::new(i as u8).expect("index below 64")),
                (first, rest) => Err(BoardError { color, kings: usize::from(first.is_some()) + rest }),
            }
        };
        let kings = [king(Color::White)?, king(Color::Black)?];
        Ok(Board { side_to_move, squares, kings })
    }

    /// A copy of any [`Position`].
    pub fn from_position(pos: &impl Position) -> Result<Board, BoardError> {
        let mut pieces = Vec::with_capacity(32);
        pos.for_each_piece(|s, p| pieces.push((s, p)));
        Board::new(pos.side_to_move(), pieces)
    }
}

impl Position for Board {
    fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    fn king_square(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    fn for_each_piece(&self, mut f: impl FnMut(Square, Piece)) {
        for (i, piece) in self.squares.iter().enumerate() {
            if let Some(piece) = *piece {
                f(Square::new(i as u8).expect("index below 64"), piece);
            }
        }
    }
}
