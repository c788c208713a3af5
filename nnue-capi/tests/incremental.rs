//! Incremental = fresh through the C API: random walks of legal moves
//! (shakmaty's) made and unmade on a stack, null moves among them, every
//! node's evaluation (and now and then every bucket's) equal to that of a
//! second stack reset to the node's position. With Stockfish 18's two nets
//! on every backend this CPU runs; with a random net of every shipped
//! architecture on the best; and with threads sharing one net.

mod common;

use common::{
    NetRef, Rng, StackRef, changes, chess, last_error, multi_stack, pieces, random_net, real_net, side, support,
};
use nnue_capi::NNUE_OK;
use shakmaty::Position as _;

/// Steps of each walk: `NNUE_INCREMENTAL_STEPS` or `default`.
fn steps(default: usize) -> usize {
    std::env::var("NNUE_INCREMENTAL_STEPS").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// A walk of `steps` steps from each of the starts: at each, a pop (when
/// the line is not empty, one step in four), a null move (one in
/// sixteen, when not in check) or a random legal move; then the node is
/// evaluated on `stack` and on `fresh`, reset to it.
fn walk(net: &NetRef, steps: usize, seed: u64) {
    let (mut stack, mut fresh) = (net.stack(), net.stack());
    let buckets = net.buckets();
    let mut rng = Rng(seed);
    for start in support::STARTS {
        let mut line = vec![chess(start)];
        assert_eq!(stack.reset(&pieces(&line[0])), NNUE_OK, "{}", last_error());
        for step in 0..steps {
            let pos = line.last().expect("the root stays").clone();
            let moves = pos.legal_moves();
            let roll = rng.below(16);
            if line.len() > 1 && (roll < 4 || moves.is_empty()) {
                assert_eq!(stack.pop(), NNUE_OK);
                line.pop();
            } else if roll == 4 && !pos.is_check() {
                let Ok(passed) = pos.clone().swap_turn() else { continue };
                assert_eq!(stack.push(&[]), NNUE_OK);
                line.push(passed);
            } else if !moves.is_empty() {
                let m = &moves[rng.below(moves.len())];
                assert_eq!(stack.push(&changes(&pos, m)), NNUE_OK, "{m}: {}", last_error());
                line.push(pos.clone().play(*m).expect("a legal move"));
            }
            let here = line.last().expect("the root stays");
            assert_eq!(stack.ply(), Ok(line.len() - 1));
            assert_eq!(fresh.reset(&pieces(here)), NNUE_OK);
            let context = || {
                format!(
                    "{start}, step {step}: {}",
                    shakmaty::fen::Fen::from_position(here, shakmaty::EnPassantMode::Legal)
                )
            };
            assert_eq!(stack.evaluate(side(here)), fresh.evaluate(side(here)), "{}", context());
            if step % 8 == 0 {
                let all = stack.evaluate_buckets(side(here), buckets);
                assert_eq!(all, fresh.evaluate_buckets(side(here), buckets), "{}", context());
            }
        }
    }
}

fn real(net_name: &str, test: &str) {
    let Some(path) = real_net(net_name, test) else { return };
    for isa in support::isas() {
        let net =
            NetRef::from_file(&path, None, Some(isa.name()), 0).unwrap_or_else(|c| panic!("{c}: {}", last_error()));
        walk(&net, steps(500), 1);
    }
}

#[test]
fn sf_18_small_net() {
    real("nn-37f18f62d772.nnue", "sf_18_small_net");
}

#[test]
fn sf_18_big_net() {
    real("nn-c288c895ea92.nnue", "sf_18_big_net");
}

/// The shipped architectures: each one's name and random net.
macro_rules! random_nets {
    ($($module:ident { $($entry:tt)* }),* $(,)?) => {
        const RANDOM_NETS: &[(&str, fn(u64) -> Vec<u8>)] =
            &[$((nnue_capi::archs::$module::ARCH.name, nnue_capi::archs::$module::random_net_file)),*];
    };
}

nnue::for_each_shipped_arch!(random_nets);

/// Every shipped architecture loads through the C API (named: a bullet
/// net has no header) and walks, on the best backend.
#[test]
fn every_shipped_architecture() {
    for (i, (arch, random_net_file)) in RANDOM_NETS.iter().enumerate() {
        let net = NetRef::from_bytes(&random_net_file(i as u64 + 1), Some(arch), None, 0)
            .unwrap_or_else(|c| panic!("{arch}: {c}: {}", last_error()));
        assert_eq!(net.arch(), *arch);
        walk(&net, steps(60), i as u64 + 1);
    }
}

/// One net, four threads with a stack each, walking at once.
#[test]
fn threads_share_a_net() {
    let net = NetRef::from_bytes(&random_net(), None, None, 0).expect("the random net loads");
    std::thread::scope(|scope| {
        for seed in 1..=4 {
            let net = &net;
            scope.spawn(move || walk(net, steps(200), seed));
        }
    });
    // A stack made in one thread used in another.
    let mut stack: StackRef = net.stack();
    assert_eq!(stack.reset(&pieces(&shakmaty::Chess::default())), NNUE_OK);
    let here = std::thread::spawn(move || stack.evaluate(0).expect("evaluates")).join().unwrap();
    let mut fresh = net.stack();
    assert_eq!(fresh.reset(&pieces(&shakmaty::Chess::default())), NNUE_OK);
    assert_eq!(fresh.evaluate(0), Ok(here));
}

/// One stack over several nets (`nnue_stack_new_multi`): random walks as
/// [`walk`]'s, where each node is evaluated with some of the nets only (so
/// that the others fall several moves behind and catch up later), every
/// evaluation equal to that of a one-net stack reset to the node.
fn walk_several(nets: &[&NetRef], steps: usize, seed: u64) {
    let mut stack = multi_stack(&nets.iter().map(|net| net.0).collect::<Vec<_>>()).expect("a stack over the nets");
    let mut fresh: Vec<StackRef> = nets.iter().map(|net| net.stack()).collect();
    let mut rng = Rng(seed);
    for start in support::STARTS {
        let mut line = vec![chess(start)];
        assert_eq!(stack.reset(&pieces(&line[0])), NNUE_OK, "{}", last_error());
        for _ in 0..steps {
            let pos = line.last().expect("the root stays").clone();
            let moves = pos.legal_moves();
            if line.len() > 1 && (rng.below(4) == 0 || moves.is_empty()) {
                assert_eq!(stack.pop(), NNUE_OK);
                line.pop();
            } else if !moves.is_empty() {
                let m = &moves[rng.below(moves.len())];
                assert_eq!(stack.push(&changes(&pos, m)), NNUE_OK, "{m}: {}", last_error());
                line.push(pos.clone().play(*m).expect("a legal move"));
            }
            let here = line.last().expect("the root stays");
            for (i, fresh) in fresh.iter_mut().enumerate() {
                // Net 0 at every node, the others at one node in 1 + i * 3.
                if i > 0 && rng.below(1 + i * 3) != 0 {
                    continue;
                }
                assert_eq!(fresh.reset(&pieces(here)), NNUE_OK);
                let fen = || shakmaty::fen::Fen::from_position(here, shakmaty::EnPassantMode::Legal).to_string();
                assert_eq!(stack.evaluate_net(i, side(here)), fresh.evaluate(side(here)), "net {i}: {}", fen());
            }
        }
    }
}

/// Random nets of three architectures (the small net's, Stockfish 18's
/// threat net's and a bullet one's) behind one stack.
#[test]
fn one_stack_for_several_nets() {
    let by_name = |name: &str| {
        let (arch, random_net_file) = RANDOM_NETS.iter().find(|(arch, _)| *arch == name).expect("shipped");
        NetRef::from_bytes(&random_net_file(7), Some(arch), None, 0).unwrap_or_else(|c| panic!("{c}: {}", last_error()))
    };
    let nets = [by_name("sfnnv9-small"), by_name("sfnnv10"), by_name("obsidian")];
    walk_several(&nets.iter().collect::<Vec<_>>(), steps(300), 11);
}

/// Stockfish 18's two nets behind one stack, as Stockfish's search uses
/// them, on every backend this CPU runs.
#[test]
fn sf_18_nets_one_stack() {
    let Some(big) = real_net("nn-c288c895ea92.nnue", "sf_18_nets_one_stack") else { return };
    let Some(small) = real_net("nn-37f18f62d772.nnue", "sf_18_nets_one_stack") else { return };
    for isa in support::isas() {
        let load = |path| {
            NetRef::from_file(path, None, Some(isa.name()), 0).unwrap_or_else(|c| panic!("{c}: {}", last_error()))
        };
        let (big, small) = (load(&big), load(&small));
        walk_several(&[&big, &small], steps(300), 12);
    }
}
