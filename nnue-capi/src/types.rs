//! The plain values that cross the boundary: pieces, piece changes,
//! evaluations, and the constants that bound them.

/// A square's number when a piece change has none: the piece appeared
/// (`from`) or disappeared (`to`).
pub const NNUE_NO_SQUARE: u8 = 64;

/// The most pieces a position may hold, kings included.
pub const NNUE_MAX_PIECES: usize = 32;

/// The most piece changes one move may make (a capture with promotion:
/// the pawn leaves, the captured piece leaves, the new piece appears;
/// castling: the king and the rook move).
pub const NNUE_MAX_CHANGES: usize = 3;

/// The most moves a stack holds above its root: a push beyond fails with
/// `NNUE_ERROR_STACK_FULL`.
pub const NNUE_MAX_PLY: usize = 1024;

/// The most nets one stack evaluates (`nnue_stack_new_multi`).
pub const NNUE_MAX_NETS: usize = 8;

/// The side to move: white.
pub const NNUE_WHITE: i32 = 0;

/// The side to move: black.
pub const NNUE_BLACK: i32 = 1;

/// Load flag: load a net even if its overflow proof fails (some value can
/// then wrap around in some position; see nnue's overflow proof).
pub const NNUE_LOAD_ALLOW_OVERFLOW: u32 = 1;

/// A piece on a square, for `nnue_stack_reset`.
///
/// `square`: 0..=63, a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
/// `piece`: 6 * colour + kind; colour white = 0, black = 1; kind pawn = 0,
/// knight = 1, bishop = 2, rook = 3, queen = 4, king = 5 (so white pawn 0,
/// white king 5, black pawn 6, black king 11).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PieceOn {
    pub square: u8,
    pub piece: u8,
}

/// What a move did to one piece, for `nnue_stack_push`: it left `from`
/// and landed on `to`; `from` is `NNUE_NO_SQUARE` for a piece that
/// appeared (a promotion's new piece), `to` for one that disappeared (the
/// captured piece, the promoted pawn). `piece` as in `nnue_piece`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PieceChange {
    pub piece: u8,
    pub from: u8,
    pub to: u8,
}

/// An evaluation, in the net's internal units, from the side to move's
/// view.
///
/// `bucket`: the layer stack (and PSQT bucket) used, chosen by the number
/// of pieces. `psqt`: the PSQT part, `(psqt[stm] - psqt[other]) / 2` (0 for
/// nets without PSQT). `positional`: the layer stack's output. `value`: what
/// the architecture's own engine returns from the two (for Stockfish 17.1
/// and later, `psqt / 16 + positional / 16`). Stockfish 18 blends `psqt`
/// and `positional` separately: both are given as they are.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Eval {
    pub bucket: i32,
    pub psqt: i32,
    pub positional: i32,
    pub value: i32,
}

impl From<nnue::runtime::Evaluation> for Eval {
    fn from(e: nnue::runtime::Evaluation) -> Eval {
        // A bucket is below the number of layer stacks, a handful.
        Eval { bucket: e.bucket as i32, psqt: e.psqt, positional: e.positional, value: e.value }
    }
}
