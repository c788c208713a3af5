//! Reckless's `nnue` module answered by the `nnue` crate: copied over Reckless's `src/nnue.rs`
//! (e8bbd18) by `tools/reckless-search/search.py`, which deletes `src/nnue/`. The functions
//! Reckless's search calls keep their names: `Network::default`, `push` (before the board makes
//! the move), `pop` (after it unmakes it), `refresh` (the root) and `evaluate` (the raw network
//! output, side to move's view; Reckless's own scaling in `evaluate.rs` is unchanged).
//!
//! With the feature `nnue-check` (the script's check build), Reckless's own module, kept as
//! `crate::nnue_reckless`, runs alongside and every evaluation is compared with it.

use std::sync::LazyLock;

use nnue::{AccumulatorStack, MoveChanges, PieceChange};

use crate::{
    board::Board,
    types::{Color, Move, Piece, PieceType, Square},
};

nnue::nnue!(include "bullet/reckless-v30.ron");

type Net = reckless_v30::Network;

/// The net Reckless embeds (its build script sets `MODEL`), loaded when the program starts
/// (`LOAD_AT_START`).
static NETWORK: LazyLock<Net> = LazyLock::new(|| {
    Net::from_bytes(include_bytes!(env!("MODEL"))).unwrap_or_else(|e| panic!("{}: {e}", env!("MODEL")))
});

/// Loads the net when the program starts, before `main`, from the ELF initialiser list: Reckless's
/// own net is ready in its binary from the start, and an engine loads its net at start-up, so
/// neither a search nor `bench` (whose clock starts before its first search's `Network::default`)
/// waits for the load. Without it, the load (copying the weights and the overflow proof, about 2 %
/// of a `bench` run in a profile) fell inside the bench's timed region.
#[used]
#[unsafe(link_section = ".init_array")]
static LOAD_AT_START: extern "C" fn() = {
    extern "C" fn load() {
        LazyLock::force(&NETWORK);
    }
    load
};

/// One search thread's accumulators.
pub struct Network {
    net: &'static Net,
    stack: AccumulatorStack<Net>,
    #[cfg(feature = "nnue-check")]
    reckless: crate::nnue_reckless::Network,
}

impl Default for Network {
    fn default() -> Self {
        let net = &*NETWORK;
        Self {
            net,
            stack: AccumulatorStack::new(net),
            #[cfg(feature = "nnue-check")]
            reckless: Default::default(),
        }
    }
}

impl Network {
    /// Before `board` makes `mv`.
    pub fn push(&mut self, mv: Move, board: &Board) {
        self.stack.push(&changes(mv, board));
        #[cfg(feature = "nnue-check")]
        self.reckless.push(mv, board);
    }

    pub fn pop(&mut self) {
        self.stack.pop();
        #[cfg(feature = "nnue-check")]
        self.reckless.pop();
    }

    /// At the root.
    pub fn refresh(&mut self, board: &Board) {
        self.stack.reset(board);
        #[cfg(feature = "nnue-check")]
        self.reckless.refresh(board);
    }

    pub fn evaluate(&mut self, board: &Board) -> i32 {
        let value = self.stack.evaluate(self.net, board).value;
        #[cfg(feature = "nnue-check")]
        check::equal(value, self.reckless.evaluate(board), board);
        value
    }
}

/// The pieces `mv` moves, captures and promotes on `board` (before it is made).
fn changes(mv: Move, board: &Board) -> MoveChanges {
    let (from, to) = (mv.from(), mv.to());
    let moving = board.piece_on(from);
    let us = moving.piece_color();
    let mut changes = MoveChanges::default();
    let mut change = |piece, from: Option<Square>, to: Option<Square>| {
        changes.push(PieceChange { piece: piece_of(piece), from: from.map(square), to: to.map(square) })
    };
    if mv.is_castling() {
        let (rook_from, rook_to) = Board::get_castling_rook(to);
        change(moving, Some(from), Some(to));
        change(Piece::new(us, PieceType::Rook), Some(rook_from), Some(rook_to));
        return changes;
    }
    if mv.is_en_passant() {
        change(Piece::new(!us, PieceType::Pawn), Some(Square::new(to as u8 ^ 8)), None);
    } else if board.piece_on(to) != Piece::None {
        change(board.piece_on(to), Some(to), None);
    }
    match mv.promotion_piece() {
        Some(kind) => {
            change(moving, Some(from), None);
            change(Piece::new(us, kind), None, Some(to));
        }
        None => change(moving, Some(from), Some(to)),
    }
    changes
}

fn color(color: Color) -> nnue::Color {
    match color {
        Color::White => nnue::Color::White,
        Color::Black => nnue::Color::Black,
    }
}

fn square(square: Square) -> nnue::Square {
    nnue::Square::new(square as u8 & 63).unwrap()
}

fn piece_of(piece: Piece) -> nnue::Piece {
    nnue::Piece { color: color(piece.piece_color()), kind: nnue::PieceKind::ALL[piece.piece_type() as usize] }
}

impl nnue::Position for Board {
    fn side_to_move(&self) -> nnue::Color {
        color(Board::side_to_move(self))
    }

    fn king_square(&self, side: nnue::Color) -> nnue::Square {
        square(Board::king_square(self, if side == nnue::Color::White { Color::White } else { Color::Black }))
    }

    fn for_each_piece(&self, mut f: impl FnMut(nnue::Square, nnue::Piece)) {
        for sq in self.occupancies() {
            f(square(sq), piece_of(self.piece_on(sq)));
        }
    }

    fn piece_count(&self) -> usize {
        self.occupancies().len()
    }

    fn bitboards(&self) -> nnue::Bitboards {
        let mut bitboards = [[0; 6]; 2];
        for (side, boards) in [Color::White, Color::Black].into_iter().zip(&mut bitboards) {
            for (kind, board) in boards.iter_mut().enumerate() {
                *board = self.of(PieceType::new(kind), side).0;
            }
        }
        bitboards
    }
}

#[cfg(feature = "nnue-check")]
mod check {
    use std::sync::atomic::{AtomicU64, Ordering};

    static CHECKED: AtomicU64 = AtomicU64::new(0);

    /// Panics with the position unless both evaluations are equal.
    pub fn equal(ours: i32, reckless: i32, board: &super::Board) {
        if ours != reckless {
            panic!("nnue-check: {} evaluates to {ours} here, {reckless} in Reckless", board.to_fen());
        }
        CHECKED.fetch_add(1, Ordering::Relaxed);
    }

    /// When a search thread's data is dropped (in `bench`, after each position).
    impl Drop for super::Network {
        fn drop(&mut self) {
            eprintln!("nnue-check: {} evaluations equal so far", CHECKED.load(Ordering::Relaxed));
        }
    }
}
