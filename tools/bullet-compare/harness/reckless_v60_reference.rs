// Reckless side of tools/bullet-compare/reckless-v60-reference.sh (written for the nnue
// project; no Reckless code is copied here). The script copies this file into a build copy of
// Reckless (codedeliveryservice/Reckless, commit 789de89) as src/nnue_reference.rs, declares
// it in src/lib.rs (`pub mod nnue_reference;`: the engine's `nnue` module is private to the
// library crate, so the harness has to live inside it) and makes src/main.rs call `run()` when
// the first argument is `nnuereference`. The NNUE work below is Reckless's own: the lookup and
// threat tables (`lookup::initialize`, `nnue::initialize`), `Board::from_fen`, the parameters
// the engine shares between threads (`ParametersHandle::allocate_shared`: the net embedded with
// include_bytes! at build time), `Network::new`, `full_refresh` and `evaluate`; for `walk`
// also the engine's move generator and `push` / `make_move` / `pop` / `undo_move` in the order
// its search uses them.
//
//   reckless nnuereference dump <positions>          -> "fen<TAB>output" per position
//   reckless nnuereference walk <positions> <plies>  -> "fen<TAB>output" per evaluated node
//
// <positions>: a file whose first tab-separated column is a FEN; blank lines and lines
// starting with '#' are skipped.
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

use std::sync::Arc;

use crate::{
    board::Board,
    nnue::{Network, ParametersHandle},
    numa::NumaReplicable,
    types::Move,
};

fn usage() -> ! {
    eprintln!("usage: reckless nnuereference dump <positions>");
    eprintln!("       reckless nnuereference walk <positions> <plies>");
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
