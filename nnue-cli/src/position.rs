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

/// The FENs of a file, one per line (blank lines and `#` comments skipped;
/// on a line with tabs, the first field), each with `file:line`.
pub fn read_fens(file: &std::path::Path) -> Result<Vec<(String, String)>, String> {
    Ok(std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| (format!("{}:{}", file.display(), i + 1), l.split('\t').next().unwrap_or(l).trim().to_owned()))
        .collect())
}
