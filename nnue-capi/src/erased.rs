//! Networks and accumulator stacks of any architecture behind one type
//! each: [`ErasedNet`] and [`ErasedStack`], implemented once, generically,
//! for every architecture whose network implements
//! `nnue::runtime::Network` (the incremental ones), and made through the
//! function pointers of [`crate::archs`].

use crate::board::Board;
use crate::types::Eval;
use nnue::runtime::{AccumulatorStack, AnyNetwork, Color, Evaluation, MoveChanges, Network};
use std::sync::Arc;

/// What the generated module of an architecture has beyond the `Network`
/// trait that every bucket's evaluation needs.
pub(crate) struct ArchFns<N: Network> {
    /// The PSQT value of a bucket from the side to move's view.
    pub psqt: fn(&N::Accumulator, Color, usize) -> i32,
    /// The architecture's value from the PSQT value and the layer stack's output.
    pub value: fn(i32, i32) -> i32,
}

impl<N: Network> Clone for ArchFns<N> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<N: Network> Copy for ArchFns<N> {}

/// A loaded network, shared by every thread.
pub(crate) trait ErasedNet: Send + Sync {
    /// The network's facts (architecture, backend, description).
    fn any(&self) -> &dyn AnyNetwork;
    /// The number of layer stacks (output buckets).
    fn buckets(&self) -> usize;
    /// A new accumulator stack, which keeps the network alive.
    fn new_stack(&self) -> Box<dyn ErasedStack>;
}

/// One thread's accumulator stack. The boards it is given have been
/// checked ([`Board`]): the runtime's stack assumes a valid position.
pub(crate) trait ErasedStack: Send {
    /// Starts over with a new stack and refresh cache (after a panic left
    /// them in an unknown state).
    fn renew(&mut self);
    /// Starts over at `root`.
    fn reset(&mut self, root: &Board);
    /// Makes a move (whose board the caller keeps).
    fn push(&mut self, changes: &MoveChanges);
    /// Unmakes the last move; the caller checks that there is one.
    fn pop(&mut self);
    /// Evaluates `board`, the current position, with `side` to move.
    fn evaluate(&mut self, board: &Board, side: Color) -> Evaluation;
    /// Evaluates `board` in every bucket: `out[b]` is bucket `b`'s (`out`
    /// holds exactly one per layer stack).
    fn evaluate_buckets(&mut self, board: &Board, side: Color, out: &mut [Eval]);
}

/// A network of type `N`.
struct NetOf<N: Network> {
    net: Arc<N>,
    fns: ArchFns<N>,
}

/// [`ErasedNet`] for `net`.
pub(crate) fn erase<N: Network + AnyNetwork>(net: N, fns: ArchFns<N>) -> Box<dyn ErasedNet> {
    Box::new(NetOf { net: Arc::new(net), fns })
}

impl<N: Network + AnyNetwork> ErasedNet for NetOf<N> {
    fn any(&self) -> &dyn AnyNetwork {
        &*self.net
    }

    fn buckets(&self) -> usize {
        N::LAYER_STACKS
    }

    fn new_stack(&self) -> Box<dyn ErasedStack> {
        let stack = AccumulatorStack::new(&*self.net);
        Box::new(StackOf { net: Arc::clone(&self.net), stack, fns: self.fns })
    }
}

/// An accumulator stack for networks of type `N`, with the network.
struct StackOf<N: Network> {
    net: Arc<N>,
    stack: AccumulatorStack<N>,
    fns: ArchFns<N>,
}

impl<N: Network> ErasedStack for StackOf<N> {
    fn renew(&mut self) {
        self.stack = AccumulatorStack::new(&*self.net);
    }

    fn reset(&mut self, root: &Board) {
        // The root's side to move plays no part in its accumulators.
        self.stack.reset(&root.to_move(Color::White));
    }

    fn push(&mut self, changes: &MoveChanges) {
        self.stack.push(changes);
    }

    fn pop(&mut self) {
        self.stack.pop();
    }

    fn evaluate(&mut self, board: &Board, side: Color) -> Evaluation {
        self.stack.evaluate(&self.net, &board.to_move(side))
    }

    fn evaluate_buckets(&mut self, board: &Board, side: Color, out: &mut [Eval]) {
        let accumulator = self.stack.accumulator(&self.net, &board.to_move(side));
        let mut transformed = N::new_transformed();
        self.net.transform(accumulator, side, &mut transformed);
        for (bucket, eval) in out.iter_mut().enumerate() {
            let psqt = (self.fns.psqt)(accumulator, side, bucket);
            let positional = self.net.forward(bucket, &transformed);
            // A bucket is below the number of layer stacks, a handful.
            *eval = Eval { bucket: bucket as i32, psqt, positional, value: (self.fns.value)(psqt, positional) };
        }
    }
}
