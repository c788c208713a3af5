//! nnue: compile NNUE chess-evaluation architectures, described in RON, into
//! specialised Rust code that loads Stockfish `.nnue` files and evaluates
//! positions bit-exactly as Stockfish does.
//!
//! [`nnue!`] expands an architecture file into a module: constants, the
//! accumulator type, and a `Network` that loads net files of that
//! architecture, with kernels for every SIMD backend chosen at run time.
//! The crate root holds what an engine uses with it: positions, moves,
//! the accumulator stack, evaluations, backends and load errors;
//! [`runtime`] adds what tools use (nets of any architecture, the
//! overflow proof, net files).
//!
//! # Evaluating a position
//!
//! ```
//! nnue::nnue!(include "sfnnv9-small.ron"); // a shipped architecture, or a path to your own
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // An engine loads a Stockfish net: `sfnnv9_small::Network::from_file("nn-37f18f62d772.nnue")?`.
//! // A random net of the same architecture keeps this example self-contained.
//! let net = sfnnv9_small::Network::from_bytes(&sfnnv9_small::random_net_file(1))?;
//!
//! // Any `nnue::Position`; shakmaty's `Chess` is one (this crate's feature `shakmaty`).
//! let pos = nnue::shakmaty::chess_from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")?;
//! let eval = net.evaluate(&pos);
//! assert_eq!(eval.bucket, 7); // 32 pieces: layer stack (32 - 1) / 4
//! println!("psqt {} positional {} value {}", eval.psqt, eval.positional, eval.value);
//! # Ok(())
//! # }
//! ```
//!
//! # Choosing a backend; the overflow proof
//!
//! A net loads for the backend `NNUE_ISA` names, else the best this CPU
//! runs; [`LoadOptions`] picks one (a backend the CPU lacks is an
//! error, never SIGILL). Every backend gives the same values. Loading also
//! proves that no integer the net computes can overflow in any legal
//! position, and refuses a net for which that fails unless told otherwise.
//!
//! ```
//! # nnue::nnue!(include "sfnnv9-small.ron");
//! use nnue::{Isa, LoadError, LoadOptions};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = sfnnv9_small::random_net_file(1);
//! let scalar = sfnnv9_small::Network::from_bytes_with(&bytes, LoadOptions::isa(Isa::Scalar))?;
//! let best = sfnnv9_small::Network::from_bytes_with(&bytes, LoadOptions::isa(Isa::best()))?;
//! let pos = shakmaty::Chess::default();
//! assert_eq!(scalar.evaluate(&pos), best.evaluate(&pos));
//!
//! // The bounds, with the tightest lane, king square or output of each value.
//! for bound in best.overflow_proof().bounds() {
//!     println!("{:<24} {} {:>24} margin {:>11} at {}", bound.value, bound.ty, bound.range, bound.margin(), bound.tightest);
//! }
//!
//! // A last layer whose bias sits next to i32::MAX can overflow: refused, with
//! // the value and where it overflows named.
//! let mut bad = bytes.clone();
//! let bias = bad.len() - 32 - 4; // fc_2's i32 bias, then its 32 weights, end the file
//! bad[bias..bias + 4].copy_from_slice(&(i32::MAX - 100).to_le_bytes());
//! match sfnnv9_small::Network::from_bytes(&bad) {
//!     Err(LoadError::Overflow { value, at, .. }) => assert_eq!((value.as_str(), at.as_str()), ("fc_2 sums", "layer stack 7, output 0")),
//!     other => panic!("expected an overflow error, got {:?}", other.err()),
//! }
//! let allowed = LoadOptions { allow_overflow: true, ..LoadOptions::default() };
//! assert!(!sfnnv9_small::Network::from_bytes_with(&bad, allowed)?.overflow_proof().holds());
//! # Ok(())
//! # }
//! ```
//!
//! # In a search
//!
//! One [`AccumulatorStack`] per search thread, the network shared:
//! push what a move changes on make, pop on unmake, evaluate when needed.
//! Engine code can be generic over architectures through
//! [`Network`].
//!
//! ```
//! # nnue::nnue!(include "sfnnv9-small.ron");
//! use nnue::shakmaty::move_changes;
//! use nnue::{AccumulatorStack, Network, Position as _};
//! use shakmaty::Position as _;
//!
//! /// The values of every reply, through the stack; checked against fresh evaluations.
//! fn replies<N: Network>(net: &N, pos: &shakmaty::Chess, stack: &mut AccumulatorStack<N>) -> Vec<i32> {
//!     let mut values = Vec::new();
//!     for m in pos.legal_moves() {
//!         let changes = move_changes(pos, &m); // the pieces the move moves, captures, promotes
//!         let child = pos.clone().play(m).unwrap();
//!         stack.push(&changes);
//!         let value = stack.evaluate(net, &child).value;
//!         let mut fresh = N::Accumulator::default();
//!         net.refresh(&child, &mut fresh);
//!         assert_eq!(value, net.evaluate_accumulator(&fresh, child.side_to_move(), child.piece_count()).value);
//!         values.push(value);
//!         stack.pop();
//!     }
//!     values
//! }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let net = sfnnv9_small::Network::from_bytes(&sfnnv9_small::random_net_file(1))?;
//! let root = shakmaty::Chess::default();
//! let mut stack = AccumulatorStack::new(&net);
//! stack.reset(&root);
//! assert_eq!(replies(&net, &root, &mut stack).len(), 20);
//! # Ok(())
//! # }
//! ```

pub use nnue_macros::nnue;

/// [`Position`] for shakmaty's positions, FEN parsing and a move's changes
/// (feature `shakmaty`).
#[cfg(feature = "shakmaty")]
pub use nnue_runtime::shakmaty;
pub use nnue_runtime::{
    AccumulatorStack, Bitboards, Board, BoardError, BucketValues, Color, Evaluation, Isa, IsaError, LoadError,
    LoadOptions, MoveChanges, Network, Piece, PieceChange, PieceKind, Position, RefreshCache, Square,
};

/// The runtime in full, for tools: networks of any architecture
/// ([`runtime::AnyNetwork`]), the overflow proof, net files.
pub use nnue_runtime as runtime;

/// What the code `nnue!` generates calls; not an API.
#[doc(hidden)]
pub use nnue_runtime as __private;

/// `for_each_shipped_arch!(callback)`: `callback! { ... }` with one entry
/// per architecture shipped in `archs/` (the module `nnue!` makes of it, the
/// file, its text, whether it implements [`Network`]); what the `nnue`
/// command compiles in and the repository's tests iterate. See
/// `nnue_macros::for_each_shipped_arch`.
#[doc(hidden)]
pub use nnue_macros::for_each_shipped_arch;
