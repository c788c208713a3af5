//! `nnue walk`: the legal-move tree to a depth from each FEN, every node
//! evaluated through an accumulator stack, optionally verified against a
//! fresh evaluation.

use crate::position;
use crate::registry::Registry;
use nnue::runtime::shakmaty::walk::{WalkStats, walk};
use nnue::runtime::{AccumulatorStack, LoadOptions, Network};
use std::io::{BufWriter, Write};
use std::path::Path;

pub fn run(
    registry: &Registry,
    net: &Path,
    arch: Option<&Path>,
    fens: &Path,
    depth: usize,
    options: LoadOptions,
    verify: bool,
) -> Result<(), String> {
    let network = registry.load_file(net, arch, options)?;
    let mut roots = Vec::new();
    for (at, fen) in position::read_fens(fens)? {
        let chess = nnue::runtime::shakmaty::chess_from_fen(&fen).map_err(|e| format!("{at}: bad FEN `{fen}`: {e}"))?;
        roots.push((fen, chess));
    }
    let mut out = BufWriter::new(std::io::stdout().lock());
    let total = registry
        .incremental(&*network)?
        .walk_all(&roots, depth, verify, &mut out)
        .map_err(|e| format!("cannot write output: {e}"))?;
    writeln!(out, "nodes={} mismatches={} nodes_per_sec={:.0}", total.nodes, total.mismatches, total.nodes_per_sec())
        .map_err(|e| format!("cannot write output: {e}"))
}

pub(crate) fn walk_all<N: Network>(
    net: &N,
    roots: &[(String, shakmaty::Chess)],
    depth: usize,
    verify: bool,
    out: &mut impl Write,
) -> std::io::Result<WalkStats> {
    let mut stack = AccumulatorStack::new(net);
    let mut total = WalkStats::default();
    writeln!(out, "fen\tnodes\tmismatches\tchecksum")?;
    for (fen, root) in roots {
        let stats = walk(net, &mut stack, root, depth, verify);
        writeln!(out, "{fen}\t{}\t{}\t{}", stats.nodes, stats.mismatches, stats.checksum)?;
        total.add(&stats);
    }
    Ok(total)
}
