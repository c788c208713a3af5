//! `nnue`: evaluate positions with a Stockfish or bullet net, describe nets
//! and architecture files.
//!
//! The binary is [`main_with`] over the shipped architectures. A net whose
//! architecture file is not one of them runs in a binary built once for
//! that file ([`own_arch`]): the same commands with that architecture
//! compiled in besides, through [`compiled!`].

mod arch_info;
mod archs;
mod bench;
mod eval;
mod expand;
mod incremental;
mod info;
mod own_arch;
mod position;
mod registry;
mod walk;

pub use registry::{Compiled, Incremental, Timing};

/// What [`compiled!`] expands to names.
#[doc(hidden)]
pub mod __private {
    pub use nnue::runtime::AnyNetwork;
}

use clap::{Parser, Subcommand};
use nnue::runtime::{Isa, LoadOptions};
use registry::Registry;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `nnue --version`: the package version and the commit built from (see
/// `build.rs`), which the comparison tools put in their tables.
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("NNUE_BUILD_COMMIT"), ")");

#[derive(Parser)]
#[command(name = "nnue", version = VERSION, about = "Evaluate chess positions with Stockfish and bullet NNUE nets, bit-exactly")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Load a net even if its overflow proof fails (some value can then wrap
    /// around in some position; `nnue info --net` shows where).
    #[arg(long, global = true)]
    allow_overflow: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Evaluate positions; prints a TSV row per position.
    Eval {
        /// The net file; a Stockfish net's architecture is found by its
        /// header hash.
        #[arg(long)]
        net: PathBuf,
        /// The net's architecture file: needed for a bullet net, which has no
        /// header to be recognised by. One of the shipped `archs/` or any
        /// other (built once into a cached binary, see `nnue help`).
        #[arg(long)]
        arch: Option<PathBuf>,
        /// One position.
        #[arg(long, conflicts_with = "fens", required_unless_present = "fens")]
        fen: Option<String>,
        /// A file with one FEN per line (blank lines and `#` comments skipped).
        #[arg(long)]
        fens: Option<PathBuf>,
        /// The kernel backend: scalar, avx2, avx-vnni, avx512, avx512-vnni
        /// (x86-64), neon, neon-dotprod (AArch64)
        /// (default: $NNUE_ISA, else the best this CPU runs).
        #[arg(long)]
        isa: Option<String>,
    },
    /// Time the operations of Stockfish's timing table (median ns per position).
    Bench {
        #[arg(long)]
        net: PathBuf,
        /// The net's architecture file: needed for a bullet net, which has no
        /// header to be recognised by. One of the shipped `archs/` or any
        /// other (built once into a cached binary, see `nnue help`).
        #[arg(long)]
        arch: Option<PathBuf>,
        /// One backend, or `all` for every one this CPU runs (default: as for `eval`).
        #[arg(long)]
        isa: Option<String>,
        /// Positions and moves, as `tests/reference/timing_moves.tsv` (default:
        /// that file's positions, built into the binary).
        #[arg(long)]
        moves: Option<PathBuf>,
        /// Timed passes over all positions (the median is reported).
        #[arg(long, default_value_t = 21)]
        runs: usize,
        /// Only these operations, comma-separated: refresh, refresh_hot, eval,
        /// forward, forward_listed, move, kingmove, update, walk.
        #[arg(long)]
        ops: Option<String>,
        /// Threads sharing the network for `walk`, each with its own stack
        /// (its column is then wall-clock ns per node over all threads).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// `move` makes and evaluates its move this many times inside one
        /// timing (the same work each time): for counting its instructions
        /// (tools/stockfish-compare/instructions.py), not for times.
        #[arg(long, default_value_t = 1)]
        repeat: usize,
        /// Also print, after the ns columns, how many positions each
        /// operation timed per pass (`<op> (positions)`; for `walk`, the
        /// positions walked from), to check another harness timed as many.
        #[arg(long)]
        positions: bool,
    },
    /// Walk the legal-move tree to DEPTH from each FEN, making and unmaking
    /// moves through an accumulator stack and evaluating every node. Prints a
    /// row per FEN, then `nodes=N mismatches=M nodes_per_sec=R`.
    Walk {
        #[arg(long)]
        net: PathBuf,
        /// The net's architecture file: needed for a bullet net, which has no
        /// header to be recognised by. One of the shipped `archs/` or any
        /// other (built once into a cached binary, see `nnue help`).
        #[arg(long)]
        arch: Option<PathBuf>,
        /// A file with one FEN per line (blank lines and `#` comments
        /// skipped; on a line with tabs, the first field).
        #[arg(long)]
        fens: PathBuf,
        #[arg(long)]
        depth: usize,
        /// The kernel backend (as for `eval`).
        #[arg(long)]
        isa: Option<String>,
        /// Also evaluate every node from scratch and count the nodes where
        /// the two differ (the rate then includes this).
        #[arg(long)]
        verify: bool,
    },
    /// Describe a net file (architecture, version, hashes, description,
    /// sizes, overflow proof), or with --arch alone an architecture file
    /// (layers, shapes, types, sizes, every backend's tiling and kernels, a
    /// diagram).
    Info {
        #[arg(long, required_unless_present = "arch")]
        net: Option<PathBuf>,
        /// An architecture (RON) file; with --net, the net's architecture
        /// (needed for a bullet net; any file, as for `eval`).
        #[arg(long)]
        arch: Option<PathBuf>,
        /// With --arch alone: the diagram as Graphviz dot.
        #[arg(long, requires = "arch", conflicts_with_all = ["svg", "net"])]
        dot: bool,
        /// With --arch alone: the diagram as SVG.
        #[arg(long, requires = "arch", conflicts_with = "net")]
        svg: bool,
        /// The kernel backend (as for `eval`).
        #[arg(long)]
        isa: Option<String>,
    },
    /// Print the Rust code generated for an architecture file, formatted (what
    /// `nnue!` expands to); with --isa, only that backend's kernel module.
    Expand {
        /// An architecture (RON) file.
        arch: PathBuf,
        /// scalar (the whole expansion, the default) or a SIMD backend.
        #[arg(long)]
        isa: Option<String>,
    },
}

/// The `nnue` command with the shipped architectures and `extra` (a
/// binary built for a user's architecture file passes it here).
pub fn main_with(extra: &'static [Compiled]) -> ExitCode {
    let cli = Cli::parse();
    let registry = Registry { shipped: archs::SHIPPED, extra };
    // An architecture file that is not compiled in: run the command in the
    // binary built for it.
    if let Some(arch) = cli.command.arch_of_net() {
        match registry.find(arch) {
            Ok(Some(_)) => {}
            Ok(None) => return own_arch::run(arch),
            Err(message) => return fail(&message),
        }
    }
    let registry = &registry;
    let allow_overflow = cli.allow_overflow;
    let options =
        |isa: Option<String>| choose_isa(isa.as_deref()).map(|isa| LoadOptions { isa: Some(isa), allow_overflow });
    let result = match cli.command {
        Command::Eval { net, arch, fen, fens, isa } => {
            options(isa).and_then(|o| eval::run(registry, &net, arch.as_deref(), o, fen.as_deref(), fens.as_deref()))
        }
        Command::Bench { net, arch, isa, moves, runs, ops, threads, repeat, positions } => {
            let isas = match isa.as_deref() {
                Some("all") => Ok(Isa::available()),
                other => choose_isa(other).map(|i| vec![i]),
            };
            isas.and_then(|isas| {
                bench::run(
                    registry,
                    &net,
                    arch.as_deref(),
                    &isas,
                    allow_overflow,
                    moves.as_deref(),
                    ops.as_deref(),
                    Timing { runs, threads, repeat: repeat.max(1) },
                    positions,
                )
            })
        }
        Command::Walk { net, arch, fens, depth, isa, verify } => {
            options(isa).and_then(|o| walk::run(registry, &net, arch.as_deref(), &fens, depth, o, verify))
        }
        Command::Info { net: Some(net), arch, isa, .. } => {
            options(isa).and_then(|o| info::run(registry, &net, arch.as_deref(), o))
        }
        Command::Info { arch: Some(arch), dot, svg, .. } => {
            let form = if dot {
                arch_info::Form::Dot
            } else if svg {
                arch_info::Form::Svg
            } else {
                arch_info::Form::Text
            };
            arch_info::run(&arch, form)
        }
        Command::Info { .. } => Err("give --net or --arch".to_owned()),
        Command::Expand { arch, isa } => expand::run(&arch, isa.as_deref()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => fail(&message),
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("nnue: {message}");
    ExitCode::FAILURE
}

impl Command {
    /// The architecture file of a command that loads a net with one.
    fn arch_of_net(&self) -> Option<&Path> {
        match self {
            Command::Eval { arch, .. } | Command::Bench { arch, .. } | Command::Walk { arch, .. } => arch.as_deref(),
            Command::Info { net: Some(_), arch, .. } => arch.as_deref(),
            Command::Info { net: None, .. } | Command::Expand { .. } => None,
        }
    }
}

/// `--isa`, else `NNUE_ISA`, else the best backend this CPU runs.
fn choose_isa(isa: Option<&str>) -> Result<Isa, String> {
    let chosen = match isa {
        Some(name) => Isa::from_name(name).and_then(Isa::require),
        None => Isa::from_env_or_best(),
    };
    chosen.map_err(|e| format!("--isa: {e}"))
}
