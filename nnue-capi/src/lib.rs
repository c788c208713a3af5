//! A C API for nnue: load a net of any architecture shipped with nnue,
//! keep an accumulator stack per search thread, evaluate. Built as a
//! static and a shared library (`libnnue_capi.a`, `libnnue_capi.so`); the
//! header is `include/nnue.h` (generated from this crate by cbindgen and
//! checked by `tests/header.rs`).
//!
//! ```c
//! const nnue_net *net;
//! nnue_stack *stack;
//! if (nnue_net_load_file("nn-37f18f62d772.nnue", NULL, NULL, 0, &net) != NNUE_OK)
//!     fprintf(stderr, "%s\n", nnue_last_error());
//! nnue_stack_new(net, &stack);          /* one per search thread */
//! nnue_stack_reset(stack, pieces, n);   /* the root: its pieces */
//! nnue_stack_push(stack, changes, k);   /* make a move: the pieces it changed */
//! nnue_stack_evaluate(stack, NNUE_BLACK, &eval);
//! nnue_stack_pop(stack);                /* unmake it */
//! ```
//!
//! An engine with several nets (Stockfish's big and small) makes one stack
//! for all of them, `nnue_stack_new_multi`, so that each move is checked
//! and pushed once, and evaluates with `nnue_stack_evaluate_net`.
//!
//! # Errors
//!
//! Every function returns an `int`: `NNUE_OK` (0) or an `enum nnue_error`
//! code, with `nnue_error_message(code)` a line saying what it means and
//! `nnue_last_error()` the detail of the calling thread's last failure. A
//! failed call changes nothing. Bad input is a code, never undefined
//! behaviour, when it can be seen: NULL or misaligned pointers, strings
//! that are not UTF-8, squares and piece codes out of range, two pieces on
//! a square, a side without exactly one king, more than 32 pieces, more
//! than 3 changes in a move, a change removing a piece that is not where it
//! says, a pop with nothing pushed, a buffer too short. (A pointer to
//! freed or too little memory cannot be seen.) Nothing panics or aborts
//! across the boundary: a panic (a bug) is caught and returned as
//! `NNUE_ERROR_PANIC`.
//!
//! # Threads
//!
//! A `nnue_net` is read-only once loaded: any number of threads may use
//! one at once (making stacks, reading its facts). It is reference
//! counted; every stack made from it holds what it needs of it, so the net
//! may be released while its stacks live. A `nnue_stack` belongs to one
//! thread at a time: it may move between threads but is never used by two
//! at once. The functions keep no other state than the calling thread's
//! last error text.
//!
//! # Positions and moves
//!
//! A square is 0..=63 (a1 = 0, b1 = 1, ..., h8 = 63); a piece code is
//! `6 * colour + kind` (white 0, black 1; pawn 0, knight, bishop, rook,
//! queen, king 5). A stack keeps the board at each of its levels, so it
//! checks every move's changes against the board before it takes them.
//! The side to move is given to each evaluation (a null move pushes
//! nothing, or an empty move).

/// The shipped architectures' modules as `nnue!` makes them (for tests).
#[doc(hidden)]
pub mod archs;
mod args;
mod board;
mod erased;
mod error;
mod guard;
mod load;
mod net;
mod stack;
mod types;

pub use error::{Error, Failure, NNUE_OK, nnue_error_message, nnue_last_error};
pub use net::{
    Net, nnue_net_arch_name, nnue_net_buckets, nnue_net_description, nnue_net_isa_name, nnue_net_load_file,
    nnue_net_load_memory, nnue_net_release, nnue_net_retain,
};
pub use stack::{
    Stack, nnue_stack_evaluate, nnue_stack_evaluate_buckets, nnue_stack_evaluate_net, nnue_stack_free, nnue_stack_new,
    nnue_stack_new_multi, nnue_stack_ply, nnue_stack_pop, nnue_stack_push, nnue_stack_reset,
};
pub use types::{
    Eval, NNUE_BLACK, NNUE_LOAD_ALLOW_OVERFLOW, NNUE_MAX_CHANGES, NNUE_MAX_NETS, NNUE_MAX_PIECES, NNUE_MAX_PLY,
    NNUE_NO_SQUARE, NNUE_WHITE, PieceChange, PieceOn,
};
