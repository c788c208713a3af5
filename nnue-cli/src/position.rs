//! FEN parsing through shakmaty.

use nnue::runtime::{Board, Color, Position};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// Parses a FEN into a board. Positions shakmaty deems impossible only for
/// their castling rights, en-passant square, material or checks are
/// accepted, as Stockfish accepts them; a FEN without one king a side is not.
pub fn parse(fen: &str) -> Result<Board, String> {
    let setup = Fen::from_ascii(fen.trim().as_bytes()).map_err(|e| format!("bad FEN `{fen}`: {e}"))?;
    let chess: Chess = setup
        .into_position(CastlingMode::Standard)
        .or_else(|e| e.ignore_invalid_castling_rights())
        .or_else(|e| e.ignore_invalid_ep_square())
        .or_else(|e| e.ignore_too_much_material())
        .or_else(|e| e.ignore_impossible_check())
        .map_err(|e| format!("bad FEN `{fen}`: {e}"))?;
    Board::from_position(&chess).map_err(|e| format!("bad FEN `{fen}`: {e}"))
}

/// `w` or `b`.
pub fn side(board: &Board) -> &'static str {
    match board.side_to_move() {
        Color::White => "w",
        Color::Black => "b",
    }
}
