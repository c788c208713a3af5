//! Evaluate a position with a Stockfish 17.1 net, the way an engine would.
//!
//! ```text
//! python3 tools/fetch-nets.py nn-1c0000000000
//! cargo run --release --example evaluate -- .cache/nets/nn-1c0000000000.nnue "<FEN>"
//! ```

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

// The shipped SFNNv9 architecture (Stockfish 17.1's big net).
nnue::nnue!(include "sfnnv9.ron");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let net_path = args.next().ok_or("usage: evaluate NET.nnue [FEN]")?;
    let fen = args.next().unwrap_or_else(|| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_owned());

    let network = sfnnv9::Network::from_file(&net_path)?;
    let position: Chess = Fen::from_ascii(fen.as_bytes())?.into_position(CastlingMode::Standard)?;

    // From scratch: both accumulators, then the selected layer stack.
    let eval = network.evaluate(&position);
    println!("{fen}");
    println!(
        "bucket {}  psqt {}  positional {}  value {} (internal units, side to move)",
        eval.bucket, eval.psqt, eval.positional, eval.value
    );

    // The same through an accumulator the engine keeps.
    let mut accumulator = Box::new(sfnnv9::Accumulator::default());
    network.refresh(&position, &mut accumulator);
    use nnue::Position as _;
    let again = network.evaluate_accumulator(&accumulator, position.side_to_move(), position.piece_count());
    assert_eq!(again, eval);
    Ok(())
}
