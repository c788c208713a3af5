// akimbo side of tools/bullet-compare (written for the nnue project; no
// akimbo code is copied here). compare.py copies this file into a build copy
// of akimbo (jw1912/akimbo, commit d516497) as src/nnue_compare.rs, declares
// it in src/main.rs and makes `akimbo nnuecompare ...` call `run()`. The NNUE
// work below is akimbo's code: Position::from_fen, Accumulator::default (the
// feature biases), Accumulator::update (one feature row added, i16 wrapping
// in release) and Network::out (the f32 layers); the net is the one akimbo
// embeds with include_bytes!.
//
//   akimbo nnuecompare dump  <positions>               -> "fen<TAB>output" per position
//   akimbo nnuecompare bench <positions> <runs> <ops>  -> "bench<TAB>op<TAB>ns<TAB>positions<TAB>checksum"
//
// <positions>: a TSV whose first column is a FEN; blank lines and lines
// starting with '#' are skipped. <ops>: comma-separated, from `refresh`, `eval`.
//
// output = Network::out(side to move's accumulator, other side's) of freshly
// built accumulators, before akimbo's material scaling (Position::eval), as
// the reference files are.
//
// akimbo has no "refresh" function: its accumulators are built piece by piece
// by Position::toggle (from_fen and make), which adds, for a piece of colour
// `side`, type `pc` (2..=7) on `sq`, row 384*side + 64*pc + sq - 128 to the
// white accumulator and row 384*(side^1) + 64*pc + (sq^56) - 128 to the black
// one. `refresh` here does exactly that for every piece of the board, starting
// from the biases (the same index arithmetic, the engine's own update), so it
// is akimbo's from-scratch build without the FEN parsing, bitboard and hash
// bookkeeping of from_fen.
//
// Timing rules: those of nnue-runtime/src/shakmaty/bench.rs (an untimed setup per
// position, the operation alone between two Instant readings, the median
// cost of timing nothing subtracted, one warm-up pass, the median over
// <runs> passes of total ns / positions).
//   refresh: both accumulators from scratch + Network::out.
//   eval:    accumulators built (untimed), one untimed Network::out, then
//            Network::out timed.

use crate::network::{Accumulator, Network};
use crate::position::Position;
use std::hint::black_box;
use std::time::Instant;

fn build(pos: &Position, accs: &mut [Accumulator; 2]) {
    accs[0] = Accumulator::default();
    accs[1] = Accumulator::default();
    for side in 0..2 {
        for pc in 2..8 {
            let mut bb = pos.side(side) & pos.piece(pc);
            while bb != 0 {
                let sq = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                accs[0].update::<true>(384 * side + 64 * pc + sq - 128);
                accs[1].update::<true>(384 * (side ^ 1) + 64 * pc + (sq ^ 56) - 128);
            }
        }
    }
}

fn out(pos: &Position, accs: &[Accumulator; 2]) -> i32 {
    let stm = pos.stm();
    Network::out(&accs[stm], &accs[stm ^ 1])
}

fn read_fens(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("nnue_compare: cannot read {path}: {e}");
        std::process::exit(1)
    });
    text.lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect()
}

#[inline(always)]
fn timed(f: impl FnOnce() -> i32) -> (f64, i32) {
    let start = Instant::now();
    let value = black_box(f());
    (start.elapsed().as_nanos() as f64, value)
}

fn clock_overhead_ns() -> f64 {
    let mut samples: Vec<f64> = (0..10_001).map(|_| timed(|| 0).0).collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn usage() -> ! {
    eprintln!("usage: akimbo nnuecompare dump <positions> | bench <positions> <runs> <refresh,eval>");
    std::process::exit(2)
}

pub fn run() {
    let args: Vec<String> = std::env::args().skip(2).collect();
    if args.len() < 2 {
        usage();
    }
    let fens = read_fens(&args[1]);
    if fens.is_empty() {
        eprintln!("nnue_compare: no positions in {}", args[1]);
        std::process::exit(1);
    }
    let positions: Vec<Position> = fens.iter().map(|f| Position::from_fen(f)).collect();
    let mut accs = Box::new([Accumulator::default(); 2]);

    match args[0].as_str() {
        "dump" => {
            for (fen, pos) in fens.iter().zip(&positions) {
                build(pos, &mut accs);
                println!("{fen}\t{}", out(pos, &accs));
            }
        }
        "bench" if args.len() >= 4 => {
            let runs: usize = args[2].parse().unwrap_or_else(|_| usage());
            let ops: Vec<&str> = args[3].split(',').collect();
            if ops.iter().any(|o| *o != "refresh" && *o != "eval") {
                usage();
            }
            let overhead = clock_overhead_ns();
            for op in ops {
                let mut checksum = 0i64;
                let mut pass = |checksum: &mut i64| {
                    let mut total = 0.0;
                    for pos in &positions {
                        // Escaped (as if read and written by unknown code), so
                        // that no work on them moves across the clock readings.
                        black_box(pos);
                        black_box(&mut *accs);
                        let (ns, value) = if op == "refresh" {
                            timed(|| {
                                build(pos, &mut accs);
                                out(pos, &accs)
                            })
                        } else {
                            build(pos, &mut accs);
                            black_box(out(pos, &accs));
                            black_box(&mut *accs);
                            timed(|| out(pos, &accs))
                        };
                        total += ns - overhead;
                        *checksum += i64::from(value);
                    }
                    total / positions.len() as f64
                };
                pass(&mut checksum); // warm-up
                let mut samples: Vec<f64> = (0..runs.max(1)).map(|_| pass(&mut checksum)).collect();
                samples.sort_by(f64::total_cmp);
                println!("bench\t{op}\t{:.1}\t{}\t{checksum}", samples[samples.len() / 2], positions.len());
            }
        }
        _ => usage(),
    }
}
