/*
 * nnue.h: the C API of nnue (the crate nnue-capi): load a net of an architecture shipped with
 * nnue, keep an accumulator stack per search thread, evaluate.
 *
 * Generated from nnue-capi's source by cbindgen (nnue-capi/cbindgen.toml); do not edit: change
 * the Rust and run `NNUE_BLESS=1 cargo test -p nnue-capi --test header`.
 *
 * Errors: every function returns NNUE_OK (0) or an `enum nnue_error` code; nnue_error_message()
 * says what a code means, nnue_last_error() what went wrong in the calling thread's last failed
 * call. A failed call changes nothing (out-parameters are left as they were). Bad input that can
 * be seen is a code, never undefined behaviour; nothing panics or aborts across the boundary.
 *
 * Threads: a nnue_net is read-only once loaded; any number of threads may use it at once. It is
 * reference counted (nnue_net_retain, nnue_net_release), and each stack made from it keeps what
 * it needs, so it may be released while its stacks live. A nnue_stack belongs to one thread at
 * a time: it may move between threads, but two threads never use one at once.
 *
 * Positions: a square is 0..=63 (a1 = 0, b1 = 1, ..., h8 = 63); a piece code is
 * 6 * colour + kind (white 0, black 1; pawn 0, knight 1, bishop 2, rook 3, queen 4, king 5).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef NNUE_H
#define NNUE_H

#include <stddef.h>
#include <stdint.h>

// What every function returns when it succeeds.
#define NNUE_OK 0

// A square's number when a piece change has none: the piece appeared
// (`from`) or disappeared (`to`).
#define NNUE_NO_SQUARE 64

// The most pieces a position may hold, kings included.
#define NNUE_MAX_PIECES 32

// The most piece changes one move may make (a capture with promotion:
// the pawn leaves, the captured piece leaves, the new piece appears;
// castling: the king and the rook move).
#define NNUE_MAX_CHANGES 3

// The most moves a stack holds above its root: a push beyond fails with
// `NNUE_ERROR_STACK_FULL`.
#define NNUE_MAX_PLY 1024

// The most nets one stack evaluates (`nnue_stack_new_multi`).
#define NNUE_MAX_NETS 8

// The side to move: white.
#define NNUE_WHITE 0

// The side to move: black.
#define NNUE_BLACK 1

// Load flag: load a net even if its overflow proof fails (some value can
// then wrap around in some position; see nnue's overflow proof).
#define NNUE_LOAD_ALLOW_OVERFLOW 1

// Why a call failed: every function returns `NNUE_OK` (0) or one of these.
// A call that fails changes nothing (a stack stays as it was), except
// `NNUE_ERROR_PANIC`, after which a stack must be reset.
typedef enum nnue_error {
    // A pointer argument is NULL (or not aligned for its type).
    NNUE_ERROR_NULL_POINTER = 1,
    // The net file cannot be read.
    NNUE_ERROR_IO = 2,
    // The net file is not a valid net of its architecture: truncated,
    // another version or hash, broken LEB128 blocks, trailing bytes.
    NNUE_ERROR_FORMAT = 3,
    // No shipped architecture has this name, or the net's header hash.
    NNUE_ERROR_UNKNOWN_ARCH = 4,
    // No backend has this name, or this CPU lacks it.
    NNUE_ERROR_ISA = 5,
    // The net's overflow proof fails (some value can wrap in some
    // position); `NNUE_LOAD_ALLOW_OVERFLOW` loads it anyway.
    NNUE_ERROR_OVERFLOW_PROOF = 6,
    // The architecture has no incremental accumulator, so no stack.
    NNUE_ERROR_NOT_INCREMENTAL = 7,
    // A square is not 0..=63 (nor `NNUE_NO_SQUARE` where that is allowed).
    NNUE_ERROR_SQUARE = 8,
    // A piece code is not 0..=11.
    NNUE_ERROR_PIECE = 9,
    // Two pieces on one square, or a piece moved onto an occupied one.
    NNUE_ERROR_OCCUPIED = 10,
    // A side has no king, or more than one.
    NNUE_ERROR_KINGS = 11,
    // More than `NNUE_MAX_PIECES` pieces.
    NNUE_ERROR_TOO_MANY_PIECES = 12,
    // More than `NNUE_MAX_CHANGES` piece changes in one move.
    NNUE_ERROR_TOO_MANY_CHANGES = 13,
    // A change that neither leaves nor lands on a square, or removes a
    // piece that is not on its `from` square.
    NNUE_ERROR_BAD_CHANGE = 14,
    // A pop with no move pushed since the reset.
    NNUE_ERROR_EMPTY_STACK = 15,
    // A push, pop or evaluation on a stack never reset (or reset by a panic).
    NNUE_ERROR_NOT_RESET = 16,
    // An output buffer too short.
    NNUE_ERROR_BUFFER = 17,
    // A string argument is not UTF-8.
    NNUE_ERROR_UTF8 = 18,
    // A bug in the library: a panic, caught at the boundary. The stack it
    // happened on must be reset.
    NNUE_ERROR_PANIC = 19,
    // A side to move that is neither 0 (white) nor 1 (black).
    NNUE_ERROR_SIDE = 20,
    // A push beyond `NNUE_MAX_PLY` moves from the reset.
    NNUE_ERROR_STACK_FULL = 21,
    // Unknown bits in a load call's `flags`.
    NNUE_ERROR_FLAGS = 22,
    // A stack asked for no net or more than `NNUE_MAX_NETS`, or a net
    // index that the stack does not have.
    NNUE_ERROR_NET_INDEX = 23,
} nnue_error;

// A loaded network (opaque): shared read-only by any number of threads,
// reference counted (`nnue_net_retain`, `nnue_net_release`); each stack
// made from it keeps it alive.
typedef struct nnue_net nnue_net;

// An accumulator stack (opaque): one per search thread, never used by two
// threads at once (it may move between threads). It keeps its nets alive.
typedef struct nnue_stack nnue_stack;

// A piece on a square, for `nnue_stack_reset`.
//
// `square`: 0..=63, a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
// `piece`: 6 * colour + kind; colour white = 0, black = 1; kind pawn = 0,
// knight = 1, bishop = 2, rook = 3, queen = 4, king = 5 (so white pawn 0,
// white king 5, black pawn 6, black king 11).
typedef struct nnue_piece {
    uint8_t square;
    uint8_t piece;
} nnue_piece;

// What a move did to one piece, for `nnue_stack_push`: it left `from`
// and landed on `to`; `from` is `NNUE_NO_SQUARE` for a piece that
// appeared (a promotion's new piece), `to` for one that disappeared (the
// captured piece, the promoted pawn). `piece` as in `nnue_piece`.
typedef struct nnue_change {
    uint8_t piece;
    uint8_t from;
    uint8_t to;
} nnue_change;

// An evaluation, in the net's internal units, from the side to move's
// view.
//
// `bucket`: the layer stack (and PSQT bucket) used, chosen by the number
// of pieces. `psqt`: the PSQT part, `(psqt[stm] - psqt[other]) / 2` (0 for
// nets without PSQT). `positional`: the layer stack's output. `value`: what
// the architecture's own engine returns from the two (for Stockfish 17.1
// and later, `psqt / 16 + positional / 16`). Stockfish 18 blends `psqt`
// and `positional` separately: both are given as they are.
typedef struct nnue_eval {
    int32_t bucket;
    int32_t psqt;
    int32_t positional;
    int32_t value;
} nnue_eval;

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

// A static, NUL-terminated line describing `code` (`"ok"` for `NNUE_OK`,
// `"unknown error code"` for a value that is no code). Never NULL.
const char *nnue_error_message(int code);

// What the last failed call on this thread said: the code's message and
// the detail (which argument, which square, the load error's text with
// its file offset). An empty string if no call on this thread has failed.
// The text belongs to the library and stays valid until the next failing
// call on this thread. Never NULL.
const char *nnue_last_error(void);

// Loads the net file at `path` (UTF-8).
//
// `arch`: the architecture's name (`"sfnnv10"`, `"sfnnv9-small"`,
// `"obsidian"`) or its file under nnue's `archs/` (`"bullet/obsidian.ron"`);
// NULL: the shipped architecture whose version and header hash the file's
// header has (a bullet net has no header: name its architecture). `isa`:
// the backend's name (`"scalar"`, `"avx2"`, `"avx-vnni"`, `"avx512"`,
// `"avx512-vnni"`, `"neon"`, `"neon-dotprod"`); NULL: the one the
// environment variable `NNUE_ISA` names, else the best this CPU runs.
// `flags`: 0 or `NNUE_LOAD_ALLOW_OVERFLOW`.
//
// On success `*out_net` is a new net with one reference (release it with
// `nnue_net_release`); on failure it is left as it was.
//
// # Safety
// `path`, and `arch` and `isa` unless NULL, are NUL-terminated strings;
// `out_net` is NULL or valid for writing a pointer.
int nnue_net_load_file(const char *path,
                       const char *arch,
                       const char *isa,
                       uint32_t flags,
                       const struct nnue_net **out_net);

// Loads a net file held in memory: `len` bytes at `bytes` (which the
// library does not keep). `arch`, `isa`, `flags` and `out_net` as for
// `nnue_net_load_file`.
//
// # Safety
// `bytes` is NULL or points to `len` readable bytes; `arch` and `isa` are
// NULL or NUL-terminated strings; `out_net` is NULL or valid for writing a
// pointer.
int nnue_net_load_memory(const uint8_t *bytes,
                         size_t len,
                         const char *arch,
                         const char *isa,
                         uint32_t flags,
                         const struct nnue_net **out_net);

// Adds a reference to `net`.
//
// # Safety
// `net` is NULL or a net that a load returned and that still has a
// reference.
int nnue_net_retain(const struct nnue_net *net);

// Drops a reference to `net`; the last one frees it (stacks made from it
// keep what they need). NULL is allowed and does nothing.
//
// # Safety
// `net` is NULL or a net that a load returned and that still has a
// reference, which the caller gives up.
int nnue_net_release(const struct nnue_net *net);

// The architecture's name (`"sfnnv10"`), valid while `net` lives.
//
// # Safety
// `net` is NULL or a live net; `out_name` is NULL or valid for writing a
// pointer.
int nnue_net_arch_name(const struct nnue_net *net, const char **out_name);

// The backend's name (`"avx2"`), valid while `net` lives.
//
// # Safety
// As for `nnue_net_arch_name`.
int nnue_net_isa_name(const struct nnue_net *net, const char **out_name);

// The description stored in the net file, valid while `net` lives.
//
// # Safety
// As for `nnue_net_arch_name`.
int nnue_net_description(const struct nnue_net *net, const char **out_description);

// The number of output buckets (layer stacks): the length
// `nnue_stack_evaluate_buckets` fills.
//
// # Safety
// `net` is NULL or a live net; `out_buckets` is NULL or valid for writing.
int nnue_net_buckets(const struct nnue_net *net, size_t *out_buckets);

// Makes a stack for `net`, to be reset before use.
//
// # Safety
// `net` is NULL or a live net; `out_stack` is NULL or valid for writing a
// pointer.
int nnue_stack_new(const struct nnue_net *net, struct nnue_stack **out_stack);

// Makes one stack for the `n` nets of `nets` (1 to `NNUE_MAX_NETS`), to be
// reset before use: an engine that evaluates with several nets (Stockfish's
// big and small) resets, pushes and pops once for all of them, each move
// checked once, and evaluates with any of them (`nnue_stack_evaluate_net`;
// `nnue_stack_evaluate` and `nnue_stack_evaluate_buckets` use net 0). Each
// net's accumulators are computed only when it evaluates.
//
// # Safety
// `nets` is NULL or points to `n` readable pointers, each NULL or a live
// net; `out_stack` is NULL or valid for writing a pointer.
int nnue_stack_new_multi(const struct nnue_net *const *nets,
                         size_t n,
                         struct nnue_stack **out_stack);

// Frees a stack. NULL is allowed and does nothing.
//
// # Safety
// `stack` is NULL or a stack that `nnue_stack_new` or
// `nnue_stack_new_multi` made and that is not freed yet, nor in use by
// another thread.
int nnue_stack_free(struct nnue_stack *stack);

// Starts over at a position: its `n` pieces (kings included, in any
// order). Fails unless every square is 0..=63 and every piece code
// 0..=11, no two pieces share a square, each side has one king, and
// `n <= NNUE_MAX_PIECES`. The side to move is given to each evaluation.
//
// # Safety
// `stack` is NULL or a live stack that no other thread uses; `pieces` is
// NULL or points to `n` readable `nnue_piece`s.
int nnue_stack_reset(struct nnue_stack *stack, const struct nnue_piece *pieces, size_t n);

// Makes a move: its `n` piece changes (every piece it moved, captured or
// promoted; 0 to 3 of them, 0 for a null move). Nothing is computed until
// an evaluation. Fails unless each change's piece code is 0..=11 and its
// squares 0..=63 or `NNUE_NO_SQUARE` (not both), every piece removed is on
// its `from` square, every square landed on is empty once the pieces have
// left, and the board after it has one king a side. At most
// `NNUE_MAX_PLY` moves above the reset.
//
// # Safety
// `stack` is NULL or a live stack that no other thread uses; `changes` is
// NULL or points to `n` readable `nnue_change`s.
int nnue_stack_push(struct nnue_stack *stack, const struct nnue_change *changes, size_t n);

// Unmakes the last move pushed.
//
// # Safety
// `stack` is NULL or a live stack that no other thread uses.
int nnue_stack_pop(struct nnue_stack *stack);

// The number of moves pushed since the reset.
//
// # Safety
// `stack` is NULL or a live stack that no other thread uses; `out_ply` is
// NULL or valid for writing.
int nnue_stack_ply(const struct nnue_stack *stack, size_t *out_ply);

// Evaluates the current position (the reset's with every pushed move
// made) with `side_to_move` to move (0 white, 1 black), computing the
// accumulators it lacks; with the stack's first net (net 0).
//
// # Safety
// `stack` is NULL or a live stack that no other thread uses; `out_eval` is
// NULL or valid for writing.
int nnue_stack_evaluate(struct nnue_stack *stack, int side_to_move, struct nnue_eval *out_eval);

// `nnue_stack_evaluate` with net `net_index` of a stack made by
// `nnue_stack_new_multi` (in the order the nets were given there).
//
// # Safety
// `stack` is NULL or a live stack that no other thread uses; `out_eval` is
// NULL or valid for writing.
int nnue_stack_evaluate_net(struct nnue_stack *stack,
                            size_t net_index,
                            int side_to_move,
                            struct nnue_eval *out_eval);

// `nnue_stack_evaluate` (net 0) in every bucket: `out[b]` for each bucket
// `b` below `nnue_net_buckets`, with `out[b].bucket = b` and `value` what the
// architecture's engine would return were `b` the bucket chosen. Fails
// with `NNUE_ERROR_BUFFER` if `len` is below the number of buckets.
//
// # Safety
// `stack` is NULL or a live stack that no other thread uses; `out` is NULL
// or valid for writing `len` values.
int nnue_stack_evaluate_buckets(struct nnue_stack *stack,
                                int side_to_move,
                                struct nnue_eval *out,
                                size_t len);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* NNUE_H */
