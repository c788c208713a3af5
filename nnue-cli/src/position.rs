//! FEN parsing through shakmaty.

use nnue::runtime::{Board, Color, Position};

/// Parses a FEN into a board (as leniently as Stockfish).
pub fn parse(fen: &str) -> Result<Board, String> {
    let chess = nnue::runtime::shakmaty::chess_from_fen(fen).map_err(|e| format!("bad FEN `{fen}`: {e}"))?;
    Board::from_position(&chess).map_err(|e| format!("bad FEN `{fen}`: {e}"))
}

/// `w` or `b`.
pub fn side(board: &Board) -> &'static str {
    match board.side_to_move() {
        Color::White => "w",
        Color::Black => "b",
    }
}
