// Reckless side of tools/bullet-compare/reckless-v60-reference.sh and, for `bench`, of
// tools/bullet-compare/compare.py (written for the nnue project; no Reckless code is copied
// here). Both build the same tree: the script or compare.py copies this file into a build copy of
// Reckless (codedeliveryservice/Reckless, commit 789de89) as src/nnue_reference.rs, declares
// it in src/lib.rs (`pub mod nnue_reference;`: the engine's `nnue` module is private to the
// library crate, so the harness has to live inside it) and makes src/main.rs call `run()` when
// the first argument is `nnuereference`. The NNUE work below is Reckless's own: the lookup and
// threat tables (`lookup::initialize`, `nnue::initialize`), `Board::from_fen`, the parameters
// the engine shares between threads (`ParametersHandle::allocate_shared`: the net embedded with
// include_bytes! at build time), `Network::new`, `full_refresh` and `evaluate`; for `walk` and
// `bench` also the engine's move generator and `push` / `make_move` / `pop` / `undo_move` in
// the order its search uses them.
//
//   reckless nnuereference dump <positions>          -> "fen<TAB>output" per position
//   reckless nnuereference walk <positions> <plies>  -> "fen<TAB>output" per evaluated node
//   reckless nnuereference bench <moves> <runs> <ops>
//     -> "bench<TAB>op<TAB>ns<TAB>positions<TAB>checksum" per operation
//
// <positions>: a file whose first tab-separated column is a FEN; blank lines and lines
// starting with '#' are skipped. <moves>: as tests/reference/timing_moves.tsv (FEN, a random
// legal move, a random non-king legal move or `-`; blank lines skipped), the file `nnue bench`
// times on. <ops>: comma-separated, from `eval`, `move`, `board`.
//
// output = Network::evaluate: the network's raw i32 from the side to move's point of view,
// before the search's corrections (evaluation::correct_eval). `dump` evaluates accumulators
// freshly built by `full_refresh`.
//
// `walk` checks the incremental updates. From each position it plays up to <plies> legal moves
// (chosen by a fixed xorshift sequence seeded by the line's number), each as the search does:
// `push(mv, &board)`, then `board.make_move(mv, &mut network)` (the network observes the
// threat changes). On even lines it evaluates after every move; on odd lines only after the
// last, so that `evaluate` catches up several plies at once. If the side to move is not in
// check it then makes a null move (nothing pushed) and evaluates again. Every evaluation is
// compared with a second network's `full_refresh` + `evaluate` of the same board; a difference
// stops the run (exit 1). It prints the FEN reached (`Board::to_fen`) and the incremental
// value, then undoes everything (`pop`, `undo_move`) and checks that the position's own value
// is unchanged.
//
// `bench` times Reckless's network doing the work of two operations of `nnue bench`
// (nnue-runtime/src/shakmaty/bench.rs), with its timing rules: per position an untimed setup, then
// the operation alone between two `Instant` readings (the network, and the board it moves on, made
// to escape with `black_box` first); the median cost of timing nothing (10001 samples) subtracted
// from every sample; one warm-up pass, then per operation the median over <runs> passes of (the
// pass's total ns / positions timed). Each board is parsed once, before timing.
//   eval:  `eval, acc. ready`. Untimed: `full_refresh`, `evaluate` twice (the second warms the
//          layers). Timed: `evaluate`, which finds both perspectives accurate and runs the
//          output transformer (pairwise activation, L1, L2, L3). Every position.
//   move:  `move + eval`, with the file's non-king move (positions without one are skipped, as
//          ours skips them). Untimed: `full_refresh` (the root's accumulators computed), then
//          `push`, `make_move`, `pop`, `undo_move` once (board and stack hot, as ours plays the
//          move once untimed). Timed: `push(mv, &board)`, `board.make_move(mv, &mut network)`
//          (the board's own bookkeeping, and the threat deltas the network observes),
//          `evaluate` (both perspectives updated from the root, then the output transformer),
//          `pop`. Untimed after it: `undo_move`. Ours times the move's piece changes, a copy of
//          the board with the move played (shakmaty), push, evaluate and pop.
//   board: not an operation of ours: `make_move(mv, &mut NullBoardObserver)` alone (untimed:
//          the same once, and `undo_move` after), i.e. the board's part of `move`, without the
//          network. Positions as for `move`.
// Before timing, every `move` evaluation is checked against `full_refresh` + `evaluate` of the
// board after the move (a difference: exit 1).

use std::{hint::black_box, sync::Arc, time::Instant};

use crate::{
    board::{Board, NullBoardObserver},
    nnue::{Network, ParametersHandle},
    numa::NumaReplicable,
    types::Move,
};

fn usage() -> ! {
    eprintln!("usage: reckless nnuereference dump <positions>");
    eprintln!("       reckless nnuereference walk <positions> <plies>");
    eprintln!("       reckless nnuereference bench <moves> <runs> <eval,move,board>");
    std::process::exit(2)
}

fn fail(message: String) -> ! {
    eprintln!("nnuereference: {message}");
    std::process::exit(1)
}

fn positions(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(format!("cannot read {path}: {e}")));
    let fens: Vec<String> = text
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    if fens.is_empty() {
        fail(format!("no positions in {path}"));
    }
    fens
}

fn parse(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| fail(format!("`{fen}`: {e:?}")))
}

fn network() -> Network {
    let parameters: Arc<ParametersHandle> =
        <ParametersHandle as NumaReplicable>::allocate_shared().expect("the embedded parameters");
    Network::new(parameters)
}

fn fresh(network: &mut Network, board: &Board) -> i32 {
    network.full_refresh(board);
    network.evaluate(board)
}

pub fn run() {
    let args: Vec<String> = std::env::args().skip(2).collect();
    crate::lookup::initialize();
    crate::nnue::initialize();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["dump", path] => dump(path),
        ["walk", path, plies] => walk(path, plies.parse().unwrap_or_else(|_| usage())),
        ["bench", path, runs, ops] => bench(path, runs.parse().unwrap_or_else(|_| usage()), ops),
        _ => usage(),
    }
}

fn dump(path: &str) {
    let mut net = network();
    for fen in positions(path) {
        let board = parse(&fen);
        println!("{fen}\t{}", fresh(&mut net, &board));
    }
}

fn walk(path: &str, plies: usize) {
    let mut net = network();
    let mut check = network();
    let mut checked = 0usize;
    let mut evaluate = |net: &mut Network, board: &Board, check: &mut Network| {
        let incremental = net.evaluate(board);
        let expected = fresh(check, board);
        if incremental != expected {
            fail(format!("`{}`: incremental {incremental}, full refresh {expected}", board.to_fen()));
        }
        println!("{}\t{incremental}", board.to_fen());
        checked += 1;
    };
    for (line, fen) in positions(path).iter().enumerate() {
        let mut board = parse(fen);
        let root = fresh(&mut net, &board);
        let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ (line as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03);
        let mut played: Vec<Move> = Vec::new();
        for ply in 0..plies {
            let moves: Vec<Move> = board.generate_all_moves().iter().map(|e| e.mv).collect();
            if moves.is_empty() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mv = moves[(state % moves.len() as u64) as usize];
            net.push(mv, &board);
            board.make_move(mv, &mut net);
            played.push(mv);
            let last = ply + 1 == plies || board.generate_all_moves().is_empty();
            if line % 2 == 0 || last {
                evaluate(&mut net, &board, &mut check);
            }
        }
        let null = !board.in_check();
        if null {
            board.make_null_move();
            evaluate(&mut net, &board, &mut check);
            board.undo_null_move();
        }
        while let Some(mv) = played.pop() {
            net.pop();
            board.undo_move(mv);
        }
        let again = net.evaluate(&board);
        if again != root {
            fail(format!("`{fen}`: {root} before the walk, {again} after undoing it"));
        }
    }
    eprintln!("nnuereference walk: {checked} incremental evaluations equal to full refreshes");
}

/// A position of the moves file and its non-king move (`None` for `-`).
struct BenchPosition {
    board: Board,
    quiet: Option<Move>,
}

fn bench_positions(path: &str) -> Vec<BenchPosition> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(format!("cannot read {path}: {e}")));
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.trim_end_matches('\r').split('\t').collect();
        let [fen, _, quiet] = fields[..] else { fail(format!("{path}:{}: expected 3 fields", i + 1)) };
        // A clone: its state stack is allocated to size by the untimed first move.
        let board = parse(fen).clone();
        let quiet = (quiet != "-").then(|| {
            let found = board.generate_all_moves().iter().map(|e| e.mv).find(|m| m.to_uci(&board) == quiet);
            found
                .filter(|&m| board.is_legal(m))
                .unwrap_or_else(|| fail(format!("{path}:{}: `{quiet}` is not legal", i + 1)))
        });
        positions.push(BenchPosition { board, quiet });
    }
    if positions.is_empty() {
        fail(format!("no positions in {path}"));
    }
    positions
}

/// Runs `f`, returning the elapsed nanoseconds and its result.
#[inline(always)]
fn timed(f: impl FnOnce() -> i32) -> (f64, i32) {
    let start = Instant::now();
    let value = black_box(f());
    (start.elapsed().as_nanos() as f64, value)
}

fn bench(path: &str, runs: usize, ops: &str) {
    let ops: Vec<&str> = ops.split(',').collect();
    if ops.iter().any(|op| !["eval", "move", "board"].contains(op)) {
        usage();
    }
    let mut positions = bench_positions(path);
    let mut net = network();
    let mut check = network();
    for p in positions.iter_mut() {
        let Some(mv) = p.quiet else { continue };
        net.full_refresh(&p.board);
        net.push(mv, &p.board);
        p.board.make_move(mv, &mut net);
        let (incremental, expected) = (net.evaluate(&p.board), fresh(&mut check, &p.board));
        if incremental != expected {
            fail(format!("`{}`: move + eval {incremental}, full refresh {expected}", p.board.to_fen()));
        }
        net.pop();
        p.board.undo_move(mv);
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
                        net.full_refresh(board);
                        black_box(net.evaluate(board));
                        black_box(net.evaluate(board));
                        black_box(&mut net);
                        timed(|| net.evaluate(board))
                    }
                    ("move", Some(mv)) => {
                        net.full_refresh(board);
                        net.push(mv, board);
                        board.make_move(mv, &mut net);
                        net.pop();
                        board.undo_move(mv);
                        black_box(&mut net);
                        black_box(&mut *board);
                        let timing = timed(|| {
                            net.push(mv, board);
                            board.make_move(mv, &mut net);
                            let value = net.evaluate(board);
                            net.pop();
                            value
                        });
                        board.undo_move(mv);
                        timing
                    }
                    ("board", Some(mv)) => {
                        board.make_move(mv, &mut NullBoardObserver);
                        board.undo_move(mv);
                        black_box(&mut *board);
                        let timing = timed(|| {
                            board.make_move(mv, &mut NullBoardObserver);
                            board.fiftymove_clock() as i32
                        });
                        board.undo_move(mv);
                        timing
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
