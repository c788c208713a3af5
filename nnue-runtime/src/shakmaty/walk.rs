//! A perft-style walk of the legal-move tree that evaluates every node the
//! way an engine does: moves made on a copy of the board, their piece
//! changes pushed on an [`AccumulatorStack`] and popped on the way back,
//! accumulators computed lazily at each evaluation.

use std::time::{Duration, Instant};

use shakmaty::{Chess, Position as _};

use crate::Position;
use crate::engine::network::Network;
use crate::engine::stack::AccumulatorStack;
use crate::shakmaty::move_changes;

/// What a walk saw.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct WalkStats {
    /// Nodes evaluated (the root, every interior node and every leaf).
    pub nodes: u64,
    /// Nodes whose incremental evaluation differed from a fresh one (only
    /// counted when verifying).
    pub mismatches: u64,
    /// The sum of all evaluations, so a walk can be compared with another.
    pub checksum: i64,
    /// Time spent walking (verification included when verifying).
    pub elapsed: Duration,
}

impl WalkStats {
    /// Evaluated nodes per second.
    pub fn nodes_per_sec(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Adds another walk's counts.
    pub fn add(&mut self, other: &WalkStats) {
        self.nodes += other.nodes;
        self.mismatches += other.mismatches;
        self.checksum = self.checksum.wrapping_add(other.checksum);
        self.elapsed += other.elapsed;
    }
}

/// Walks the tree of `depth` plies below `root`, evaluating every node
/// through `stack`; with `verify`, also evaluates every node from scratch
/// (a full refresh, no cache) and counts the differences.
pub fn walk<N: Network>(
    net: &N,
    stack: &mut AccumulatorStack<N>,
    root: &Chess,
    depth: usize,
    verify: bool,
) -> WalkStats {
    let mut stats = WalkStats::default();
    let start = Instant::now();
    stack.reset(root);
    visit(net, stack, root, depth, verify, &mut stats);
    stats.elapsed = start.elapsed();
    stats
}

fn visit<N: Network>(
    net: &N,
    stack: &mut AccumulatorStack<N>,
    pos: &Chess,
    depth: usize,
    verify: bool,
    stats: &mut WalkStats,
) {
    let eval = stack.evaluate(net, pos);
    stats.nodes += 1;
    stats.checksum = stats.checksum.wrapping_add(i64::from(eval.value));
    if verify && eval != evaluate_fresh(net, pos) {
        stats.mismatches += 1;
    }
    if depth == 0 {
        return;
    }
    for m in pos.legal_moves() {
        let changes = move_changes(pos, &m);
        let mut child = pos.clone();
        child.play_unchecked(m);
        stack.push(&changes);
        visit(net, stack, &child, depth - 1, verify, stats);
        stack.pop();
    }
}

/// Evaluates `pos` from scratch: both accumulators refreshed from every
/// piece.
pub fn evaluate_fresh<N: Network>(net: &N, pos: &impl Position) -> crate::Evaluation {
    let mut accumulator = Box::new(N::Accumulator::default());
    net.refresh(pos, &mut accumulator);
    net.evaluate_accumulator(&accumulator, pos.side_to_move(), pos.piece_count())
}
