//! `nnue`: evaluate positions with a Stockfish net, describe nets.

mod archs;
mod eval;
mod info;
mod position;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "nnue", version, about = "Evaluate chess positions with Stockfish NNUE nets, bit-exactly")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Evaluate positions; prints a TSV row per position.
    Eval {
        /// The .nnue file; its architecture is found by its header hash.
        #[arg(long)]
        net: PathBuf,
        /// One position.
        #[arg(long, conflicts_with = "fens", required_unless_present = "fens")]
        fen: Option<String>,
        /// A file with one FEN per line (blank lines and `#` comments skipped).
        #[arg(long)]
        fens: Option<PathBuf>,
        /// The kernel backend.
        #[arg(long, default_value = "scalar")]
        isa: String,
    },
    /// Describe a net file: architecture, version, hashes, description, sizes.
    Info {
        #[arg(long)]
        net: PathBuf,
    },
}

/// The backends this build has (later: SIMD ones, chosen at run time).
const ISAS: &[&str] = &["scalar"];

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Eval { net, fen, fens, isa } => {
            check_isa(&isa).and_then(|()| eval::run(&net, fen.as_deref(), fens.as_deref()))
        }
        Command::Info { net } => info::run(&net),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("nnue: {message}");
            ExitCode::FAILURE
        }
    }
}

fn check_isa(isa: &str) -> Result<(), String> {
    if ISAS.contains(&isa) {
        Ok(())
    } else {
        Err(format!("unknown or unavailable --isa `{isa}` (this build has: {})", ISAS.join(", ")))
    }
}
