//! A perft-style walk that evaluates every node, written out by hand: the
//! pattern an engine follows (push the move's piece changes, recurse, pop),
//! checked against a fresh evaluation at every node.
//!
//! ```text
//! python3 tools/fetch-nets.py nn-37f18f62d772
//! cargo run --release --example perft -- .cache/nets/nn-37f18f62d772.nnue [DEPTH] [FEN]
//! ```

use nnue::AccumulatorStack;
use nnue::shakmaty::move_changes;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};
use std::time::Instant;

nnue::nnue!(include "sfnnv9-small.ron");
use sfnnv9_small::Network;

struct Walk<'n> {
    net: &'n Network,
    stack: AccumulatorStack<Network>,
    nodes: u64,
    mismatches: u64,
}

impl Walk<'_> {
    fn visit(&mut self, pos: &Chess, depth: u32) {
        let lazy = self.stack.evaluate(self.net, pos);
        self.nodes += 1;
        if lazy != self.net.evaluate(pos) {
            self.mismatches += 1;
        }
        if depth == 0 {
            return;
        }
        for m in pos.legal_moves() {
            self.stack.push(&move_changes(pos, &m));
            let mut child = pos.clone();
            child.play_unchecked(m);
            self.visit(&child, depth - 1);
            self.stack.pop();
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let net_path = args.next().ok_or("usage: perft NET.nnue [DEPTH] [FEN]")?;
    let depth: u32 = args.next().map_or(Ok(3), |a| a.parse())?;
    let fen = args
        .next()
        .unwrap_or_else(|| "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".to_owned());

    let network = Network::from_file(&net_path)?;
    let root: Chess = Fen::from_ascii(fen.as_bytes())?.into_position(CastlingMode::Standard)?;
    let mut walk = Walk { net: &network, stack: AccumulatorStack::new(&network), nodes: 0, mismatches: 0 };
    let start = Instant::now();
    walk.stack.reset(&root);
    walk.visit(&root, depth);
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "nodes={} mismatches={} nodes_per_sec={:.0} (fresh evaluations included)",
        walk.nodes,
        walk.mismatches,
        walk.nodes as f64 / seconds
    );
    if walk.mismatches > 0 {
        return Err("the incremental evaluation differed from a fresh one".into());
    }
    Ok(())
}
