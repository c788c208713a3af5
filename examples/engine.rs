//! An engine-style integration: a small alpha-beta search that plays a game
//! against itself, evaluating every node it visits through an
//! `AccumulatorStack` (push a move's piece changes when making it, pop when
//! unmaking it; accumulators are computed lazily, only for evaluated nodes).
//!
//! ```text
//! python3 tools/fetch-nets.py nn-1c0000000000
//! cargo run --release --example engine -- .cache/nets/nn-1c0000000000.nnue [PLIES] [DEPTH] [FEN]
//! ```

use nnue::AccumulatorStack;
use nnue::shakmaty::move_changes;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};
use std::time::Instant;

nnue::nnue!(include "sfnnv9.ron");
use sfnnv9::Network;

const MATE: i32 = 32_000;

/// One search thread: the shared network, its own stack.
struct Searcher<'n> {
    net: &'n Network,
    stack: AccumulatorStack<Network>,
    nodes: u64,
}

impl Searcher<'_> {
    /// Negamax with alpha-beta; every node is evaluated (the static
    /// evaluation orders nothing here, but a real engine would use it for
    /// pruning, so it is computed as one would).
    fn search(&mut self, pos: &Chess, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let static_eval = self.stack.evaluate(self.net, pos).value;
        if depth == 0 {
            return static_eval;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.is_check() { -MATE } else { 0 };
        }
        let mut best = -MATE - 1;
        for m in moves {
            let child = self.make(pos, m);
            let score = -self.search(&child, depth - 1, -beta, -alpha);
            self.unmake();
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Makes `m` on a copy of `pos` and pushes its piece changes.
    fn make(&mut self, pos: &Chess, m: Move) -> Chess {
        self.stack.push(&move_changes(pos, &m));
        let mut child = pos.clone();
        child.play_unchecked(m);
        child
    }

    fn unmake(&mut self) {
        self.stack.pop();
    }

    /// The best move at `depth` and its score.
    fn best_move(&mut self, root: &Chess, depth: u32) -> Option<(Move, i32)> {
        self.stack.reset(root);
        let mut best: Option<(Move, i32)> = None;
        for m in root.legal_moves() {
            let child = self.make(root, m);
            let score = -self.search(&child, depth - 1, -MATE - 1, MATE + 1);
            self.unmake();
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((m, score));
            }
        }
        best
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let net_path = args.next().ok_or("usage: engine NET.nnue [PLIES] [DEPTH] [FEN]")?;
    let plies: usize = args.next().map_or(Ok(16), |a| a.parse())?;
    let depth: u32 = args.next().map_or(Ok(3), |a| a.parse())?;
    let fen = args.next().unwrap_or_else(|| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_owned());

    let network = Network::from_file(&net_path)?;
    println!("{} on {}", network.description().lines().next().unwrap_or(""), network.isa());
    let mut pos: Chess = Fen::from_ascii(fen.as_bytes())?.into_position(CastlingMode::Standard)?;
    let mut searcher = Searcher { net: &network, stack: AccumulatorStack::new(&network), nodes: 0 };
    let start = Instant::now();
    for ply in 0..plies {
        let Some((m, score)) = searcher.best_move(&pos, depth) else {
            println!("game over");
            break;
        };
        // The stack's evaluation of the position equals a fresh one.
        searcher.stack.reset(&pos);
        assert_eq!(searcher.stack.evaluate(&network, &pos), network.evaluate(&pos));
        println!("{:>3}. {:<6} score {score:>6}", ply + 1, m.to_uci(CastlingMode::Standard).to_string());
        pos.play_unchecked(m);
    }
    let seconds = start.elapsed().as_secs_f64();
    println!("{}", Fen::from_position(&pos, EnPassantMode::Legal));
    println!("nodes={} nodes_per_sec={:.0}", searcher.nodes, searcher.nodes as f64 / seconds);
    Ok(())
}
