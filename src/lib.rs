//! nnue: compile NNUE chess-evaluation architectures, described in RON, into
//! specialised Rust code that loads Stockfish `.nnue` files and evaluates
//! positions bit-exactly as Stockfish does.
//!
//! ```ignore
//! nnue::nnue!(include "sfnnv9.ron"); // a shipped architecture, or a path
//! let net = sfnnv9::Network::from_file("nn-1c0000000000.nnue")?;
//! let eval = net.evaluate(&position); // position: impl nnue::runtime::Position
//! ```

pub use nnue_macros::nnue;
/// The runtime that generated code calls (and engines use for positions,
/// errors and results).
pub use nnue_runtime as runtime;
