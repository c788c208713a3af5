//! `nnue bench`: nanoseconds per operation, as in Stockfish's timing table
//! (`tests/reference/stockfish-timings.md`).

use crate::registry::{Registry, Timing};
use nnue::runtime::shakmaty::bench::{
    Bench, BenchPosition, Operation, TIMING_MOVES, parse_moves, positions_timed, walk_shared,
};
use nnue::runtime::{Isa, LoadOptions, Network};
use std::path::Path;

#[allow(clippy::too_many_arguments)]
pub fn run(
    registry: &Registry,
    net: &Path,
    arch: Option<&Path>,
    isas: &[Isa],
    allow_overflow: bool,
    moves: Option<&Path>,
    ops: Option<&str>,
    timing: Timing,
    show_positions: bool,
) -> Result<(), String> {
    let ops: Vec<Operation> = match ops {
        None => Operation::ALL.to_vec(),
        Some(names) => names
            .split(',')
            .map(|n| {
                Operation::ALL
                    .into_iter()
                    .find(|op| op.key() == n.trim())
                    .ok_or_else(|| format!("unknown operation `{n}`"))
            })
            .collect::<Result<_, _>>()?,
    };
    let positions = match moves {
        None => parse_moves(TIMING_MOVES).map_err(|e| format!("the built-in timing positions: {e}"))?,
        Some(moves) => {
            let text = std::fs::read_to_string(moves).map_err(|e| format!("cannot read {}: {e}", moves.display()))?;
            parse_moves(&text).map_err(|e| format!("{}: {e}", moves.display()))?
        }
    };
    let column = |op: &Operation| match op {
        Operation::Walk if timing.threads > 1 => format!("{}, {} threads (ns)", op.name(), timing.threads),
        op => format!("{} (ns)", op.name()),
    };
    let mut header: Vec<String> = ops.iter().map(column).collect();
    // The positions each operation times: the same for every backend.
    let counts: Vec<String> = if show_positions {
        header.extend(ops.iter().map(|op| format!("{} (positions)", op.name())));
        ops.iter().map(|&op| positions_timed(&positions, op).to_string()).collect()
    } else {
        Vec::new()
    };
    println!("net\tarch\tisa\t{}", header.join("\t"));
    for &isa in isas {
        let network = registry.load_file(net, arch, LoadOptions { isa: Some(isa), allow_overflow })?;
        let medians = registry.incremental(&*network)?.measure(positions.clone(), &ops, timing);
        let name = net.file_name().map_or_else(|| net.display().to_string(), |n| n.to_string_lossy().into_owned());
        let mut cells: Vec<String> = medians.iter().map(|ns| format!("{ns:.1}")).collect();
        cells.extend(counts.iter().cloned());
        println!("{name}\t{}\t{isa}\t{}", network.arch().name, cells.join("\t"));
    }
    Ok(())
}

pub(crate) fn measure<N: Network + Sync>(
    net: &N,
    positions: Vec<BenchPosition>,
    ops: &[Operation],
    timing: Timing,
) -> Vec<f64> {
    let shared = positions.clone();
    let mut bench = Bench::new(net, positions);
    bench.set_repeat(timing.repeat);
    ops.iter()
        .map(|&op| match op {
            Operation::Walk if timing.threads > 1 => walk_shared(net, &shared, timing.threads, timing.runs),
            op => bench.median_ns(op, timing.runs),
        })
        .collect()
}
