//! What the `capi` fuzz target does: arbitrary sequences of calls through
//! nnue-capi's C functions on random nets, which must never panic (a panic
//! caught at the boundary is `NNUE_ERROR_PANIC`, a finding) nor return a
//! code that is not one.
//!
//! Not a module of the `nnue_fuzz` library, whose `lib.rs`
//! `tests/fuzz_corpus.rs` compiles into a crate without nnue-capi: the
//! target (`fuzz_targets/capi.rs`) and nnue-capi's corpus replay
//! (`nnue-capi/tests/fuzz_corpus.rs`) include this file by its path.
//!
//! The input: its first byte chooses the net (a random net of
//! sfnnv9-small, of SFNNv10 with threat inputs, or of Obsidian's bullet
//! architecture, which has no header and is named; with its top bit set,
//! one stack over all three, `nnue_stack_new_multi`); then one operation
//! per byte (`op % 9`) with its arguments from the following bytes, until
//! they run out: 0 reset to pieces made of bytes (squares and codes mostly
//! in range, kings placed first); 1 reset to the start position; 2 push
//! changes made of bytes (0 to 4 of them, squares up to 65, codes up to
//! 12); 3 push a move of a piece on the board (a capture if it lands on a
//! piece, a promotion if a pawn reaches the last rank); 4 pop; 5 evaluate
//! (side 0 to 2) with net 0 to 3 (`nnue_stack_evaluate_net`; 3 is no net);
//! 6 evaluate every bucket into 0 to 9 entries; 7 ply; 8 load a net from
//! the bytes left, by header or a name (and stop).

use nnue_capi::{Error, Eval, NNUE_NO_SQUARE, NNUE_OK, Net, PieceChange, PieceOn, Stack};
use std::ffi::c_int;
use std::sync::OnceLock;

/// A net shared by the runs, loaded once.
struct Shared(*const Net);

// SAFETY: the C API lets any number of threads use a net at once.
unsafe impl Send for Shared {}
// SAFETY: as for `Send`.
unsafe impl Sync for Shared {}

/// A random net and how it loads.
struct RandomNet {
    /// The architecture's name, for a net without a header.
    arch: Option<&'static str>,
    make: fn() -> Vec<u8>,
}

/// The nets the first byte chooses from.
const NETS: [RandomNet; 3] = [
    RandomNet { arch: None, make: || nnue_capi::archs::sfnnv9_small::random_net_file(1) },
    RandomNet { arch: None, make: || nnue_capi::archs::sfnnv10::random_net_file(2) },
    RandomNet { arch: Some("obsidian"), make: || nnue_capi::archs::obsidian::random_net_file(3) },
];

fn net(index: usize) -> *const Net {
    static LOADED: [OnceLock<Shared>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    LOADED[index]
        .get_or_init(|| {
            let bytes = (NETS[index].make)();
            let arch = NETS[index].arch.map(|a| std::ffi::CString::new(a).expect("no NUL"));
            let arch = arch.as_ref().map_or(std::ptr::null(), |a| a.as_ptr());
            let mut net = std::ptr::null();
            // SAFETY: `bytes` is readable for its length, `arch` NULL or NUL-terminated, `net` writable.
            let code = unsafe {
                nnue_capi::nnue_net_load_memory(bytes.as_ptr(), bytes.len(), arch, std::ptr::null(), 0, &mut net)
            };
            assert_eq!(code, NNUE_OK, "the random net {index} loads");
            Shared(net)
        })
        .0
}

/// The input, a byte at a time (zeros once it runs out).
struct Bytes<'d>(&'d [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let (&first, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        first
    }
}

/// A stack, freed on drop.
struct Owned(*mut Stack);

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: this value owns the stack.
        check(unsafe { nnue_capi::nnue_stack_free(self.0) });
    }
}

/// `code` is `NNUE_OK` or an error other than a panic.
fn check(code: c_int) -> c_int {
    match Error::from_code(code) {
        Some(Error::Panic) => {
            // SAFETY: a NUL-terminated string valid until the next failing call on this thread.
            let detail = unsafe { std::ffi::CStr::from_ptr(nnue_capi::nnue_last_error()) };
            panic!("a panic caught at the boundary: {detail:?}")
        }
        Some(_) => code,
        None => {
            assert_eq!(code, NNUE_OK, "not a code");
            code
        }
    }
}

/// The driver's own copy of the stack's boards (the root's, then one per
/// move), to make moves that fit them.
#[derive(Default)]
struct Shadow {
    levels: Vec<[Option<u8>; 64]>,
}

impl Shadow {
    fn reset(&mut self, pieces: &[PieceOn]) {
        let mut squares = [None; 64];
        for p in pieces {
            squares[usize::from(p.square)] = Some(p.piece);
        }
        self.levels = vec![squares];
    }

    fn push(&mut self, changes: &[PieceChange]) {
        let mut squares = self.top();
        for c in changes.iter().filter(|c| c.from != NNUE_NO_SQUARE) {
            squares[usize::from(c.from)] = None;
        }
        for c in changes.iter().filter(|c| c.to != NNUE_NO_SQUARE) {
            squares[usize::from(c.to)] = Some(c.piece);
        }
        self.levels.push(squares);
    }

    fn pop(&mut self) {
        self.levels.pop();
    }

    fn top(&self) -> [Option<u8>; 64] {
        self.levels.last().copied().unwrap_or([None; 64])
    }

    /// A move of the piece the input chooses to the square it chooses.
    fn plausible_move(&self, bytes: &mut Bytes) -> Vec<PieceChange> {
        let squares = self.top();
        let occupied: Vec<usize> = (0..64).filter(|&s| squares[s].is_some()).collect();
        let (pick, to, promote) = (bytes.next(), bytes.next() % 64, bytes.next());
        let Some(&from) = occupied.get(usize::from(pick) % occupied.len().max(1)) else { return Vec::new() };
        let piece = squares[from].expect("occupied");
        let mut changes = Vec::new();
        if let Some(captured) = squares[usize::from(to)].filter(|_| usize::from(to) != from) {
            changes.push(PieceChange { piece: captured, from: to, to: NNUE_NO_SQUARE });
        }
        let last_rank = matches!((piece, to / 8), (0, 7) | (6, 0));
        if last_rank && promote % 2 == 1 {
            changes.push(PieceChange { piece, from: from as u8, to: NNUE_NO_SQUARE });
            changes.push(PieceChange { piece: piece + 1 + promote / 2 % 4, from: NNUE_NO_SQUARE, to });
        } else {
            changes.push(PieceChange { piece, from: from as u8, to });
        }
        changes
    }
}

/// Runs the operations `data` describes; see the module's documentation.
pub fn capi(data: &[u8]) {
    let mut bytes = Bytes(data);
    let first = bytes.next();
    let mut stack = std::ptr::null_mut();
    if first & 0x80 == 0 {
        // SAFETY: a live net; `stack` is writable.
        check(unsafe { nnue_capi::nnue_stack_new(net(usize::from(first) % NETS.len()), &mut stack) });
    } else {
        let nets = [net(0), net(1), net(2)];
        // SAFETY: `nets` holds three live nets; `stack` is writable.
        check(unsafe { nnue_capi::nnue_stack_new_multi(nets.as_ptr(), nets.len(), &mut stack) });
    }
    let stack = Owned(stack);
    let mut shadow = Shadow::default();
    while !bytes.0.is_empty() {
        match bytes.next() % 9 {
            0 => {
                let mut pieces = vec![
                    PieceOn { square: bytes.next() % 64, piece: 5 },
                    PieceOn { square: bytes.next() % 64, piece: 11 },
                ];
                for _ in 0..bytes.next() % 34 {
                    pieces.push(PieceOn { square: bytes.next() % 66, piece: bytes.next() % 13 });
                }
                // SAFETY: a live stack used by this thread only; `pieces` readable for its length.
                if check(unsafe { nnue_capi::nnue_stack_reset(stack.0, pieces.as_ptr(), pieces.len()) }) == NNUE_OK {
                    shadow.reset(&pieces);
                }
            }
            1 => {
                let pieces = start_position();
                // SAFETY: as above.
                if check(unsafe { nnue_capi::nnue_stack_reset(stack.0, pieces.as_ptr(), pieces.len()) }) == NNUE_OK {
                    shadow.reset(&pieces);
                }
            }
            op @ (2 | 3) => {
                let changes = if op == 2 {
                    let n = bytes.next() % 5;
                    (0..n)
                        .map(|_| PieceChange {
                            piece: bytes.next() % 13,
                            from: bytes.next() % 66,
                            to: bytes.next() % 66,
                        })
                        .collect()
                } else {
                    shadow.plausible_move(&mut bytes)
                };
                // SAFETY: a live stack used by this thread only; `changes` readable for its length.
                if check(unsafe { nnue_capi::nnue_stack_push(stack.0, changes.as_ptr(), changes.len()) }) == NNUE_OK {
                    shadow.push(&changes);
                }
            }
            4 => {
                // SAFETY: a live stack used by this thread only.
                if check(unsafe { nnue_capi::nnue_stack_pop(stack.0) }) == NNUE_OK {
                    shadow.pop();
                }
            }
            5 => {
                let mut eval = Eval::default();
                let (side, index) = (c_int::from(bytes.next() % 3), usize::from(bytes.next() % 4));
                // SAFETY: a live stack used by this thread only; `eval` is writable.
                check(unsafe { nnue_capi::nnue_stack_evaluate_net(stack.0, index, side, &mut eval) });
            }
            6 => {
                let mut evals = [Eval::default(); 9];
                let len = usize::from(bytes.next() % 10);
                let side = c_int::from(bytes.next() % 3);
                // SAFETY: a live stack used by this thread only; `evals` writable for `len <= 9` values.
                check(unsafe { nnue_capi::nnue_stack_evaluate_buckets(stack.0, side, evals.as_mut_ptr(), len) });
            }
            7 => {
                let mut ply = 0;
                // SAFETY: a live stack used by this thread only; `ply` is writable.
                check(unsafe { nnue_capi::nnue_stack_ply(stack.0, &mut ply) });
            }
            _ => {
                let names: [&[u8]; 4] = [b"sfnnv9-small\0", b"obsidian\0", b"sfnnv10.ron\0", b"no\xFFarch\0"];
                let arch = match bytes.next() % 5 {
                    4 => std::ptr::null(),
                    i => names[usize::from(i)].as_ptr().cast(),
                };
                let rest = bytes.0;
                let mut loaded = std::ptr::null();
                // SAFETY: `rest` is readable for its length; `arch` NULL or NUL-terminated; `loaded` writable.
                let code = unsafe {
                    nnue_capi::nnue_net_load_memory(rest.as_ptr(), rest.len(), arch, std::ptr::null(), 0, &mut loaded)
                };
                if check(code) == NNUE_OK {
                    // SAFETY: a net just loaded, with one reference, given up.
                    check(unsafe { nnue_capi::nnue_net_release(loaded) });
                }
                return;
            }
        }
    }
}

/// The start position's pieces.
fn start_position() -> Vec<PieceOn> {
    const BACK: [u8; 8] = [3, 1, 2, 4, 5, 2, 1, 3];
    (0..8u8)
        .flat_map(|file| {
            [
                PieceOn { square: file, piece: BACK[usize::from(file)] },
                PieceOn { square: 8 + file, piece: 0 },
                PieceOn { square: 48 + file, piece: 6 },
                PieceOn { square: 56 + file, piece: 6 + BACK[usize::from(file)] },
            ]
        })
        .collect()
}
