//! The timed operations of Stockfish's timing table
//! (`tests/reference/stockfish-timings.md` in the repository), for any
//! generated [`Network`] (feature `shakmaty`): the `nnue bench` command, the
//! criterion benchmarks and the Stockfish comparison
//! (`tools/stockfish-compare/`) all time these, on [`TIMING_MOVES`].
//!
//! Each operation does the work Stockfish's harness times for it, as an
//! engine does it: `refresh`, `refresh_hot`, `eval`, `move` and `kingmove`
//! go through the bench's [`AccumulatorStack`] and its
//! [`crate::RefreshCache`]; `forward` lets the first layer search its input
//! for non-zero chunks ([`Network::forward_searching`]), as Stockfish's
//! `propagate` does. [`Operation`]'s docs say what each one times and what
//! its untimed setup does; [`positions_timed`] how many positions a pass
//! times (`nnue bench --positions` prints it, to check that the harness
//! timed as many).

use crate::shakmaty::walk::walk;
use crate::shakmaty::{chess_from_fen, move_changes};
use crate::{AccumulatorStack, Color, MoveChanges, Network, Position};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position as _, Role};
use std::time::Instant;

/// The positions and moves every timing uses: 2,087 positions from Stockfish's
/// benchmark and random playouts, each with a random legal move and a random
/// non-king legal move (`tests/reference/timing_moves.tsv`; the same file is
/// read by the Stockfish harness). Parse with [`parse_moves`].
pub const TIMING_MOVES: &str = include_str!("../../data/timing_moves.tsv");

/// A position of `timing_moves.tsv`, its random non-king move and its king
/// move.
#[derive(Debug, Clone)]
pub struct BenchPosition {
    pub board: Chess,
    /// The non-king move (`None` when the position has none).
    pub quiet: Option<Move>,
    /// The king move of [`Operation::KingMove`] ([`king_move`]; `None` when
    /// the position has none).
    pub king: Option<Move>,
}

/// The king move [`Operation::KingMove`] makes in `board`: among the legal
/// moves of the side to move's king, castling excluded, the one whose UCI
/// string (`e1f2`) is smallest in byte order; `None` if there is none. The
/// Stockfish harness chooses by the same rule.
pub fn king_move(board: &Chess) -> Option<Move> {
    board
        .legal_moves()
        .into_iter()
        .filter(|m| m.role() == Role::King && !m.is_castle())
        .min_by_key(|m| m.to_uci(CastlingMode::Standard).to_string())
}

/// Parses `timing_moves.tsv`: FEN, a random legal move, a random non-king
/// legal move (`-` if none), tab-separated. Each position's king move is
/// [`king_move`] (not in the file).
pub fn parse_moves(tsv: &str) -> Result<Vec<BenchPosition>, String> {
    tsv.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            let fields: Vec<&str> = line.split('\t').collect();
            let [fen, _, quiet] = fields[..] else { return Err(format!("line {}: expected 3 fields", i + 1)) };
            let board = chess_from_fen(fen).map_err(|e| format!("line {}: {e}", i + 1))?;
            let quiet = match quiet {
                "-" => None,
                uci => Some(
                    UciMove::from_ascii(uci.as_bytes())
                        .ok()
                        .and_then(|m| m.to_move(&board).ok())
                        .ok_or_else(|| format!("line {}: `{uci}` is not legal", i + 1))?,
                ),
            };
            let king = king_move(&board);
            Ok(BenchPosition { board, quiet, king })
        })
        .collect()
}

/// An operation timed per position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// Both accumulators from scratch, then transform and layers. Untimed:
    /// the stack is reset to the position and the refresh-cache entries of
    /// both kings are forgotten ([`crate::RefreshCache::forget`], as
    /// Stockfish's harness empties them). Timed:
    /// [`AccumulatorStack::evaluate`], which
    /// refreshes both perspectives through those empty entries (every
    /// feature added to the biases).
    Refresh,
    /// Both accumulators through the refresh cache, which already holds
    /// this very position, then transform and layers. Untimed: reset,
    /// evaluate (filling both entries with this position), reset again.
    /// Timed: [`AccumulatorStack::evaluate`] (each perspective loaded from
    /// its entry, no feature changed).
    RefreshHot,
    /// Transform and layers, accumulators ready. Untimed: reset and
    /// evaluate twice (the first computes the accumulators, the second
    /// warms the layers). Timed: [`AccumulatorStack::evaluate`], which finds
    /// both perspectives computed and runs transform and layers.
    EvalReady,
    /// The layers only, on a ready transformer output, searching it for
    /// its non-zero chunks ([`Network::forward_searching`], as Stockfish's
    /// `propagate` does, where ours otherwise takes the transformer's list).
    /// Untimed: refresh, transform, one warm-up forward.
    Forward,
    /// As [`Operation::Forward`], taking the list of non-zero chunks the
    /// transformer's kernel made ([`Network::forward`], what an evaluation
    /// runs): Stockfish 19's layers take its transformer's list too, so
    /// this is the operation to set against its `forward`. The same as
    /// `forward` where the first layer is not sparse.
    ForwardListed,
    /// As an engine: make the non-king move (shakmaty, on a copy), push its
    /// piece changes on an [`AccumulatorStack`] whose top is computed,
    /// evaluate (both perspectives updated lazily), pop. Untimed: reset,
    /// the root's accumulators computed, then the same copy, move, push and
    /// pop without evaluating (board and stack hot, as in a search; the
    /// timed push still finds its node uncomputed).
    MoveEval,
    /// As [`Operation::MoveEval`], with the position's king move
    /// ([`BenchPosition::king`]; positions without one are skipped): the
    /// stack refreshes the mover's perspective through its refresh cache
    /// where the move changes its view (the entry as earlier operations
    /// left it, as in Stockfish's harness) and updates the other.
    KingMove,
    /// Without a board move or a stack: the move's piece changes, both
    /// updates, the evaluation (from a loose accumulator refreshed
    /// untimed).
    UpdateEval,
    /// A perft-style walk to depth 3 evaluating every node through an
    /// [`AccumulatorStack`] (moves made on copies), from every 100th
    /// position: time per node.
    Walk,
}

impl Operation {
    pub const ALL: [Operation; 9] = [
        Operation::Refresh,
        Operation::RefreshHot,
        Operation::EvalReady,
        Operation::Forward,
        Operation::ForwardListed,
        Operation::MoveEval,
        Operation::KingMove,
        Operation::UpdateEval,
        Operation::Walk,
    ];

    /// A short name for command lines.
    pub fn key(self) -> &'static str {
        match self {
            Operation::Refresh => "refresh",
            Operation::RefreshHot => "refresh_hot",
            Operation::EvalReady => "eval",
            Operation::Forward => "forward",
            Operation::ForwardListed => "forward_listed",
            Operation::MoveEval => "move",
            Operation::KingMove => "kingmove",
            Operation::UpdateEval => "update",
            Operation::Walk => "walk",
        }
    }

    /// The name in Stockfish's timing table.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Refresh => "refresh",
            Operation::RefreshHot => "refresh, cache hot",
            Operation::EvalReady => "eval, acc. ready",
            Operation::Forward => "forward",
            Operation::ForwardListed => "forward, listed by the transformer",
            Operation::MoveEval => "move + eval",
            Operation::KingMove => "king move + eval",
            Operation::UpdateEval => "update + eval",
            Operation::Walk => "walk depth 3, per node",
        }
    }
}

/// How many of `positions` one pass of `op` times: those with a non-king
/// move for `move` and `update`, those with a king move for `kingmove`,
/// every one otherwise; for `walk`, the positions walked from (every
/// 100th), though its time is per node.
pub fn positions_timed(positions: &[BenchPosition], op: Operation) -> usize {
    match op {
        Operation::MoveEval | Operation::UpdateEval => positions.iter().filter(|p| p.quiet.is_some()).count(),
        Operation::KingMove => positions.iter().filter(|p| p.king.is_some()).count(),
        Operation::Walk => positions.iter().step_by(WALK_STEP).count(),
        _ => positions.len(),
    }
}

/// [`Operation::Walk`] starts from every `WALK_STEP`-th position.
const WALK_STEP: usize = 100;

/// Runs the operations on a network. Each operation is timed per position
/// right after an untimed setup that leaves its inputs in cache (as in an
/// engine, where the accumulator was just computed; for `eval` and `forward`
/// the same evaluation also ran once before, warming the layer weights), and
/// the cost of reading the clock is subtracted.
pub struct Bench<'n, N: Network> {
    net: &'n N,
    positions: Vec<BenchPosition>,
    /// `update`'s and `forward`'s loose accumulators.
    accumulator: N::Accumulator,
    after: N::Accumulator,
    transformed: N::Transformed,
    /// The stack (and its refresh cache) of every other operation.
    stack: AccumulatorStack<N>,
    clock_ns: f64,
    /// How many times `move` makes its move inside one timing.
    repeat: usize,
}

impl<'n, N: Network> Bench<'n, N> {
    pub fn new(net: &'n N, positions: Vec<BenchPosition>) -> Self {
        Bench {
            net,
            positions,
            accumulator: N::Accumulator::default(),
            after: N::Accumulator::default(),
            transformed: N::new_transformed(),
            stack: AccumulatorStack::new(net),
            clock_ns: clock_overhead_ns(),
            repeat: 1,
        }
    }

    /// Makes [`Operation::MoveEval`] push, make, evaluate and pop its move
    /// `repeat` times (at least once) inside one timing, the values summed:
    /// the same work each time, for counting its instructions (under
    /// valgrind, against Stockfish's harness doing the same), not for times.
    pub fn set_repeat(&mut self, repeat: usize) {
        self.repeat = repeat.max(1);
    }

    /// How many positions `op` runs on in one pass (for `walk`, whose pass
    /// already gives the time per node, 1; [`positions_timed`] gives the
    /// positions walked from).
    pub fn count(&self, op: Operation) -> usize {
        match op {
            Operation::Walk => 1,
            op => positions_timed(&self.positions, op),
        }
    }

    /// One pass of `op` over every position: the total timed nanoseconds
    /// and a checksum of the results (so nothing is optimised away).
    pub fn pass(&mut self, op: Operation) -> (f64, i64) {
        if op == Operation::Walk {
            return self.walk_pass();
        }
        let net = self.net;
        let (mut total, mut sum) = (0.0, 0i64);
        for p in &self.positions {
            let stm = p.board.side_to_move();
            let count = p.board.piece_count();
            if matches!(op, Operation::Forward | Operation::ForwardListed | Operation::UpdateEval) {
                net.refresh(&p.board, &mut self.accumulator);
            }
            let stack = &mut self.stack;
            let (ns, value) = match op {
                Operation::Refresh => {
                    stack.reset(&p.board);
                    stack.cache_mut().forget(net, &p.board);
                    timed(|| stack.evaluate(net, &p.board).value)
                }
                Operation::RefreshHot => {
                    stack.reset(&p.board);
                    std::hint::black_box(stack.evaluate(net, &p.board));
                    stack.reset(&p.board);
                    timed(|| stack.evaluate(net, &p.board).value)
                }
                Operation::EvalReady => {
                    stack.reset(&p.board);
                    std::hint::black_box(stack.evaluate(net, &p.board));
                    // Warm: the layer stack's weights, as after a previous evaluation.
                    std::hint::black_box(stack.evaluate(net, &p.board));
                    timed(|| stack.evaluate(net, &p.board).value)
                }
                Operation::Forward => {
                    net.transform(&self.accumulator, stm, &mut self.transformed);
                    let bucket = net.evaluate_accumulator(&self.accumulator, stm, count).bucket;
                    std::hint::black_box(net.forward_searching(bucket, &self.transformed));
                    timed(|| net.forward_searching(bucket, &self.transformed))
                }
                Operation::ForwardListed => {
                    net.transform(&self.accumulator, stm, &mut self.transformed);
                    let bucket = net.evaluate_accumulator(&self.accumulator, stm, count).bucket;
                    std::hint::black_box(net.forward(bucket, &self.transformed));
                    timed(|| net.forward(bucket, &self.transformed))
                }
                Operation::MoveEval | Operation::KingMove => {
                    let m = if op == Operation::KingMove { &p.king } else { &p.quiet };
                    let Some(m) = m else { continue };
                    stack.reset(&p.board);
                    std::hint::black_box(stack.accumulator(net, &p.board));
                    // Warm: the board copy and the stack's next node, as in
                    // a search; the push below finds the node uncomputed
                    // again.
                    {
                        let changes = move_changes(&p.board, m);
                        let mut moved = p.board.clone();
                        moved.play_unchecked(*m);
                        stack.push(&changes);
                        stack.pop();
                        std::hint::black_box(&moved);
                    }
                    let repeat = if op == Operation::MoveEval { self.repeat } else { 1 };
                    timed(|| {
                        let mut sum = 0;
                        for _ in 0..repeat {
                            let changes = move_changes(&p.board, m);
                            let mut moved = p.board.clone();
                            moved.play_unchecked(*m);
                            stack.push(&changes);
                            sum += stack.evaluate(net, &moved).value;
                            stack.pop();
                        }
                        sum
                    })
                }
                Operation::UpdateEval => {
                    let Some(m) = &p.quiet else { continue };
                    let (before, after) = (&self.accumulator, &mut self.after);
                    timed(|| {
                        let changes = move_changes(&p.board, m);
                        update(net, &p.board, &changes, before, after);
                        net.evaluate_accumulator(after, stm.flip(), count - usize::from(m.is_capture())).value
                    })
                }
                Operation::Walk => unreachable!("handled above"),
            };
            total += ns - self.clock_ns;
            sum += i64::from(value);
        }
        (total, sum)
    }

    /// One [`Operation::Walk`] pass: the total time divided by the nodes
    /// walked (so "per position" is per node), and the walks' checksum.
    fn walk_pass(&mut self) -> (f64, i64) {
        let (mut ns, mut nodes, mut sum) = (0.0, 0u64, 0i64);
        for p in self.positions.iter().step_by(WALK_STEP) {
            let stats = walk(self.net, &mut self.stack, &p.board, 3, false);
            ns += stats.elapsed.as_nanos() as f64;
            nodes += stats.nodes;
            sum = sum.wrapping_add(stats.checksum);
        }
        (ns / nodes.max(1) as f64, sum)
    }

    /// Median nanoseconds per position of `op` over `runs` passes (after one
    /// warm-up pass).
    pub fn median_ns(&mut self, op: Operation, runs: usize) -> f64 {
        // A walk pass takes about a second: three are enough for a median.
        let runs = if op == Operation::Walk { runs.min(3) } else { runs };
        std::hint::black_box(self.pass(op));
        let count = self.count(op).max(1) as f64;
        let mut samples: Vec<f64> = (0..runs.max(1)).map(|_| std::hint::black_box(self.pass(op)).0 / count).collect();
        samples.sort_by(f64::total_cmp);
        samples[samples.len() / 2]
    }
}

/// [`Operation::Walk`] on `threads` threads sharing `net`, each with its own
/// accumulator stack, walking every `threads`-th of the walk's positions:
/// the median over `runs` passes of the wall-clock time of a pass divided
/// by all the nodes walked in it (so throughput: with two cores and no
/// contention, half the single-threaded figure).
pub fn walk_shared<N: Network + Sync>(net: &N, positions: &[BenchPosition], threads: usize, runs: usize) -> f64 {
    let roots: Vec<&Chess> = positions.iter().step_by(WALK_STEP).map(|p| &p.board).collect();
    let threads = threads.max(1);
    let pass = || {
        let start = Instant::now();
        let nodes: u64 = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let roots = &roots;
                    scope.spawn(move || {
                        let mut stack = AccumulatorStack::new(net);
                        let mut nodes = 0;
                        for root in roots.iter().skip(t).step_by(threads) {
                            let stats = walk(net, &mut stack, root, 3, false);
                            nodes += stats.nodes;
                            std::hint::black_box(stats.checksum);
                        }
                        nodes
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a walk thread panicked")).sum()
        });
        start.elapsed().as_nanos() as f64 / nodes.max(1) as f64
    };
    std::hint::black_box(pass());
    let mut samples: Vec<f64> = (0..runs.clamp(1, 3)).map(|_| pass()).collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Runs `f`, returning the elapsed nanoseconds and its result.
#[inline(always)]
fn timed<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let start = Instant::now();
    let value = std::hint::black_box(f());
    (start.elapsed().as_nanos() as f64, value)
}

/// The median cost of timing nothing.
fn clock_overhead_ns() -> f64 {
    let mut samples: Vec<f64> = (0..10_001).map(|_| timed(|| 0).0).collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Both accumulators after a non-king move, updated from `before`.
pub fn update<N: Network>(
    net: &N,
    board: &Chess,
    changes: &MoveChanges,
    before: &N::Accumulator,
    after: &mut N::Accumulator,
) {
    let mut board_changes = N::BoardChanges::default();
    if N::BOARD_FEATURES {
        let before = crate::Placement::new(&board.bitboards());
        let mut after = before;
        changes.apply_to(&mut after);
        N::board_changes(&before, &after, &mut board_changes);
    }
    for perspective in [Color::White, Color::Black] {
        // One list per `let` (see `FeatureBuffer`).
        let mut removed = N::Changes::default();
        let mut added = N::Changes::default();
        let king = board.king_square(perspective);
        let incremental = changes.features(perspective, king, N::same_view, N::feature, &mut removed, &mut added);
        assert!(incremental, "update() is for non-king moves");
        if N::BOARD_FEATURES {
            N::board_features(perspective, king, &board_changes, &mut removed, &mut added);
        }
        net.update(before, after, perspective, &removed, &added);
    }
}
