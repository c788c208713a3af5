// Reckless side of tools/bullet-compare/reckless-reference.sh (written for
// the nnue project; no Reckless code is copied here). The script copies this
// file into a build copy of Reckless (codedeliveryservice/Reckless, commit
// e8bbd18) as src/nnue_reference.rs, declares it in src/main.rs and makes
// `reckless nnuereference ...` call `run()`. The NNUE work below is
// Reckless's own: Board::new (its FEN parser), Network::default (an
// accumulator stack), Network::refresh (both perspectives from the biases)
// and Network::evaluate (the output layer); the net is the one Reckless
// embeds with include_bytes! at build time.
//
//   reckless nnuereference dump <positions>   -> "fen<TAB>output" per position
//
// <positions>: a file whose first tab-separated column is a FEN; blank lines
// and lines starting with '#' are skipped.
//
// output = Network::evaluate of freshly refreshed accumulators: the network's
// raw output from the side to move's point of view, before the engine's
// material and optimism scaling (evaluate::evaluate).

use crate::board::Board;
use crate::nnue::Network;

fn usage() -> ! {
    eprintln!("usage: reckless nnuereference dump <positions>");
    std::process::exit(2)
}

pub fn run() {
    let args: Vec<String> = std::env::args().skip(2).collect();
    if args.len() != 2 || args[0] != "dump" {
        usage();
    }
    let text = std::fs::read_to_string(&args[1]).unwrap_or_else(|e| {
        eprintln!("nnuereference: cannot read {}: {e}", args[1]);
        std::process::exit(1)
    });
    let mut network = Network::default();
    let mut count = 0usize;
    for line in text.lines().map(|l| l.trim_end_matches('\r')) {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fen = line.split('\t').next().unwrap();
        let board = Board::new(fen).unwrap_or_else(|e| {
            eprintln!("nnuereference: `{fen}`: {e:?}");
            std::process::exit(1)
        });
        network.refresh(&board);
        println!("{fen}\t{}", network.evaluate(&board));
        count += 1;
    }
    if count == 0 {
        eprintln!("nnuereference: no positions in {}", args[1]);
        std::process::exit(1);
    }
}
