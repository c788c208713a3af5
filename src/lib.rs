//! nnue: compile NNUE chess-evaluation architectures, described in RON, into
//! specialised Rust code that loads Stockfish `.nnue` files and evaluates
//! positions bit-exactly as Stockfish does.
//!
//! ```no_run
//! nnue::nnue!(include "sfnnv9.ron"); // a shipped architecture, or a path
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let net = sfnnv9::Network::from_file("nn-1c0000000000.nnue")?;
//! let board = nnue::runtime::Board::new(
//!     nnue::runtime::Color::White,
//!     [("e1", "K"), ("e8", "k"), ("d1", "Q")].map(|(s, p)| square_piece(s, p)),
//! )?;
//! let eval = net.evaluate(&board); // any impl nnue::runtime::Position
//! println!("bucket {} psqt {} positional {} value {}", eval.bucket, eval.psqt, eval.positional, eval.value);
//! # Ok(())
//! # }
//! # fn square_piece(s: &str, p: &str) -> (nnue::runtime::Square, nnue::runtime::Piece) {
//! #     use nnue::runtime::{Color, Piece, PieceKind, Square};
//! #     let b = s.as_bytes();
//! #     let square = Square::from_file_rank(b[0] - b'a', b[1] - b'1').unwrap();
//! #     let kind = match p.to_ascii_lowercase().as_str() { "k" => PieceKind::King, _ => PieceKind::Queen };
//! #     let color = if p.chars().all(|c| c.is_ascii_uppercase()) { Color::White } else { Color::Black };
//! #     (square, Piece { color, kind })
//! # }
//! ```

pub use nnue_macros::nnue;
/// The runtime that generated code calls (and engines use for positions,
/// errors and results).
pub use nnue_runtime as runtime;
