//! The timed operations of Stockfish's timing table
//! (`tests/reference/stockfish-timings.md` in the repository), for any
//! generated [`Network`] (feature `shakmaty`): the `nnue bench` command, the
//! criterion benchmarks and the Stockfish comparison
//! (`tools/stockfish-compare/`) all time these, on [`TIMING_MOVES`].

use crate::features::FeatureSink;
use crate::shakmaty::walk::walk;
use crate::shakmaty::{chess_from_fen, move_changes};
use crate::{AccumulatorStack, Color, MoveChanges, Network, Position, RefreshCache};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position as _};
use std::time::Instant;

/// The positions and moves every timing uses: 2,087 positions from Stockfish's
/// benchmark and random playouts, each with a random legal move and a random
/// non-king legal move (`tests/reference/timing_moves.tsv`; the same file is
/// read by the Stockfish harness). Parse with [`parse_moves`].
pub const TIMING_MOVES: &str = include_str!("../../data/timing_moves.tsv");

/// A position of `timing_moves.tsv` and its random non-king move.
#[derive(Debug, Clone)]
pub struct BenchPosition {
    pub board: Chess,
    /// The non-king move (`None` when the position has none).
    pub quiet: Option<Move>,
}

/// Parses `timing_moves.tsv`: FEN, a random legal move, a random non-king
/// legal move (`-` if none), tab-separated.
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
            Ok(BenchPosition { board, quiet })
        })
        .collect()
}

/// An operation timed per position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// Both accumulators from scratch, then transform and layers.
    Refresh,
    /// Both accumulators through the refresh cache, which already holds
    /// this very position, then transform and layers.
    RefreshHot,
    /// Transform and layers, accumulators ready.
    EvalReady,
    /// The layers only, on a ready transformer output.
    Forward,
    /// As an engine: make the non-king move (shakmaty, on a copy), push its
    /// piece changes on an [`AccumulatorStack`] whose top is computed,
    /// evaluate (both perspectives updated lazily), pop.
    MoveEval,
    /// Without a board move or a stack: the move's piece changes, both
    /// updates, the evaluation.
    UpdateEval,
    /// A perft-style walk to depth 3 evaluating every node through an
    /// [`AccumulatorStack`] (moves made on copies), from every 100th
    /// position: time per node.
    Walk,
}

impl Operation {
    pub const ALL: [Operation; 7] = [
        Operation::Refresh,
        Operation::RefreshHot,
        Operation::EvalReady,
        Operation::Forward,
        Operation::MoveEval,
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
            Operation::MoveEval => "move",
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
            Operation::MoveEval => "move + eval",
            Operation::UpdateEval => "update + eval",
            Operation::Walk => "walk depth 3, per node",
        }
    }
}

/// Runs the operations on a network. Each operation is timed per position
/// right after an untimed setup that leaves its inputs in cache (as in an
/// engine, where the accumulator was just computed; for `eval` and `forward`
/// the same evaluation also ran once before, warming the layer weights), and
/// the cost of reading the clock is subtracted.
pub struct Bench<'n, N: Network> {
    net: &'n N,
    positions: Vec<BenchPosition>,
    accumulator: N::Accumulator,
    after: N::Accumulator,
    transformed: N::Transformed,
    stack: AccumulatorStack<N>,
    cache: RefreshCache<N>,
    clock_ns: f64,
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
            cache: RefreshCache::new(net),
            clock_ns: clock_overhead_ns(),
        }
    }

    /// How many positions `op` runs on in one pass.
    pub fn count(&self, op: Operation) -> usize {
        match op {
            Operation::MoveEval | Operation::UpdateEval => self.positions.iter().filter(|p| p.quiet.is_some()).count(),
            Operation::Walk => 1,
            _ => self.positions.len(),
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
            if matches!(op, Operation::EvalReady | Operation::Forward | Operation::UpdateEval) {
                net.refresh(&p.board, &mut self.accumulator);
            }
            let (ns, value) = match op {
                Operation::Refresh => timed(|| {
                    net.refresh(&p.board, &mut self.accumulator);
                    net.evaluate_accumulator(&self.accumulator, stm, count).value
                }),
                Operation::RefreshHot => {
                    self.cache.refresh_both(net, &p.board, &mut self.accumulator);
                    timed(|| {
                        self.cache.refresh_both(net, &p.board, &mut self.accumulator);
                        net.evaluate_accumulator(&self.accumulator, stm, count).value
                    })
                }
                Operation::EvalReady => {
                    // Warm: the layer stack's weights, as after a previous evaluation.
                    std::hint::black_box(net.evaluate_accumulator(&self.accumulator, stm, count));
                    timed(|| net.evaluate_accumulator(&self.accumulator, stm, count).value)
                }
                Operation::Forward => {
                    net.transform(&self.accumulator, stm, &mut self.transformed);
                    let bucket = net.evaluate_accumulator(&self.accumulator, stm, count).bucket;
                    std::hint::black_box(net.forward(bucket, &self.transformed));
                    timed(|| net.forward(bucket, &self.transformed))
                }
                Operation::MoveEval => {
                    let Some(m) = &p.quiet else { continue };
                    let stack = &mut self.stack;
                    stack.reset(&p.board);
                    std::hint::black_box(stack.accumulator(net, &p.board));
                    timed(|| {
                        let changes = move_changes(&p.board, m);
                        let mut moved = p.board.clone();
                        moved.play_unchecked(*m);
                        stack.push(&changes);
                        let value = stack.evaluate(net, &moved).value;
                        stack.pop();
                        value
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
        for p in self.positions.iter().step_by(100) {
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
    let roots: Vec<&Chess> = positions.iter().step_by(100).map(|p| &p.board).collect();
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
        let before = board.bitboards();
        let mut after = before;
        changes.apply(&mut after);
        N::board_changes(&before, &after, &mut board_changes);
    }
    for perspective in [Color::White, Color::Black] {
        let (mut removed, mut added) = (N::Changes::default(), N::Changes::default());
        let king = board.king_square(perspective);
        let incremental = changes.features(perspective, king, N::same_view, N::feature, &mut removed, &mut added);
        assert!(incremental, "update() is for non-king moves");
        if N::BOARD_FEATURES {
            N::board_features(perspective, king, &board_changes, &mut removed, &mut added);
        }
        net.update(before, after, perspective, removed.as_slice(), added.as_slice());
    }
}
