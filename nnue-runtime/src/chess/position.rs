//! How an engine describes a position to a network.

/// A side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for white, 1 for black.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A square, `a1 = 0`, `b1 = 1`, ..., `h8 = 63`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with this index, if it is below 64.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 { Some(Square(index)) } else { None }
    }

    /// The square on `file` (0 = a) and `rank` (0 = 1), both below 8.
    #[inline]
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 { Some(Square(rank * 8 + file)) } else { None }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 = file a.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// 0 = rank 1.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// This square with `mask` XORed into its index (`56` flips ranks,
    /// `7` flips files, `63` rotates by 180 degrees).
    #[inline]
    pub const fn xor(self, mask: u8) -> Square {
        Square((self.0 ^ mask) & 63)
    }
}

/// A kind of piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PieceKind {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl PieceKind {
    /// Every kind, in the order of their values.
    pub const ALL: [PieceKind; 6] =
        [PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen, PieceKind::King];
}

/// A piece: a kind and a colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: PieceKind,
}

impl Piece {
    /// Its code `6 * colour + kind` (0..=11), kinds in [`PieceKind`]
    /// order: how boards of codes, threat keys and feature tables number
    /// pieces.
    #[inline]
    pub fn code(self) -> usize {
        6 * self.color.index() + self.kind as usize
    }
}

/// A board as bitboards, `[color index][kind]`, bit `i` for the square of
/// index `i` ([`Position::bitboards`]).
pub type Bitboards = [[u64; 6]; 2];

/// The squares a board's pieces occupy.
#[inline]
pub(crate) fn occupied(board: &Bitboards) -> u64 {
    board.iter().flatten().fold(0, |o, b| o | b)
}

/// The code `6 * colour + kind` (kinds in [`PieceKind`] order) of the piece
/// on each square of a board, in bit planes: black's pieces, and the three
/// bits of the kind, so that a square's piece is read without a branch (an
/// empty square reads as a white pawn: the caller knows which are occupied).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PieceCodes {
    black: u64,
    kind_bits: [u64; 3],
}

impl PieceCodes {
    pub(crate) fn new(board: &Bitboards) -> PieceCodes {
        let mut codes = PieceCodes { black: 0, kind_bits: [0; 3] };
        for (kind, (&white, &black)) in board[0].iter().zip(&board[1]).enumerate() {
            codes.black |= black;
            for (bit, plane) in codes.kind_bits.iter_mut().enumerate() {
                *plane |= (white | black) & 0u64.wrapping_sub((kind >> bit & 1) as u64);
            }
        }
        codes
    }

    /// The piece of `code`.
    #[inline]
    pub(crate) fn piece(code: usize) -> Piece {
        Piece { color: if code < 6 { Color::White } else { Color::Black }, kind: PieceKind::ALL[code % 6] }
    }

    /// The code of the piece on the square of index `square`.
    #[inline]
    pub(crate) fn code(&self, square: usize) -> usize {
        let bit = |plane: u64| (plane >> square & 1) as usize;
        6 * bit(self.black) + bit(self.kind_bits[0]) + 2 * bit(self.kind_bits[1]) + 4 * bit(self.kind_bits[2])
    }
}

/// What a network needs to know of a position. Engines implement this for
/// their board type (the `shakmaty` feature implements it for
/// `shakmaty::Chess`).
pub trait Position {
    /// The side to move.
    fn side_to_move(&self) -> Color;
    /// The square of `color`'s king.
    fn king_square(&self, color: Color) -> Square;
    /// Calls `f` for every piece on the board, kings included.
    fn for_each_piece(&self, f: impl FnMut(Square, Piece));
    /// Number of pieces on the board, kings included.
    fn piece_count(&self) -> usize {
        let mut n = 0;
        self.for_each_piece(|_, _| n += 1);
        n
    }
    /// The pieces as bitboards, `[color index][kind]`, bit `i` for the
    /// square of index `i`. Boards kept as bitboards should override this:
    /// the refresh cache compares positions with it, and the piece-square
    /// feature sets list a refresh's features from it.
    fn bitboards(&self) -> Bitboards {
        let mut bitboards = [[0; 6]; 2];
        self.for_each_piece(|square, piece| bitboards[piece.color.index()][piece.kind as usize] |= 1 << square.index());
        bitboards
    }
}
