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

    /// Checks a move's `changes` against this board, without changing it,
    /// and adds them to `runtime` as the runtime takes them. As the runtime
    /// makes a move, every piece first leaves its `from` square (which
    /// must hold it), then every piece lands on its `to` square (which must
    /// then be empty): a king may castle onto its rook's square. On
    /// success, [`Board::make`] makes the move on a copy of this board.
    pub(crate) fn check(&self, changes: &[PieceChange], runtime: &mut MoveChanges) -> Result<(), Failure> {
        // The refusal's message is made apart, off the path of a valid move.
        self.refusal(changes, runtime).map_err(Refusal::failure)
    }

    /// [`Board::check`], with a refusal yet to be made a failure.
    fn refusal(&self, changes: &[PieceChange], runtime: &mut MoveChanges) -> Result<(), Refusal> {
        if changes.len() > NNUE_MAX_CHANGES {
            return Err(Refusal::TooManyChanges(changes.len()));
        }
        // The board as the move is made, kept as the squares it changes:
        // those the pieces left, then those they landed on.
        let (mut left, mut landed) = (0u64, 0u64);
        let mut kings = self.kings.map(Some);
        let mut count = self.count;
        for (i, c) in changes.iter().enumerate() {
            let change = Board::change(i, c)?;
            runtime.push(change);
            if let Some(from) = change.from {
                let bit = 1 << from.index();
                // `c.piece` is a piece code (checked), never `EMPTY`.
                if left & bit != 0 || self.squares[from.index()] != c.piece {
                    return Err(Refusal::NotOn(i, c.piece, c.from));
                }
                left |= bit;
                count -= 1;
                if change.piece.kind == PieceKind::King {
                    kings[change.piece.color.index()] = None;
                }
            }
        }
        for (i, change) in runtime.iter().enumerate() {
            if let Some(to) = change.to {
                let bit = 1 << to.index();
                let taken = self.squares[to.index()] != EMPTY && left & bit == 0;
                if taken || landed & bit != 0 {
                    return Err(Refusal::Taken(i, to));
                }
                landed |= bit;
                count += 1;
                let p = change.piece;
                if p.kind == PieceKind::King && kings[p.color.index()].replace(to).is_some() {
                    return Err(Refusal::SecondKing(i, p.color));
                }
            }
        }
        match kings {
            [Some(_), Some(_)] => {}
            [None, _] => return Err(Refusal::NoKing(Color::White)),
            [_, None] => return Err(Refusal::NoKing(Color::Black)),
        }
        if count > NNUE_MAX_PIECES {
            return Err(Refusal::TooManyPieces(count));
        }
        Ok(())
    }

    /// Makes on this board the move of `changes`, which [`Board::check`]
    /// accepted: every piece leaves, then every piece lands. The stack keeps
    /// one board, made and unmade in place (a copy per level cost more than
    /// the move: two pushes a move in Stockfish's search, each a call to
    /// `memcpy`).
    pub(crate) fn make(&mut self, changes: &[PieceChange]) {
        for c in changes.iter().filter(|c| c.from != NNUE_NO_SQUARE) {
            self.lift(c.piece, c.from);
        }
        for c in changes.iter().filter(|c| c.to != NNUE_NO_SQUARE) {
            self.land(c.piece, c.to);
        }
    }

    /// Unmakes the move of `changes`, the last one [`Board::make`] made:
    /// every piece leaves where it landed, then lands where it was.
    pub(crate) fn unmake(&mut self, changes: &[PieceChange]) {
        for c in changes.iter().filter(|c| c.to != NNUE_NO_SQUARE) {
            self.lift(c.piece, c.to);
        }
        for c in changes.iter().filter(|c| c.from != NNUE_NO_SQUARE) {
            self.land(c.piece, c.from);
        }
    }

    /// Takes the piece of `code` from `square` (0..=63), where it is.
    #[inline]
    fn lift(&mut self, code: u8, square: u8) {
        self.squares[usize::from(square)] = EMPTY;
        // A piece code is its bitboard's index among the twelve.
        self.bitboards.as_flattened_mut()[usize::from(code)] ^= 1 << square;
        self.count -= 1;
    }

    /// Puts the piece of `code` on the empty `square` (0..=63).
    #[inline]
    fn land(&mut self, code: u8, square: u8) {
        self.squares[usize::from(square)] = code;
        self.bitboards.as_flattened_mut()[usize::from(code)] ^= 1 << square;
        self.count += 1;
        if code % 6 == PieceKind::King as u8
            && let Some(to) = Square::new(square)
        {
            self.kings[usize::from(code / 6)] = to;
        }
    }

    /// Change `i` as the runtime's, if its codes are in range and it
    /// leaves or lands somewhere.
    fn change(i: usize, c: &PieceChange) -> Result<nnue::runtime::PieceChange, Refusal> {
        let Some(piece) = piece(c.piece) else {
            return Err(Refusal::Piece(i, c.piece));
        };
        let square = |s: u8| match s {
            NNUE_NO_SQUARE => Ok(None),
            _ => Square::new(s).map(Some).ok_or(Refusal::Square(i, s)),
        };
        let (from, to) = (square(c.from)?, square(c.to)?);
        if from.is_none() && to.is_none() {
            return Err(Refusal::Neither(i));
        }
        Ok(nnue::runtime::PieceChange { piece, from, to })
    }

    /// The position with `side` to move.
    pub(crate) fn to_move(&self, side: Color) -> ToMove<'_> {
        ToMove { board: self, side }
    }
}

/// Why [`Board::check`] refuses a move: small, its message made only
/// when it happens.
#[derive(Debug, Clone, Copy)]
enum Refusal {
    /// More changes than `NNUE_MAX_CHANGES`.
    TooManyChanges(usize),
    /// Change `i`'s piece code is out of range.
    Piece(usize, u8),
    /// Change `i` has a square out of range.
    Square(usize, u8),
    /// Change `i` neither leaves nor lands on a square.
    Neither(usize),
    /// Change `i` removes its piece from a square that does not hold it.
    NotOn(usize, u8, u8),
    /// Change `i` lands on a square that is taken.
    Taken(usize, Square),
    /// Change `i` lands a second king of its side.
    SecondKing(usize, Color),
    /// A side has no king after the move.
    NoKing(Color),
    /// The number of pieces after the move, too many.
    TooManyPieces(usize),
}

impl Refusal {
    /// The failure, with its message.
    #[cold]
    #[inline(never)]
    fn failure(self) -> Failure {
        match self {
            Refusal::TooManyChanges(n) => {
                Failure::new(Error::TooManyChanges, format!("{n} changes, at most {NNUE_MAX_CHANGES}"))
            }
            Refusal::Piece(i, code) => {
                Failure::new(Error::Piece, format!("change {i}: piece code {code} is not 0..=11"))
            }
            Refusal::Square(i, s) => {
                Failure::new(Error::Square, format!("change {i}: square {s} is not 0..=63 nor NNUE_NO_SQUARE (64)"))
            }
            Refusal::Neither(i) => Failure::new(Error::BadChange, format!("change {i}: neither from nor to a square")),
            Refusal::NotOn(i, code, from) => {
                Failure::new(Error::BadChange, format!("change {i}: piece {code} is not on square {from}"))
            }
            Refusal::Taken(i, to) => {
                Failure::new(Error::Occupied, format!("change {i}: square {} is taken", to.index()))
            }
            Refusal::SecondKing(i, color) => Failure::new(Error::Kings, format!("change {i}: a second {color:?} king")),
            Refusal::NoKing(Color::White) => Failure::new(Error::Kings, "white has no king"),
            Refusal::NoKing(Color::Black) => Failure::new(Error::Kings, "black has no king"),
            Refusal::TooManyPieces(count) => {
                Failure::new(Error::TooManyPieces, format!("{count} pieces after the move, at most {NNUE_MAX_PIECES}"))
            }
        }
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
