//! `cargo bench`: Stockfish's timed operations (see
//! `tests/reference/stockfish-timings.md`) for real nets, on every
//! backend this CPU runs. Each iteration is one operation on one position of
//! `timing_moves.tsv` (for `walk`: one node of the walk), timed as
//! `nnue bench` times it ([`nnue::runtime::bench`]).
//!
//! `NNUE_BENCH_NETS` (comma-separated file names) picks the nets; the
//! default is the Stockfish 17.1 big and small nets.

#[path = "../tests/support/mod.rs"]
mod support;

use criterion::{criterion_group, criterion_main, Criterion};
use nnue::runtime::bench::{parse_moves, Bench, BenchPosition, Operation, TIMING_MOVES};
use nnue::runtime::{Isa, Network};
use std::time::Duration;

nnue::nnue!(include "sfnnv1.ron");
nnue::nnue!(include "sfnnv6.ron");
nnue::nnue!(include "sfnnv8.ron");
nnue::nnue!(include "sfnnv9.ron");
nnue::nnue!(include "sfnnv9-small.ron");

fn positions() -> Vec<BenchPosition> {
    parse_moves(TIMING_MOVES).unwrap()
}

fn bench_net<N: Network>(c: &mut Criterion, file: &str, positions: &[BenchPosition]) {
    let bytes = std::fs::read(support::net(file)).unwrap();
    for isa in Isa::available() {
        let net = N::load(&bytes, isa).unwrap();
        let mut bench = Bench::new(&net, positions.to_vec());
        let mut group = c.benchmark_group(format!("{file}/{isa}"));
        for op in Operation::ALL {
            let count = bench.count(op) as u64;
            group.bench_function(op.key(), |b| {
                b.iter_custom(|iters| {
                    // Whole passes over the positions; `iters` operations'
                    // worth of the mean time per position. A walk pass
                    // (about a second) already averages over many nodes.
                    let passes = if op == Operation::Walk { 1 } else { iters.div_ceil(count).max(1) };
                    let total: f64 = (0..passes).map(|_| bench.pass(op).0).sum();
                    Duration::from_nanos((total / (passes * count) as f64 * iters as f64) as u64)
                })
            });
        }
        group.finish();
    }
}

fn operations(c: &mut Criterion) {
    let positions = positions();
    let nets = std::env::var("NNUE_BENCH_NETS").unwrap_or_else(|_| "nn-1c0000000000.nnue,nn-37f18f62d772.nnue".into());
    for file in nets.split(',').map(str::trim) {
        match file {
            "nn-82215d0fd0df.nnue" => bench_net::<sfnnv1::Network>(c, file, &positions),
            "nn-5af11540bbfe.nnue" => bench_net::<sfnnv6::Network>(c, file, &positions),
            "sfnnv8-standin-l2560.nnue" => bench_net::<sfnnv8::Network>(c, file, &positions),
            "nn-1c0000000000.nnue" => bench_net::<sfnnv9::Network>(c, file, &positions),
            "nn-37f18f62d772.nnue" => bench_net::<sfnnv9_small::Network>(c, file, &positions),
            other => panic!("no benchmark for net {other}"),
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
    targets = operations
}
criterion_main!(benches);
