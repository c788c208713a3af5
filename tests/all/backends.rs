//! Every backend this CPU runs equals the scalar one, bit for bit, on random
//! nets of every shipped architecture (written by the generated
//! `random_net_file`) and random games: accumulators after a refresh and
//! after incremental updates, the transformer's output, every layer's output
//! in every layer stack, and the final values.

use crate::support;

use nnue::runtime::{Color, Isa, LayerOutput, Position as _};
use proptest::prelude::*;
use shakmaty::{CastlingMode, Chess, Position as _, fen::Fen};

/// The sorted symmetric difference of two feature lists: (removed, added).
fn diff(old: &[u32], new: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let (mut old, mut new) = (old.to_vec(), new.to_vec());
    old.sort_unstable();
    new.sort_unstable();
    (
        old.iter().filter(|f| new.binary_search(f).is_err()).copied().collect(),
        new.iter().filter(|f| old.binary_search(f).is_err()).copied().collect(),
    )
}

/// A random game of `plies` moves from `support::STARTS[start]`.
fn game(start: usize, plies: usize, seed: u64) -> Vec<Chess> {
    let mut rng = nnue::runtime::Rng::new(seed);
    let fen: Fen = support::STARTS[start % support::STARTS.len()].parse().unwrap();
    let mut pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
    let mut positions = vec![pos.clone()];
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
        pos.play_unchecked(m);
        positions.push(pos.clone());
    }
    positions
}

macro_rules! backend_tests {
    ($($test:ident: $module:ident, $file:tt, $cases:expr;)*) => {$(
        crate::arch_module!($module, $file);

        #[test]
        fn $test() {
            use $module::$module as arch;
            let bytes = arch::random_net_file(0x5EED ^ stringify!($module).len() as u64);
            let scalar = arch::Network::from_bytes_with_isa(&bytes, Isa::Scalar).unwrap();
            let others: Vec<arch::Network> = support::isas()
                .into_iter()
                .filter(|&isa| isa != Isa::Scalar)
                .map(|isa| arch::Network::from_bytes_with_isa(&bytes, isa).unwrap())
                .collect();
            let config = ProptestConfig { cases: $cases, failure_persistence: None, ..ProptestConfig::default() };
            proptest!(config, |(start in 0..support::STARTS.len(), plies in 1..60usize, seed in any::<u64>())| {
                let positions = game(start, plies, seed);
                // Incrementally updated accumulators, one per backend.
                let mut accumulators: Vec<Box<arch::Accumulator>> = others.iter().map(|net| {
                    let mut acc = Box::new(arch::Accumulator::default());
                    net.refresh(&positions[0], &mut acc);
                    acc
                }).collect();
                for (ply, pos) in positions.iter().enumerate() {
                    let mut expected = Box::new(arch::Accumulator::default());
                    scalar.refresh(pos, &mut expected);
                    if ply > 0 {
                        for (net, acc) in others.iter().zip(accumulators.iter_mut()) {
                            let previous = acc.clone();
                            for perspective in [Color::White, Color::Black] {
                                let (removed, added) = diff(
                                    arch::Network::active_features(&positions[ply - 1], perspective).as_slice(),
                                    arch::Network::active_features(pos, perspective).as_slice(),
                                );
                                net.update(&previous, acc, perspective, &removed, &added);
                            }
                        }
                    }
                    let stm = pos.side_to_move();
                    let mut expected_input = [0u8; arch::TRANSFORMED];
                    scalar.transform(&expected, stm, &mut expected_input);
                    for (net, acc) in others.iter().zip(&accumulators) {
                        // A refresh on this backend, and the incremental state.
                        let mut fresh = Box::new(arch::Accumulator::default());
                        net.refresh(pos, &mut fresh);
                        for state in [&fresh, acc] {
                            for perspective in [Color::White, Color::Black] {
                                prop_assert_eq!(net.accumulator_values(state, perspective), scalar.accumulator_values(&expected, perspective), "{} ply {}", net.isa(), ply);
                            }
                            prop_assert_eq!(state.psqt, expected.psqt, "{} ply {}", net.isa(), ply);
                            let mut input = [0u8; arch::TRANSFORMED];
                            net.transform(state, stm, &mut input);
                            prop_assert!(input == expected_input, "{} transform differs at ply {}", net.isa(), ply);
                        }
                        let mut transformed = <arch::Network as nnue::runtime::Network>::new_transformed();
                        nnue::runtime::Network::transform(net, acc, stm, &mut transformed);
                        prop_assert!(transformed.as_ref() == &expected_input[..], "{} transform differs at ply {}", net.isa(), ply);
                        for bucket in 0..arch::LAYER_STACKS {
                            let (mut ours, mut theirs) = (Vec::new(), Vec::new());
                            let a = net.propagate_traced(bucket, &expected_input, |name, out: LayerOutput<'_>| ours.push((name, out.to_vec())));
                            let b = scalar.propagate_traced(bucket, &expected_input, |name, out: LayerOutput<'_>| theirs.push((name, out.to_vec())));
                            prop_assert_eq!(&ours, &theirs, "{} bucket {}", net.isa(), bucket);
                            prop_assert_eq!(a, b);
                            // The engine-facing pair: the transformer's
                            // output (with its list of non-zero chunks where
                            // the first layer is sparse), then the layers.
                            prop_assert_eq!(nnue::runtime::Network::forward(net, bucket, &transformed), b, "{} bucket {} forward", net.isa(), bucket);
                            prop_assert_eq!(nnue::runtime::Network::forward(&scalar, bucket, &transformed), b);
                            // Without the list: the layers search their input
                            // themselves (what `nnue bench`'s forward times).
                            prop_assert_eq!(nnue::runtime::Network::forward_searching(net, bucket, &transformed), b, "{} bucket {} forward_searching", net.isa(), bucket);
                        }
                        prop_assert_eq!(net.evaluate(pos), scalar.evaluate(pos), "{}", net.isa());
                        let count = pos.piece_count();
                        prop_assert_eq!(net.evaluate_accumulator(acc, stm, count), scalar.evaluate_accumulator(&expected, stm, count));
                    }
                }
            });
        }
    )*};
}

// The test architectures beside the shipped ones (below).
backend_tests! {
    king_buckets_backends_equal_scalar: king_buckets, "tests/piece_square/king_buckets.ron", 64;
    bullet_multilayer_backends_equal_scalar: bullet_multilayer, "tests/bullet/multilayer.ron", 32;
}

/// Composed transformers (several feature sets, i8 rows, FullThreats) have
/// no incremental update: on every backend, accumulators refreshed from each
/// position of random games, the transformer's output, every layer's output
/// in every stack and the final values equal the scalar backend's.
macro_rules! refresh_backend_tests {
    ($($test:ident: $module:ident, $arch:ident, $file:tt, $seed:expr;)*) => {$(
        crate::arch_module!($module, $file);

        #[test]
        fn $test() {
            use $module::$arch as arch;
            let bytes = arch::random_net_file($seed);
            let scalar = arch::Network::from_bytes_with_isa(&bytes, Isa::Scalar).unwrap();
            assert!(scalar.overflow_proof().holds());
            let others: Vec<arch::Network> = support::isas()
                .into_iter()
                .filter(|&isa| isa != Isa::Scalar)
                .map(|isa| arch::Network::from_bytes_with_isa(&bytes, isa).unwrap())
                .collect();
            let config = ProptestConfig { cases: 8, failure_persistence: None, ..ProptestConfig::default() };
            proptest!(config, |(start in 0..support::STARTS.len(), plies in 1..60usize, seed in any::<u64>())| {
                for (ply, pos) in game(start, plies, seed).iter().enumerate() {
                    let mut expected = Box::new(arch::Accumulator::default());
                    scalar.refresh(pos, &mut expected);
                    let stm = pos.side_to_move();
                    let mut expected_input = [0u8; arch::TRANSFORMED];
                    scalar.transform(&expected, stm, &mut expected_input);
                    prop_assert!(expected_input.iter().any(|&b| b != 0) && expected_input.contains(&0), "ply {}: the random net's transformer output is all zero or all non-zero", ply);
                    for net in &others {
                        let mut fresh = Box::new(arch::Accumulator::default());
                        net.refresh(pos, &mut fresh);
                        for perspective in [Color::White, Color::Black] {
                            prop_assert_eq!(net.accumulator_values(&fresh, perspective), scalar.accumulator_values(&expected, perspective), "{} ply {}", net.isa(), ply);
                        }
                        prop_assert_eq!(fresh.psqt, expected.psqt, "{} ply {}", net.isa(), ply);
                        let mut input = [0u8; arch::TRANSFORMED];
                        net.transform(&fresh, stm, &mut input);
                        prop_assert!(input == expected_input, "{} transform differs at ply {}", net.isa(), ply);
                        for bucket in 0..arch::LAYER_STACKS {
                            let (mut ours, mut theirs) = (Vec::new(), Vec::new());
                            let a = net.propagate_traced(bucket, &expected_input, |name, out: LayerOutput<'_>| ours.push((name, out.to_vec())));
                            let b = scalar.propagate_traced(bucket, &expected_input, |name, out: LayerOutput<'_>| theirs.push((name, out.to_vec())));
                            prop_assert_eq!(&ours, &theirs, "{} bucket {}", net.isa(), bucket);
                            prop_assert_eq!(a, b);
                        }
                        prop_assert_eq!(net.evaluate(pos), scalar.evaluate(pos), "{}", net.isa());
                    }
                }
            });
        }
    )*};
}

// The test architectures beside the shipped ones (below).
refresh_backend_tests! {
    threats_only_backends_equal_scalar: threats_only, threats_only, "tests/composed/threats-only.ron", 0x5EED ^ 11;
    two_piece_sets_backends_equal_scalar: two_piece_sets, two_piece_sets, "tests/composed/two-piece-sets.ron", 0x5EED ^ 12;
}

/// Every shipped architecture (`nnue::for_each_shipped_arch!`): a plain
/// one (one feature set) by `backend_tests!`, a composed one by
/// `refresh_backend_tests!`; the test `<module>_backends_equal_scalar`.
macro_rules! shipped_backend_tests {
    ($($module:ident { file: $file:literal, source: $source:literal, network: $network:tt, plain: $plain:tt, named: $test:ident }),* $(,)?) => {$(
        shipped_backend_test!($plain, $test, $module, $file);
    )*};
}

macro_rules! shipped_backend_test {
    (true, $test:ident, $module:ident, $file:literal) => {
        backend_tests! { $test: $module, shipped, cases(stringify!($module)); }
    };
    (false, $test:ident, $module:ident, $file:literal) => {
        refresh_backend_tests! { $test: $module, $module, shipped, composed_seed(stringify!($module)); }
    };
}

nnue::for_each_shipped_arch!(shipped_backend_tests, suffix = _backends_equal_scalar);

/// The property test's cases for a shipped plain architecture: fewer for
/// the widest transformers (each case refreshes and updates on every
/// backend), more for the small and the bullet nets; 24 for any other.
fn cases(module: &str) -> u32 {
    match module {
        "sfnnv6" | "sfnnv7" => 16,
        "sfnnv8" | "sfnnv9" => 12,
        "sfnnv9_small" | "obsidian" | "akimbo" | "reckless_v30" => 64,
        _ => 24,
    }
}

/// The random net's seed for a shipped composed architecture: `0x5EED`
/// xor the number its module's name ends with (`sfnnv16`: 16; none: 0).
fn composed_seed(module: &str) -> u64 {
    let digits = &module[module.trim_end_matches(|c: char| c.is_ascii_digit()).len()..];
    0x5EED ^ digits.parse::<u64>().unwrap_or(0)
}
