//! The board a stack keeps at each of its levels, and the checks of what a
//! C caller says about it: a reset's pieces and a move's piece changes are
//! refused unless they make a board the runtime can evaluate (every square
//! and piece code in range, one piece a square, one king a side, at most 32
//! pieces) and, for a move, unless every piece it removes is where it says.
//! The runtime trusts its caller on all of these: its board overwrites an
//! occupied square, and its move changes drop a fourth change.

use crate::error::{Error, Failure};
use crate::types::{NNUE_MAX_CHANGES, NNUE_MAX_PIECES, NNUE_NO_SQUARE, PieceChange, PieceOn};
use nnue::runtime::{Bitboards, Color, MoveChanges, Piece, PieceKind, Position, Square};
use std::ffi::c_int;

/// The code of an empty square.
const EMPTY: u8 = 12;

/// A position's pieces, as valid as the checks above make it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Board {
    /// The piece code on each square, or [`EMPTY`].
    squares: [u8; 64],
    bitboards: Bitboards,
    kings: [Square; 2],
    count: usize,
}

/// `code` as a piece, if it is one (0..=11).
fn piece(code: u8) -> Option<Piece> {
    let color = if code < 6 { Color::White } else { Color::Black };
    (code < EMPTY).then(|| Piece { color, kind: PieceKind::ALL[usize::from(code % 6)] })
}

impl Board {
    /// The board of a reset's pieces.
    pub(crate) fn new(pieces: &[PieceOn]) -> Result<Board, Failure> {
        if pieces.len() > NNUE_MAX_PIECES {
            let detail = format!("{} pieces, at most {NNUE_MAX_PIECES}", pieces.len());
            return Err(Failure::new(Error::TooManyPieces, detail));
        }
        let mut squares = [EMPTY; 64];
        let mut kings = [None, None];
        for (i, p) in pieces.iter().enumerate() {
            let Some(square) = Square::new(p.square) else {
                return Err(Failure::new(Error::Square, format!("piece {i}: square {} is not 0..=63", p.square)));
            };
            let Some(piece) = piece(p.piece) else {
                return Err(Failure::new(Error::Piece, format!("piece {i}: piece code {} is not 0..=11", p.piece)));
            };
            if squares[square.index()] != EMPTY {
                return Err(Failure::new(Error::Occupied, format!("piece {i}: square {} is taken", p.square)));
            }
            squares[square.index()] = p.piece;
            if piece.kind == PieceKind::King && kings[piece.color.index()].replace(square).is_some() {
                return Err(Failure::new(Error::Kings, format!("piece {i}: a second {:?} king", piece.color)));
            }
        }
        let kings = Board::both_kings(kings)?;
        let mut bitboards = [[0; 6]; 2];
        for (i, &code) in squares.iter().enumerate() {
            if let Some(p) = piece(code) {
                bitboards[p.color.index()][p.kind as usize] |= 1 << i;
            }
        }
        Ok(Board { squares, bitboards, kings, count: pieces.len() })
    }

    /// Both kings' squares, or the failure naming the side without one.
    fn both_kings(kings: [Option<Square>; 2]) -> Result<[Square; 2], Failure> {
        match kings {
            [Some(white), Some(black)] => Ok([white, black]),
            [None, _] => Err(Failure::new(Error::Kings, "white has no king")),
            [_, None] => Err(Failure::new(Error::Kings, "black has no king")),
        }
    }

    /// The board after a move's `changes`, and the changes as the runtime
    /// takes them. As the runtime makes a move, every piece first leaves
    /// its `from` square (which must hold it), then every piece lands on
    /// its `to` square (which must then be empty): a king may castle onto
    /// its rook's square.
    pub(crate) fn after(&self, changes: &[PieceChange]) -> Result<(Board, MoveChanges), Failure> {
        if changes.len() > NNUE_MAX_CHANGES {
            let detail = format!("{} changes, at most {NNUE_MAX_CHANGES}", changes.len());
            return Err(Failure::new(Error::TooManyChanges, detail));
        }
        let mut next = self.clone();
        let mut runtime = MoveChanges::default();
        let mut kings = self.kings.map(Some);
        for (i, c) in changes.iter().enumerate() {
            let change = Board::change(i, c)?;
            runtime.push(change);
            if let Some(from) = change.from {
                if next.squares[from.index()] != c.piece {
                    let detail = format!("change {i}: piece {} is not on square {}", c.piece, c.from);
                    return Err(Failure::new(Error::BadChange, detail));
                }
                next.toggle(from, c.piece);
                next.count -= 1;
                if change.piece.kind == PieceKind::King {
                    kings[change.piece.color.index()] = None;
                }
            }
        }
        for (i, c) in changes.iter().enumerate() {
            if let (Some(to), Some(p)) = (Square::new(c.to), piece(c.piece)) {
                if next.squares[to.index()] != EMPTY {
                    return Err(Failure::new(Error::Occupied, format!("change {i}: square {} is taken", c.to)));
                }
                next.toggle(to, c.piece);
                next.count += 1;
                if p.kind == PieceKind::King && kings[p.color.index()].replace(to).is_some() {
                    return Err(Failure::new(Error::Kings, format!("change {i}: a second {:?} king", p.color)));
                }
            }
        }
        next.kings = Board::both_kings(kings)?;
        if next.count > NNUE_MAX_PIECES {
            let detail = format!("{} pieces after the move, at most {NNUE_MAX_PIECES}", next.count);
            return Err(Failure::new(Error::TooManyPieces, detail));
        }
        Ok((next, runtime))
    }

    /// Change `i` as the runtime's, if its codes are in range and it
    /// leaves or lands somewhere.
    fn change(i: usize, c: &PieceChange) -> Result<nnue::runtime::PieceChange, Failure> {
        let Some(piece) = piece(c.piece) else {
            return Err(Failure::new(Error::Piece, format!("change {i}: piece code {} is not 0..=11", c.piece)));
        };
        let square = |s: u8| match s {
            NNUE_NO_SQUARE => Ok(None),
            _ => Square::new(s).map(Some).ok_or_else(|| {
                Failure::new(Error::Square, format!("change {i}: square {s} is not 0..=63 nor NNUE_NO_SQUARE (64)"))
            }),
        };
        let (from, to) = (square(c.from)?, square(c.to)?);
        if from.is_none() && to.is_none() {
            return Err(Failure::new(Error::BadChange, format!("change {i}: neither from nor to a square")));
        }
        Ok(nnue::runtime::PieceChange { piece, from, to })
    }

    /// Puts the piece of `code` on the empty `square`, or takes it off.
    fn toggle(&mut self, square: Square, code: u8) {
        let p = piece(code).expect("a checked piece code");
        self.bitboards[p.color.index()][p.kind as usize] ^= 1 << square.index();
        self.squares[square.index()] = if self.squares[square.index()] == EMPTY { code } else { EMPTY };
    }

    /// The position with `side` to move.
    pub(crate) fn to_move(&self, side: Color) -> ToMove<'_> {
        ToMove { board: self, side }
    }
}

/// A board and a side to move: what the runtime evaluates.
pub(crate) struct ToMove<'b> {
    board: &'b Board,
    side: Color,
}

impl Position for ToMove<'_> {
    fn side_to_move(&self) -> Color {
        self.side
    }

    fn king_square(&self, color: Color) -> Square {
        self.board.kings[color.index()]
    }

    fn for_each_piece(&self, mut f: impl FnMut(Square, Piece)) {
        // By bitboard, as shakmaty's positions do: colour, kind, squares.
        for (color, sides) in [Color::White, Color::Black].into_iter().zip(&self.board.bitboards) {
            for (&kind, &bitboard) in PieceKind::ALL.iter().zip(sides) {
                let mut rest = bitboard;
                while rest != 0 {
                    let square = Square::new(rest.trailing_zeros() as u8).expect("a bit of a u64");
                    f(square, Piece { color, kind });
                    rest &= rest - 1;
                }
            }
        }
    }

    fn piece_count(&self) -> usize {
        self.board.count
    }

    fn bitboards(&self) -> Bitboards {
        self.board.bitboards
    }
}

/// The side to move of a C caller's `int`.
pub(crate) fn side(stm: c_int) -> Result<Color, Failure> {
    match stm {
        0 => Ok(Color::White),
        1 => Ok(Color::Black),
        _ => Err(Failure::new(Error::Side, format!("side to move {stm}"))),
    }
}
