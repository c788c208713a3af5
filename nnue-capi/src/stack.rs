//! `nnue_stack`: one search thread's accumulator stacks (one per net it
//! evaluates), with the current board, against which every move's piece
//! changes are checked, and the pushed moves, to unmake them.

use crate::args::{Out, exclusive, shared, slice};
use crate::board::{Board, side};
use crate::erased::ErasedStack;
use crate::error::{Error, Failure};
use crate::guard::guard;
use crate::net::Net;
use crate::types::{Eval, NNUE_MAX_CHANGES, NNUE_MAX_NETS, NNUE_MAX_PLY, NNUE_NO_SQUARE, PieceChange, PieceOn};
use nnue::runtime::MoveChanges;
use std::ffi::c_int;

/// An accumulator stack (opaque): one per search thread, never used by two
/// threads at once (it may move between threads). It keeps its nets alive.
pub struct Stack {
    /// The runtime's stack of each net, in the order the nets were given:
    /// every move is checked, made and pushed once for all of them.
    inner: Vec<Box<dyn ErasedStack>>,
    /// The current position's board (the root's with every pushed move
    /// made); `None` until the first reset.
    board: Option<Board>,
    /// The moves pushed since the reset, in order; the reset reserves room
    /// for `NNUE_MAX_PLY`.
    moves: Vec<Pushed>,
    /// Whether a call into the runtime's stacks is under way: still set
    /// afterwards only if it panicked, and then the stack must be reset
    /// (and is renewed when it is).
    broken: bool,
    /// The number of layer stacks of net 0 (the net
    /// `nnue_stack_evaluate_buckets` evaluates).
    buckets: usize,
}

/// A pushed move's piece changes, as the caller gave them (checked).
#[derive(Debug, Clone, Copy)]
struct Pushed {
    changes: [PieceChange; NNUE_MAX_CHANGES],
    len: u8,
}

impl Pushed {
    /// The move of `changes` (checked: at most `NNUE_MAX_CHANGES`), copied
    /// change by change (a copy of the slice was a call to `memcpy`, whose
    /// bytes were read back as words just after, in a profile of
    /// Stockfish's search).
    #[inline]
    fn new(changes: &[PieceChange]) -> Pushed {
        let none = PieceChange { piece: 0, from: NNUE_NO_SQUARE, to: NNUE_NO_SQUARE };
        let changes_array = core::array::from_fn(|i| changes.get(i).copied().unwrap_or(none));
        // At most `NNUE_MAX_CHANGES` (3), checked.
        Pushed { changes: changes_array, len: changes.len() as u8 }
    }

    fn changes(&self) -> &[PieceChange] {
        &self.changes[..usize::from(self.len)]
    }
}

impl Stack {
    /// A stack for `nets` (one or more), to be reset before use.
    fn new(nets: &[&Net]) -> Stack {
        Stack {
            inner: nets.iter().map(|net| net.inner.new_stack()).collect(),
            board: None,
            moves: Vec::new(),
            broken: false,
            buckets: nets[0].inner.buckets(),
        }
    }

    /// The current position's board, the moves pushed and the runtime's
    /// stacks, if the stack was reset.
    fn current(&mut self) -> Result<(&mut Board, &mut Vec<Pushed>, Runtime<'_>), Failure> {
        match &mut self.board {
            Some(board) if !self.broken => {
                Ok((board, &mut self.moves, Runtime { inner: &mut self.inner, broken: &mut self.broken }))
            }
            _ => Err(Failure::new(Error::NotReset, "reset the stack with nnue_stack_reset first")),
        }
    }

    /// Net `index` of the stack, checked.
    fn net_index(&self, index: usize) -> Result<usize, Failure> {
        if index < self.inner.len() {
            Ok(index)
        } else {
            Err(Failure::new(Error::NetIndex, format!("net {index}; the stack has {}", self.inner.len())))
        }
    }
}

/// The runtime's stacks, to call into.
struct Runtime<'s> {
    inner: &'s mut [Box<dyn ErasedStack>],
    broken: &'s mut bool,
}

impl Runtime<'_> {
    /// Runs `f` on the runtime's stacks, marking the stack broken while it
    /// runs: only a panic leaves the mark.
    fn run<R>(self, f: impl FnOnce(&mut [Box<dyn ErasedStack>]) -> R) -> R {
        *self.broken = true;
        let result = f(self.inner);
        *self.broken = false;
        result
    }
}

/// Makes a stack for `net`, to be reset before use.
///
/// # Safety
/// `net` is NULL or a live net; `out_stack` is NULL or valid for writing a
/// pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_stack_new(net: *const Net, out_stack: *mut *mut Stack) -> c_int {
    guard(|| {
        let out = Out::new(out_stack, "out_stack")?;
        // SAFETY: a live net or NULL, by the caller's promise.
        let net = unsafe { shared(net, "net")? };
        // SAFETY: valid for writing, by the caller's promise.
        unsafe { out.write(Box::into_raw(Box::new(Stack::new(&[net])))) };
        Ok(())
    })
}

/// Makes one stack for the `n` nets of `nets` (1 to `NNUE_MAX_NETS`), to be
/// reset before use: an engine that evaluates with several nets (Stockfish's
/// big and small) resets, pushes and pops once for all of them, each move
/// checked once, and evaluates with any of them (`nnue_stack_evaluate_net`;
/// `nnue_stack_evaluate` and `nnue_stack_evaluate_buckets` use net 0). Each
/// net's accumulators are computed only when it evaluates.
///
/// # Safety
/// `nets` is NULL or points to `n` readable pointers, each NULL or a live
/// net; `out_stack` is NULL or valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_stack_new_multi(nets: *const *const Net, n: usize, out_stack: *mut *mut Stack) -> c_int {
    guard(|| {
        let out = Out::new(out_stack, "out_stack")?;
        if n == 0 || n > NNUE_MAX_NETS {
            return Err(Failure::new(Error::NetIndex, format!("{n} nets (1 to {NNUE_MAX_NETS})")));
        }
        // SAFETY: `n` readable pointers or NULL, by the caller's promise.
        let pointers = unsafe { slice(nets, n, "nets")? };
        let nets = pointers
            .iter()
            .enumerate()
            // SAFETY: each a live net or NULL, by the caller's promise.
            .map(|(i, &net)| unsafe { shared(net, &format!("nets[{i}]")) })
            .collect::<Result<Vec<&Net>, Failure>>()?;
        // SAFETY: valid for writing, by the caller's promise.
        unsafe { out.write(Box::into_raw(Box::new(Stack::new(&nets)))) };
        Ok(())
    })
}

/// Frees a stack. NULL is allowed and does nothing.
///
/// # Safety
/// `stack` is NULL or a stack that `nnue_stack_new` or
/// `nnue_stack_new_multi` made and that is not freed yet, nor in use by
/// another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_stack_free(stack: *mut Stack) -> c_int {
    guard(|| {
        if stack.is_null() {
            return Ok(());
        }
        // SAFETY: a live stack, by the caller's promise (checked for alignment).
        unsafe { exclusive(stack, "stack")? };
        // SAFETY: it came from `Box::into_raw` in `nnue_stack_new`, and the caller gives it up.
        drop(unsafe { Box::from_raw(stack) });
        Ok(())
    })
}

/// Starts over at a position: its `n` pieces (kings included, in any
/// order). Fails unless every square is 0..=63 and every piece code
/// 0..=11, no two pieces share a square, each side has one king, and
/// `n <= NNUE_MAX_PIECES`. The side to move is given to each evaluation.
///
/// # Safety
/// `stack` is NULL or a live stack that no other thread uses; `pieces` is
/// NULL or points to `n` readable `nnue_piece`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_stack_reset(stack: *mut Stack, pieces: *const PieceOn, n: usize) -> c_int {
    guard(|| {
        // SAFETY: a live, unshared stack or NULL, and `n` pieces or NULL, by the caller's promise.
        let (stack, pieces) = unsafe { (exclusive(stack, "stack")?, slice(pieces, n, "pieces")?) };
        let root = Board::new(pieces)?;
        if stack.broken {
            stack.inner.iter_mut().for_each(|inner| inner.renew());
            stack.broken = false;
        }
        Runtime { inner: &mut stack.inner, broken: &mut stack.broken }
            .run(|inner| inner.iter_mut().for_each(|inner| inner.reset(&root)));
        stack.board = Some(root);
        stack.moves.clear();
        stack.moves.reserve_exact(NNUE_MAX_PLY);
        Ok(())
    })
}

/// Makes a move: its `n` piece changes (every piece it moved, captured or
/// promoted; 0 to 3 of them, 0 for a null move). Nothing is computed until
/// an evaluation. Fails unless each change's piece code is 0..=11 and its
/// squares 0..=63 or `NNUE_NO_SQUARE` (not both), every piece removed is on
/// its `from` square, every square landed on is empty once the pieces have
/// left, and the board after it has one king a side. At most
/// `NNUE_MAX_PLY` moves above the reset.
///
/// # Safety
/// `stack` is NULL or a live stack that no other thread uses; `changes` is
/// NULL or points to `n` readable `nnue_change`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_stack_push(stack: *mut Stack, changes: *const PieceChange, n: usize) -> c_int {
    guard(|| {
        // SAFETY: a live, unshared stack or NULL, and `n` changes or NULL, by the caller's promise.
        let (stack, changes) = unsafe { (exclusive(stack, "stack")?, slice(changes, n, "changes")?) };
        let (board, moves, runtime) = stack.current()?;
        let mut moved = MoveChanges::default();
        board.check(changes, &mut moved)?;
        if moves.len() >= NNUE_MAX_PLY {
            return Err(Failure::new(Error::StackFull, format!("{NNUE_MAX_PLY} moves pushed already")));
        }
        // A panic (a bug) in the runtime's push leaves the stack to be reset.
        runtime.run(|inner| inner.iter_mut().for_each(|inner| inner.push(&moved)));
        board.make(changes);
        // Room for every move was reserved at the reset: nothing is reallocated.
        moves.push(Pushed::new(changes));
        Ok(())
    })
}

/// Unmakes the last move pushed.
///
/// # Safety
/// `stack` is NULL or a live stack that no other thread uses.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_stack_pop(stack: *mut Stack) -> c_int {
    guard(|| {
        // SAFETY: a live, unshared stack or NULL, by the caller's promise.
        let stack = unsafe { exclusive(stack, "stack")? };
        let (board, moves, runtime) = stack.current()?;
        let Some(last) = moves.pop() else {
            return Err(Failure::new(Error::EmptyStack, "no move pushed since the reset"));
        };
        runtime.run(|inner| inner.iter_mut().for_each(|inner| inner.pop()));
        board.unmake(last.changes());
        Ok(())
    })
}

/// The number of moves pushed since the reset.
///
/// # Safety
/// `stack` is NULL or a live stack that no other thread uses; `out_ply` is
/// NULL or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_stack_ply(stack: *const Stack, out_ply: *mut usize) -> c_int {
    guard(|| {
        let out = Out::new(out_ply, "out_ply")?;
        // SAFETY: a live stack or NULL, by the caller's promise.
        let stack = unsafe { shared(stack, "stack")? };
        if stack.board.is_none() || stack.broken {
            return Err(Failure::new(Error::NotReset, "reset the stack with nnue_stack_reset first"));
        }
        // SAFETY: valid for writing, by the caller's promise.
        unsafe { out.write(stack.moves.len()) };
        Ok(())
    })
}

/// Evaluates the current position (the reset's with every pushed move
/// made) with `side_to_move` to move (0 white, 1 black), computing the
/// accumulators it lacks; with the stack's first net (net 0).
///
/// # Safety
/// `stack` is NULL or a live stack that no other thread uses; `out_eval` is
/// NULL or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_stack_evaluate(stack: *mut Stack, side_to_move: c_int, out_eval: *mut Eval) -> c_int {
    // SAFETY: the caller's promises, passed on.
    unsafe { nnue_stack_evaluate_net(stack, 0, side_to_move, out_eval) }
}

/// `nnue_stack_evaluate` with net `net_index` of a stack made by
/// `nnue_stack_new_multi` (in the order the nets were given there).
///
/// # Safety
/// `stack` is NULL or a live stack that no other thread uses; `out_eval` is
/// NULL or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_stack_evaluate_net(
    stack: *mut Stack,
    net_index: usize,
    side_to_move: c_int,
    out_eval: *mut Eval,
) -> c_int {
    guard(|| {
        let out = Out::new(out_eval, "out_eval")?;
        // SAFETY: a live, unshared stack or NULL, by the caller's promise.
        let stack = unsafe { exclusive(stack, "stack")? };
        let side = side(side_to_move)?;
        let index = stack.net_index(net_index)?;
        let (board, _, runtime) = stack.current()?;
        let eval = runtime.run(|inner| inner[index].evaluate(board, side));
        // SAFETY: valid for writing, by the caller's promise.
        unsafe { out.write(eval.into()) };
        Ok(())
    })
}

/// `nnue_stack_evaluate` (net 0) in every bucket: `out[b]` for each bucket
/// `b` below `nnue_net_buckets`, with `out[b].bucket = b` and `value` what the
/// architecture's engine would return were `b` the bucket chosen. Fails
/// with `NNUE_ERROR_BUFFER` if `len` is below the number of buckets.
///
/// # Safety
/// `stack` is NULL or a live stack that no other thread uses; `out` is NULL
/// or valid for writing `len` values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_stack_evaluate_buckets(
    stack: *mut Stack,
    side_to_move: c_int,
    out: *mut Eval,
    len: usize,
) -> c_int {
    guard(|| {
        Out::new(out, "out")?;
        // SAFETY: a live, unshared stack or NULL, by the caller's promise.
        let stack = unsafe { exclusive(stack, "stack")? };
        let side = side(side_to_move)?;
        let buckets = stack.buckets;
        if len < buckets {
            return Err(Failure::new(Error::Buffer, format!("{len} entries for {buckets} buckets")));
        }
        let mut evals = vec![Eval::default(); buckets];
        let (board, _, runtime) = stack.current()?;
        runtime.run(|inner| inner[0].evaluate_buckets(board, side, &mut evals));
        for (i, eval) in evals.into_iter().enumerate() {
            // SAFETY: `out` is non-NULL and aligned (checked) and valid for `len >= buckets` values.
            unsafe { out.add(i).write(eval) };
        }
        Ok(())
    })
}
