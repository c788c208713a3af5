// Viridithas side of tools/bullet-compare/compare.py (written for the nnue project; no Viridithas
// code is copied here). compare.py copies this file into a build copy of Viridithas
// (cosmobobak/viridithas, commit 8bc0706) as src/nnue_compare.rs, declares it in src/main.rs
// (`mod nnue_compare;`) and makes `main` call `run()` when the first argument is `nnuecompare`;
// the net is the tree's viridithas.nnue.zst (include_bytes!), as for the engine. Built with the
// engine's own command, `RUSTFLAGS="-C target-cpu=native" cargo build --release` (its release
// profile: fat LTO, one codegen unit, panic = abort). The NNUE work below is Viridithas's own:
// `NNUEParams::decompress_and_alloc` (the embedded net decompressed and permuted for the target,
// or the permuted copy mapped from $TMPDIR), `Fen::parse` and `Board::set_from_fen` (as its UCI
// `position fen` does), `Board::parse_uci`, `NNUEState::new` / `reïnit_from`, and for `bench`
// `Board::make_move` / `unmake_move` with the NNUEState, `NNUEState::force` and `evaluate` in the
// order its search uses them (search.rs `make_move`, evaluation.rs `evaluate`).
//
//   viridithas nnuecompare dump <positions>            -> "fen<TAB>output" per position
//   viridithas nnuecompare bench <moves> <runs> <ops>
//     -> "bench<TAB>op<TAB>ns<TAB>positions<TAB>checksum" per operation
//
// <positions>: a file whose first tab-separated column is a FEN; blank lines and lines
// starting with '#' are skipped. <moves>: as tests/reference/timing_moves.tsv (FEN, a random
// legal move, a random non-king legal move or `-`; blank lines skipped), the file `nnue bench`
// times on. <ops>: comma-separated, from `eval`, `move`, `board`, `undo`. A FEN whose halfmove clock is
// above 100 (which `Fen::parse` rejects) is parsed with 100 there: the network does not read it.
//
// output = `NNUEState::evaluate` after `reïnit_from` (both accumulators from scratch): the
// network's raw value from the side to move's point of view, before evaluation.rs's clamp (and
// also in check: the reference file's values come from `raweval` with its in-check 0 patched
// out).
//
// `bench` times Viridithas's network doing the work of two operations of `nnue bench`
// (nnue-runtime/src/shakmaty/bench.rs), with its timing rules: per position an untimed setup,
// then the operation alone between two `Instant` readings (the state, and the board it moves
// on, made to escape with `black_box` first); the median cost of timing nothing (10001
// samples) subtracted from every sample; one warm-up pass, then per operation the median over
// <runs> passes of (the pass's total ns / positions timed). Each board is parsed once, before
// timing.
//   eval:  `eval, acc. ready`. Untimed: `reïnit_from` (both accumulators computed), `force` +
//          `evaluate` twice (the second warms the layers). Timed: `force` (which finds both
//          perspectives computed) + `evaluate` (the pairwise activation, L1, L2, L3), as the
//          engine's evaluation calls them. Every position.
//   move:  `move + eval`, with the file's non-king move (positions without one are skipped, as
//          ours skips them). Untimed: `reïnit_from` (the root's accumulators computed), then
//          `make_move` and `unmake_move` once (board, history and stack hot; the timed move
//          finds its node uncomputed again). Timed, as the search does it:
//          `board.make_move(mv, &mut nnue)` (the board: history push of its state, keys,
//          threats, pins; and the feature deltas: piece changes and threat changes, recorded
//          for the network), `force` (both perspectives updated lazily from the root),
//          `evaluate`, `board.unmake_move(&mut nnue)` (the state popped from the history, and
//          the NNUE stack's pop). Ours times the move's piece changes, a copy of the board with
//          the move played (shakmaty), push, evaluate, pop.
//   board: not an operation of ours: `make_move` then `unmake_move` (untimed: the same once)
//          with the NNUEState but neither `force` nor `evaluate`: the board's part of `move`
//          plus the recording of the feature deltas (Viridithas records them inside the move:
//          there is no board-only make_move), without any accumulator or layer work.
//          Positions as for `move`.
//   undo:  not an operation of ours: `unmake_move` alone (untimed before it: `make_move`,
//          `unmake_move`, `make_move`), the undo that `move` times after `evaluate`: the
//          board's state popped back from its history and the NNUE stack's pop, one call.
//          Positions as for `move`.
// Before timing, every `move` evaluation is checked against `reïnit_from` + `evaluate` of the
// board after the move (a difference: exit 1).

use std::{hint::black_box, time::Instant};

use crate::{
    chess::{board::Board, chessmove::Move, fen::Fen},
    nnue::network::{NNUEParams, NNUEState},
};

fn usage() -> ! {
    eprintln!("usage: viridithas nnuecompare dump <positions>");
    eprintln!("       viridithas nnuecompare bench <moves> <runs> <eval,move,board,undo>");
    std::process::exit(2)
}

fn fail(message: String) -> ! {
    eprintln!("nnuecompare: {message}");
    std::process::exit(1)
}

/// The rows of a file, split at tabs (blank lines and `#` lines skipped).
fn rows(path: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(format!("cannot read {path}: {e}")));
    let rows: Vec<Vec<String>> = text
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect();
    if rows.is_empty() {
        fail(format!("no positions in {path}"));
    }
    rows
}

/// A board set from `fen` as the engine's `position fen` sets it.
fn parse(fen: &str) -> Board {
    let mut fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    if fields.get(4).and_then(|h| h.parse::<u32>().ok()).is_some_and(|h| h > 100) {
        fields[4] = "100";
    }
    let parsed = Fen::parse(&fields.join(" ")).unwrap_or_else(|e| fail(format!("`{fen}`: {e}")));
    let mut board = Board::startpos();
    board.set_from_fen(&parsed);
    board.zero_height();
    board
}

fn fresh(nnue: &mut NNUEState, params: &NNUEParams, board: &Board) -> i32 {
    nnue.reïnit_from(board, params);
    nnue.evaluate(params, board)
}

/// The harness's entry point (`viridithas nnuecompare ...`).
pub fn run() {
    let args: Vec<String> = std::env::args().skip(2).collect();
    let params = NNUEParams::decompress_and_alloc().unwrap_or_else(|e| fail(format!("the net: {e}")));
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["dump", path] => dump(params, path),
        ["bench", path, runs, ops] => bench(params, path, runs.parse().unwrap_or_else(|_| usage()), ops),
        _ => usage(),
    }
}

fn dump(params: &NNUEParams, path: &str) {
    let mut nnue = NNUEState::new(&Board::startpos(), params);
    for row in rows(path) {
        let board = parse(&row[0]);
        println!("{}\t{}", row[0], fresh(&mut nnue, params, &board));
    }
}

/// A position of the moves file and its non-king move (`None` for `-`).
struct BenchPosition {
    board: Board,
    quiet: Option<Move>,
}

fn bench_positions(path: &str) -> Vec<BenchPosition> {
    rows(path)
        .into_iter()
        .enumerate()
        .map(|(i, fields)| {
            let [fen, _, quiet] = &fields[..] else { fail(format!("{path}: row {}: expected 3 fields", i + 1)) };
            let board = parse(fen);
            let quiet = (quiet != "-").then(|| {
                let mv = board.parse_uci(quiet).ok().filter(|m| board.legal_moves().contains(m));
                mv.unwrap_or_else(|| fail(format!("{path}: row {}: `{quiet}` is not legal", i + 1)))
            });
            BenchPosition { board, quiet }
        })
        .collect()
}

/// Runs `f`, returning the elapsed nanoseconds and its result.
#[inline(always)]
fn timed(f: impl FnOnce() -> i32) -> (f64, i32) {
    let start = Instant::now();
    let value = black_box(f());
    (start.elapsed().as_nanos() as f64, value)
}

fn bench(params: &NNUEParams, path: &str, runs: usize, ops: &str) {
    let ops: Vec<&str> = ops.split(',').collect();
    if ops.iter().any(|op| !["eval", "move", "board", "undo"].contains(op)) {
        usage();
    }
    let mut positions = bench_positions(path);
    let mut nnue = NNUEState::new(&Board::startpos(), params);
    let mut check = NNUEState::new(&Board::startpos(), params);
    for (i, p) in positions.iter_mut().enumerate() {
        let Some(mv) = p.quiet else { continue };
        nnue.reïnit_from(&p.board, params);
        p.board.make_move(mv, &mut nnue);
        nnue.force(&p.board, params);
        let (incremental, expected) = (nnue.evaluate(params, &p.board), fresh(&mut check, params, &p.board));
        if incremental != expected {
            fail(format!("{path}: row {}, after its move: move + eval {incremental}, full refresh {expected}", i + 1));
        }
        p.board.unmake_move(&mut nnue);
    }
    let mut clock: Vec<f64> = (0..10_001).map(|_| timed(|| 0).0).collect();
    clock.sort_by(f64::total_cmp);
    let clock = clock[clock.len() / 2];
    for op in ops {
        let count = positions.iter().filter(|p| op == "eval" || p.quiet.is_some()).count();
        let mut checksum = 0i64;
        let mut pass = || {
            let mut total = 0.0;
            for p in positions.iter_mut() {
                let board = &mut p.board;
                let (ns, value) = match (op, p.quiet) {
                    ("eval", _) => {
                        nnue.reïnit_from(board, params);
                        nnue.force(board, params);
                        black_box(nnue.evaluate(params, board));
                        nnue.force(board, params);
                        black_box(nnue.evaluate(params, board));
                        black_box(&mut *nnue);
                        black_box(&*board);
                        timed(|| {
                            nnue.force(board, params);
                            nnue.evaluate(params, board)
                        })
                    }
                    ("move", Some(mv)) => {
                        nnue.reïnit_from(board, params);
                        board.make_move(mv, &mut nnue);
                        board.unmake_move(&mut nnue);
                        black_box(&mut *nnue);
                        black_box(&mut *board);
                        timed(|| {
                            board.make_move(mv, &mut nnue);
                            nnue.force(board, params);
                            let value = nnue.evaluate(params, board);
                            board.unmake_move(&mut nnue);
                            value
                        })
                    }
                    ("board", Some(mv)) => {
                        board.make_move(mv, &mut nnue);
                        board.unmake_move(&mut nnue);
                        black_box(&mut *nnue);
                        black_box(&mut *board);
                        timed(|| {
                            board.make_move(mv, &mut nnue);
                            let value = i32::from(board.fifty_move_counter());
                            board.unmake_move(&mut nnue);
                            value
                        })
                    }
                    ("undo", Some(mv)) => {
                        board.make_move(mv, &mut nnue);
                        board.unmake_move(&mut nnue);
                        board.make_move(mv, &mut nnue);
                        black_box(&mut *nnue);
                        black_box(&mut *board);
                        timed(|| {
                            board.unmake_move(&mut nnue);
                            i32::from(board.fifty_move_counter())
                        })
                    }
                    _ => continue,
                };
                total += ns - clock;
                checksum += i64::from(value);
            }
            total / count.max(1) as f64
        };
        black_box(pass());
        let mut samples: Vec<f64> = (0..runs.max(1)).map(|_| pass()).collect();
        samples.sort_by(f64::total_cmp);
        println!("bench\t{op}\t{:.1}\t{count}\t{checksum}", samples[samples.len() / 2]);
    }
}
