//! `cargo bench`: Stockfish's timed operations (see
//! `tests/reference/stockfish-timings.md`) for real nets, on every
//! backend this CPU runs. Each iteration is one operation on one position of
//! `timing_moves.tsv` (for `walk`: one node of the walk), timed as
//! `nnue bench` times it ([`nnue::runtime::shakmaty::bench`]).
//!
//! `NNUE_BENCH_NETS` (comma-separated file names) picks the nets; the
//! default is the Stockfish 17.1 big and small nets. Each is benchmarked
//! with the shipped architecture its header names
//! (`nnue::for_each_shipped_arch!`; where two share the hash, the first
//! that loads the net).

#[path = "../tests/support/mod.rs"]
mod support;

use criterion::{Criterion, criterion_group, criterion_main};
use nnue::runtime::shakmaty::bench::{Bench, BenchPosition, Operation, TIMING_MOVES, parse_moves};
use nnue::runtime::{ArchEntry, Isa, LoadOptions, Network};
use std::time::Duration;

/// Every shipped architecture's module, and `bench_with`: the benchmark of
/// a net with the architecture of an entry, `None` when its network has no
/// accumulator stack (does not implement `Network`).
macro_rules! shipped {
    ($($module:ident { file: $file:literal, source: $source:literal, network: $network:tt, $($rest:tt)* }),* $(,)?) => {
        $(nnue::nnue!(include $file);)*

        const SHIPPED: &[ArchEntry] = &[$($module::ENTRY),*];

        fn bench_with(entry: &ArchEntry, c: &mut Criterion, file: &str, bytes: &[u8], positions: &[BenchPosition]) -> Option<()> {
            $(if entry.info.name == $module::ENTRY.info.name {
                return bench_if!($network, $module, c, file, bytes, positions);
            })*
            None
        }
    };
}

macro_rules! bench_if {
    (true, $module:ident, $($arg:expr),*) => {
        Some(bench_net::<$module::Network>($($arg),*))
    };
    (false, $module:ident, $($arg:expr),*) => {
        None
    };
}

nnue::for_each_shipped_arch!(shipped);

fn positions() -> Vec<BenchPosition> {
    parse_moves(TIMING_MOVES).unwrap()
}

fn bench_net<N: Network>(c: &mut Criterion, file: &str, bytes: &[u8], positions: &[BenchPosition]) {
    for isa in Isa::available() {
        let net = N::load(bytes, isa).unwrap();
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
        let bytes = std::fs::read(support::net(file)).unwrap();
        let with_header: Vec<ArchEntry> = SHIPPED.iter().copied().filter(|e| e.info.file_bytes.is_none()).collect();
        let found = nnue::runtime::candidates(&with_header, &bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
        let entry = match found[..] {
            [only] => only,
            _ => found
                .into_iter()
                .find(|entry| (entry.load)(&bytes, LoadOptions::isa(Isa::Scalar)).is_ok())
                .unwrap_or_else(|| panic!("{file}: no shipped architecture loads it")),
        };
        bench_with(entry, c, file, &bytes, &positions)
            .unwrap_or_else(|| panic!("{file}: architecture {} has no accumulator stack", entry.info.name));
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
    targets = operations
}
criterion_main!(benches);
