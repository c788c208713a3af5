//! The engine-integration machinery against fresh evaluations: random
//! make/unmake walks through an `AccumulatorStack` (king moves, captures,
//! promotions, castling and en passant all forced to occur), for random nets
//! of every architecture and for the real nets, on every backend this CPU
//! runs; the refresh cache against full refreshes; one network shared by
//! several threads.

use crate::support;

use nnue::runtime::shakmaty::walk::{evaluate_fresh, walk};
use nnue::runtime::{AccumulatorStack, Isa, Network, RefreshCache, Rng};
use shakmaty::{CastlingMode, Chess, Move, Position as _, fen::Fen};

/// Make/unmake steps per architecture and backend: 100,000, or
/// `NNUE_INCREMENTAL_STEPS` (the aarch64 runs under qemu use fewer).
fn steps() -> u64 {
    std::env::var("NNUE_INCREMENTAL_STEPS").map_or(100_000, |s| s.parse().expect("NNUE_INCREMENTAL_STEPS: a number"))
}

fn start(rng: &mut Rng) -> Chess {
    let fen: Fen = support::STARTS[(rng.next_u64() % support::STARTS.len() as u64) as usize].parse().unwrap();
    fen.into_position(CastlingMode::Standard).unwrap()
}

/// How often each kind of move was made.
#[derive(Default, Debug)]
struct Kinds {
    king: u64,
    capture: u64,
    promotion: u64,
    castle: u64,
    en_passant: u64,
}

impl Kinds {
    fn count(&mut self, m: &Move) {
        self.king += u64::from(m.role() == shakmaty::Role::King);
        self.capture += u64::from(m.is_capture());
        self.promotion += u64::from(m.is_promotion());
        self.castle += u64::from(m.is_castle());
        self.en_passant += u64::from(m.is_en_passant());
    }

    /// Every kind occurred (checked for full-length walks: a short one,
    /// as under qemu, may miss the rarest, en passant).
    fn assert_all_seen(&self, what: &str) {
        if steps() < 100_000 {
            return;
        }
        assert!(
            self.king > 0 && self.capture > 0 && self.promotion > 0 && self.castle > 0 && self.en_passant > 0,
            "{what}: some kind of move never occurred: {self:?}"
        );
    }
}

/// A random walk of `steps` make/unmake steps from the test starts: moves
/// pushed on the stack and popped again (about as many pops as pushes, so
/// the walk often returns to the root and starts over elsewhere), half of
/// them of a random special kind (king move, capture, promotion, castling,
/// en passant);
/// about three nodes in four evaluated through the stack (so several moves
/// are often pending) and compared with a fresh evaluation.
fn random_walk<N: Network>(net: &N, steps: u64, seed: u64, what: &str) -> Kinds {
    let mut rng = Rng::new(seed);
    let mut stack = AccumulatorStack::new(net);
    let mut line = vec![start(&mut rng)];
    stack.reset(&line[0]);
    let mut kinds = Kinds::default();
    let mut evaluated = 0u64;
    for step in 0..steps {
        let pos = line.last().unwrap();
        let moves = pos.legal_moves();
        let r = rng.next_u64() % 100;
        if line.len() > 1 && (moves.is_empty() || r < 48 || line.len() > 30) {
            line.pop();
            stack.pop();
        } else if moves.is_empty() || (line.len() == 1 && r < 60) {
            // Back at the root: often start over from another position.
            line = vec![start(&mut rng)];
            stack.reset(&line[0]);
        } else {
            // Half the time a special move: a random kind among those
            // available, then a random move of that kind.
            let kinds_available: Vec<Vec<&Move>> = [
                |m: &Move| m.role() == shakmaty::Role::King && !m.is_castle(),
                |m: &Move| m.is_capture() && !m.is_en_passant(),
                |m: &Move| m.is_promotion(),
                |m: &Move| m.is_castle(),
                |m: &Move| m.is_en_passant(),
            ]
            .iter()
            .map(|kind| moves.iter().filter(|m| kind(m)).collect::<Vec<_>>())
            .filter(|of_kind| !of_kind.is_empty())
            .collect();
            let m = if !kinds_available.is_empty() && rng.next_u64().is_multiple_of(2) {
                let of_kind = &kinds_available[(rng.next_u64() % kinds_available.len() as u64) as usize];
                *of_kind[(rng.next_u64() % of_kind.len() as u64) as usize]
            } else {
                moves[(rng.next_u64() % moves.len() as u64) as usize]
            };
            kinds.count(&m);
            let changes = nnue::runtime::shakmaty::move_changes(pos, &m);
            let mut child = pos.clone();
            child.play_unchecked(m);
            stack.push(&changes);
            line.push(child);
        }
        if !rng.next_u64().is_multiple_of(4) {
            let pos = line.last().unwrap();
            let lazy = stack.evaluate(net, pos);
            let fresh = evaluate_fresh(net, pos);
            assert_eq!(
                lazy,
                fresh,
                "{what}: step {step}, ply {}, {}",
                stack.ply(),
                Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
            );
            evaluated += 1;
        }
    }
    assert!(evaluated > steps / 2, "{what}: only {evaluated} evaluations");
    kinds
}

/// The cache's accumulators equal full refreshes over random games, through
/// every king square a game visits (and back).
fn check_refresh_cache<N: Network>(net: &N, positions: usize, seed: u64, what: &str)
where
    N::Accumulator: PartialEq + std::fmt::Debug,
{
    let mut rng = Rng::new(seed);
    let mut cache = RefreshCache::new(net);
    let mut pos = start(&mut rng);
    for i in 0..positions {
        let moves = pos.legal_moves();
        if moves.is_empty() || i % 80 == 0 {
            pos = start(&mut rng);
        } else {
            pos.play_unchecked(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
        let mut cached = Box::new(N::Accumulator::default());
        cache.refresh_both(net, &pos, &mut cached);
        let mut full = Box::new(N::Accumulator::default());
        net.refresh(&pos, &mut full);
        assert!(cached == full, "{what}: position {i} differs");
        // Again: the cache now holds this very position (its copy path).
        let mut again = Box::new(N::Accumulator::default());
        cache.refresh_both(net, &pos, &mut again);
        assert!(again == full, "{what}: position {i} differs when the cache holds it");
        // Forgotten, as before `nnue bench`'s cold refresh: every feature
        // added to the biases again.
        if i % 7 == 0 {
            cache.forget(net, &pos);
            let mut cold = Box::new(N::Accumulator::default());
            cache.refresh_both(net, &pos, &mut cold);
            assert!(cold == full, "{what}: position {i} differs after forget");
        }
    }
}

macro_rules! random_net_tests {
    ($($test:ident: $module:ident, $file:tt;)*) => {$(
        crate::arch_module!($module, $file);

        #[test]
        fn $test() {
            use $module::$module as arch;
            let bytes = arch::random_net_file(0xACC ^ stringify!($module).len() as u64);
            for isa in support::isas() {
                let net = arch::Network::from_bytes_with_isa(&bytes, isa).unwrap();
                let what = format!("{} random net, {isa}", stringify!($module));
                random_walk(&net, steps(), 7 + isa as u64, &what).assert_all_seen(&what);
                check_refresh_cache(&net, 2_000, 11 + isa as u64, &what);
            }
        }
    )*};
}

// The test architectures beside the shipped ones (below).
random_net_tests! {
    king_buckets_random_net: king_buckets, "tests/piece_square/king_buckets.ron";
    bullet_multilayer_random_net: bullet_multilayer, "tests/bullet/multilayer.ron";
}

/// Every shipped architecture whose network implements `Network`
/// (`nnue::for_each_shipped_arch!`): the test `<module>_random_net` (with
/// the module the tests below name). One that does not has no accumulator
/// stack to walk.
macro_rules! shipped_random_net_tests {
    ($($module:ident { file: $file:literal, source: $source:literal, network: $network:tt, plain: $plain:tt, named: $test:ident }),* $(,)?) => {$(
        shipped_random_net_test!($network, $test, $module, $file);
    )*};
}

macro_rules! shipped_random_net_test {
    (true, $test:ident, $module:ident, $file:literal) => {
        random_net_tests! { $test: $module, shipped; }
    };
    (false, $test:ident, $module:ident, $file:literal) => {};
}

nnue::for_each_shipped_arch!(shipped_random_net_tests, suffix = _random_net);

macro_rules! real_net_tests {
    ($($test:ident: $module:ident, $net:literal;)*) => {$(
        #[test]
        fn $test() {
            use $module::$module as arch;
            let bytes = support::bytes(&support::net($net));
            for isa in support::isas() {
                let net = arch::Network::from_bytes_with_isa(&bytes, isa).unwrap();
                let what = format!("{}, {isa}", $net);
                random_walk(&net, steps(), 3 + isa as u64, &what).assert_all_seen(&what);
            }
        }
    )*};
}

real_net_tests! {
    sf_12_net: sfnnv1, "nn-82215d0fd0df.nnue";
    sf_14_net: sfnnv2, "nn-26abeed38351.nnue";
    sf_14_1_net: sfnnv3, "nn-13406b1dcbe0.nnue";
    sf_15_net: sfnnv4, "nn-6877cd24400e.nnue";
    sf_16_net: sfnnv6, "nn-5af11540bbfe.nnue";
    sf_16_1_standin_net: sfnnv8, "sfnnv8-standin-l2560.nnue";
    sf_17_1_net: sfnnv9, "nn-1c0000000000.nnue";
    small_net: sfnnv9_small, "nn-37f18f62d772.nnue";
    sf_18_net: sfnnv10, "nn-c288c895ea92.nnue";
    sf_19_lite_net: sf19_lite, "nn-61e7af4bb97d.nnue";
    reckless_v60_generated_net: reckless_v60, "reckless-v60-generated.nnue";
}

/// Viridithas's architecture on the net generated in its format
/// (`tools/netgen/viridithas.py`), compressed as the engine ships it: pawn
/// pairs, threats and merged-king piece squares through the stack.
#[test]
fn viridithas_generated_net() {
    use viridithas::viridithas as arch;
    let raw = support::bytes(&support::net("viridithas-generated.nnue"));
    let bytes = nnue::__private::format::bullet::zstd_compress(&raw);
    for isa in support::isas() {
        let net = arch::Network::from_bytes_with_isa(&bytes, isa).unwrap();
        let what = format!("viridithas-generated.nnue, {isa}");
        random_walk(&net, steps(), 3 + isa as u64, &what).assert_all_seen(&what);
        check_refresh_cache(&net, 2_000, 13 + isa as u64, &what);
    }
}

/// Stormphrax's architecture on the net generated in its format
/// (`tools/netgen/stormphrax.py`, behind its CBNF header): merged-king
/// piece squares, pawn pairs and threats through the stack.
#[test]
fn stormphrax_generated_net() {
    use stormphrax::stormphrax as arch;
    let bytes = support::bytes(&support::net("stormphrax-generated.nnue"));
    for isa in support::isas() {
        let net = arch::Network::from_bytes_with_isa(&bytes, isa).unwrap();
        let what = format!("stormphrax-generated.nnue, {isa}");
        random_walk(&net, steps(), 3 + isa as u64, &what).assert_all_seen(&what);
        check_refresh_cache(&net, 2_000, 13 + isa as u64, &what);
    }
}

/// Obsidian's bullet net (in the repository's test data): king buckets with
/// mirroring through the stack and the refresh cache.
#[test]
fn obsidian_net() {
    use obsidian::obsidian as arch;
    let bytes = support::bytes(&support::repo().join("tests/nets/bullet/obsidian-net512_buckets.bin"));
    for isa in support::isas() {
        let net = arch::Network::from_bytes_with_isa(&bytes, isa).unwrap();
        let what = format!("obsidian-net512_buckets.bin, {isa}");
        random_walk(&net, steps(), 3 + isa as u64, &what).assert_all_seen(&what);
        check_refresh_cache(&net, 2_000, 13 + isa as u64, &what);
    }
}

/// akimbo's bullet net (in the repository's test data): a float tail after
/// the accumulator stack.
#[test]
fn akimbo_net() {
    use akimbo::akimbo as arch;
    let bytes =
        support::bytes(&support::repo().join("tests/nets/bullet/akimbo-morelayers-8-crelu-16-crelu-epoch17.bin"));
    for isa in support::isas() {
        let net = arch::Network::from_bytes_with_isa(&bytes, isa).unwrap();
        let what = format!("akimbo-morelayers-8-crelu-16-crelu-epoch17.bin, {isa}");
        random_walk(&net, steps(), 3 + isa as u64, &what).assert_all_seen(&what);
    }
}

/// Reckless's v30 net (not in the repository: from the nets directory, see
/// `support::copied_net`): mirroring without king buckets through the stack
/// and the refresh cache.
#[test]
fn reckless_v30_net() {
    use reckless_v30::reckless_v30 as arch;
    let Some(path) = support::copied_net("reckless-v30-863f1172.nnue", "reckless_v30_net") else { return };
    let bytes = support::bytes(&path);
    for isa in support::isas() {
        let net = arch::Network::from_bytes_with_isa(&bytes, isa).unwrap();
        let what = format!("reckless-v30-863f1172.nnue, {isa}");
        random_walk(&net, steps(), 3 + isa as u64, &what).assert_all_seen(&what);
        check_refresh_cache(&net, 2_000, 13 + isa as u64, &what);
    }
}

/// Stockfish 19's net: the same walk.
#[test]
fn sf_head_net() {
    use sfnnv16::sfnnv16 as arch;
    let bytes = support::bytes(&support::net("nn-1a298aa575a0.nnue"));
    for isa in support::isas() {
        let net = arch::Network::from_bytes_with(&bytes, nnue::runtime::LoadOptions::isa(isa)).unwrap();
        let what = format!("nn-1a298aa575a0.nnue, {isa}");
        random_walk(&net, steps(), 3 + isa as u64, &what).assert_all_seen(&what);
    }
}

/// One network, shared read-only by threads that each keep their own stack
/// and cache, gives every thread the single-threaded results.
#[test]
fn threads_share_one_network() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<sfnnv9_small::sfnnv9_small::Network>();
    send_sync::<sfnnv9::sfnnv9::Network>();

    use sfnnv9_small::sfnnv9_small as arch;
    let net = arch::Network::from_bytes_with_isa(&arch::random_net_file(99), Isa::best()).unwrap();
    let roots: Vec<Chess> = support::STARTS
        .iter()
        .map(|fen| fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap())
        .collect();
    let alone: Vec<i64> =
        roots.iter().map(|root| walk(&net, &mut AccumulatorStack::new(&net), root, 2, false).checksum).collect();
    let shared: Vec<Vec<i64>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let (net, roots) = (&net, &roots);
                scope.spawn(move || {
                    let mut stack = AccumulatorStack::new(net);
                    // Each thread walks the roots in its own order.
                    let mut sums = vec![0; roots.len()];
                    for k in 0..roots.len() {
                        let i = (k + t) % roots.len();
                        let stats = walk(net, &mut stack, &roots[i], 2, true);
                        assert_eq!(stats.mismatches, 0);
                        sums[i] = stats.checksum;
                    }
                    sums
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for sums in shared {
        assert_eq!(sums, alone);
    }
}

/// shakmaty's bitboards (used by the refresh cache) equal the ones built
/// piece by piece (the default for other boards).
#[test]
fn bitboards_agree_with_the_pieces() {
    use nnue::runtime::{Board, Position as _};
    let mut rng = Rng::new(5);
    let mut pos = start(&mut rng);
    for i in 0..5_000 {
        let moves = pos.legal_moves();
        if moves.is_empty() || i % 60 == 0 {
            pos = start(&mut rng);
        } else {
            pos.play_unchecked(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
        let board = Board::from_position(&pos).unwrap();
        assert_eq!(pos.bitboards(), board.bitboards(), "position {i}");
        assert_ne!(pos.bitboards(), [[0; 6]; 2]);
    }
}

/// With few king buckets, a king move within a bucket and on one side of
/// the mirror is an update (only the king's own feature changes); a move to
/// another bucket or across the mirror refreshes. Through the stack, both
/// kinds give the fresh evaluation.
#[test]
fn king_moves_within_a_bucket_are_updates() {
    use king_buckets::king_buckets as arch;
    use nnue::runtime::{Color, MoveChanges, Piece, PieceChange, PieceKind, Square};
    let sq = |name: &str| Square::from_file_rank(name.as_bytes()[0] - b'a', name.as_bytes()[1] - b'1').unwrap();
    let white = Color::White;
    // c1 and d1: bucket 1, files a-d; e2 and h2: bucket 2, both mirrored.
    assert!(arch::Network::same_view(white, sq("c1"), sq("d1")));
    assert!(arch::Network::same_view(white, sq("e2"), sq("h2")));
    // b1 is bucket 0; e1 is d1 mirrored (same bucket, other orientation).
    assert!(!arch::Network::same_view(white, sq("c1"), sq("b1")));
    assert!(!arch::Network::same_view(white, sq("d1"), sq("e1")));
    // Black sees its own king's ranks flipped: c8 and d8 are its c1 and d1.
    assert!(arch::Network::same_view(Color::Black, sq("c8"), sq("d8")));
    let king_move = |from: &str, to: &str| {
        let mut changes = MoveChanges::default();
        changes.push(PieceChange {
            piece: Piece { color: white, kind: PieceKind::King },
            from: Some(sq(from)),
            to: Some(sq(to)),
        });
        changes
    };
    let (mut removed, mut added) =
        (<arch::Network as Network>::Changes::default(), <arch::Network as Network>::Changes::default());
    assert!(king_move("c1", "d1").features(
        white,
        sq("d1"),
        arch::Network::same_view,
        arch::Network::feature,
        &mut removed,
        &mut added
    ));
    assert_eq!((removed.as_slice().len(), added.as_slice().len()), (1, 1), "only the king's feature");
    assert!(
        !king_move("c1", "b1").changes_view(Color::Black, arch::Network::same_view),
        "the other side's view is unchanged"
    );
    assert!(king_move("c1", "b1").changes_view(white, arch::Network::same_view));

    // Through the stack: 1. Kd1 (from c1) is an update, then Kc1 Kb1 a refresh.
    let net = arch::Network::from_bytes_with_isa(&arch::random_net_file(5), Isa::best()).unwrap();
    let mut stack = AccumulatorStack::new(&net);
    let mut pos: Chess = "4k3/pppppppp/8/8/8/8/PPPPPPPP/2K5 w - - 0 1"
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    stack.reset(&pos);
    stack.evaluate(&net, &pos);
    for uci in ["c1d1", "e8d8", "d1c1", "d8e8", "c1b1"] {
        let m = uci.parse::<shakmaty::uci::UciMove>().unwrap().to_move(&pos).unwrap();
        stack.push(&nnue::runtime::shakmaty::move_changes(&pos, &m));
        pos.play_unchecked(m);
        assert_eq!(stack.evaluate(&net, &pos), evaluate_fresh(&net, &pos), "after {uci}");
    }
}
