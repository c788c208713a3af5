//! The largest sizes the limits (`nnue_spec::limits`) accept, from
//! `tests/limits/`: each file is accepted and one step more is rejected at
//! that value; its module builds, loads a random net and evaluates (from
//! scratch and through an `AccumulatorStack` over a few moves) on a spawned
//! thread with a 2 MiB stack, a search thread's default, on every backend
//! this CPU runs, equal to the scalar backend. The sizes of runtime types
//! that `nnue_spec::stack_bytes` assumes are checked against the types.

use crate::support;

use nnue::runtime::shakmaty::{chess_from_fen, move_changes};
use nnue::runtime::{AccumulatorStack, Isa};
use nnue_spec::{limits, stack_bytes};
use shakmaty::Position as _;

/// A search thread's default stack.
const THREAD_STACK: usize = 2 << 20;

/// A middle game with every kind of piece, and a few moves from it.
const FEN: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
const MOVES: usize = 6;

/// `text` is accepted and within every limit; with `field: value` replaced
/// by `field: over` it is rejected with one error, over the stack budget.
fn largest_accepted(text: &str, field: &str, value: &str, over: &str) {
    let arch = nnue_spec::parse(text).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(limits::within_limits(&arch), Ok(()));
    let written = format!("{field}: {value}");
    assert_eq!(text.matches(&written).count(), 1, "{written}");
    let errors = nnue_spec::parse(&text.replace(&written, &format!("{field}: {over}"))).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].message.contains("on the stack, over the 65536-byte (64 KiB) budget"), "{}", errors[0]);
}

macro_rules! largest_accepted_tests {
    ($($test:ident: $module:ident, $file:literal, $field:literal, $value:literal, $over:literal;)*) => {$(
        mod $module {
            nnue::nnue!(include $file);
        }

        #[test]
        fn $test() {
            use $module::$module as arch;
            largest_accepted(include_str!($file), $field, $value, $over);
            let bytes = std::sync::Arc::new(arch::random_net_file(1));
            let mut results = Vec::new();
            // Scalar first, the reference, even where `NNUE_ONLY_ISAS`
            // narrows the backends under test to others.
            let others = support::isas().into_iter().filter(|&isa| isa != Isa::Scalar);
            for isa in std::iter::once(Isa::Scalar).chain(others) {
                let bytes = bytes.clone();
                // Loading, evaluating and the accumulator stack, all on the thread.
                let thread = std::thread::Builder::new().stack_size(THREAD_STACK).spawn(move || {
                    let net = arch::Network::from_bytes_with_isa(&bytes, isa).unwrap();
                    let mut pos = chess_from_fen(FEN).unwrap();
                    let mut stack = AccumulatorStack::new(&net);
                    stack.reset(&pos);
                    let mut values = vec![net.evaluate(&pos)];
                    for _ in 0..MOVES {
                        let m = pos.legal_moves()[0];
                        stack.push(&move_changes(&pos, &m));
                        pos.play_unchecked(m);
                        let incremental = stack.evaluate(&net, &pos);
                        assert_eq!(incremental, net.evaluate(&pos), "{isa}");
                        values.push(incremental);
                    }
                    values
                });
                results.push((isa, thread.unwrap().join().unwrap_or_else(|_| panic!("{isa}: the thread failed"))));
            }
            assert_eq!(results[0].0, Isa::Scalar);
            for (isa, values) in &results[1..] {
                assert_eq!(values, &results[0].1, "{isa} against scalar");
            }
        }
    )*};
}

largest_accepted_tests! {
    widest_transformer: widest_transformer, "../limits/widest_transformer.ron", "dimensions", "8064", "8192";
    widest_column_layer: widest_column_layer, "../limits/widest_column_layer.ron", "outputs", "3008", "3016";
    widest_row_layer: widest_row_layer, "../limits/widest_row_layer.ron", "outputs", "10575", "10577";
}

/// The sizes `limits` assumes for runtime types are theirs.
#[test]
fn the_model_knows_the_runtime_types() {
    assert_eq!(stack_bytes::FEATURE_LIST_BYTES, size_of::<nnue::runtime::FeatureList>());
    let arch = nnue_spec::parse(include_str!("../limits/widest_transformer.ron")).unwrap();
    let buffers = stack_bytes::evaluation_buffers(&arch.transformer, &arch.layers);
    let accumulator: usize = buffers.iter().filter(|b| b.what.starts_with("accumulator")).map(|b| b.bytes).sum();
    assert_eq!(accumulator, size_of::<widest_transformer::widest_transformer::Accumulator>());
    let transformed = buffers.iter().find(|b| b.what.starts_with("transformer output")).unwrap().bytes;
    assert_eq!(
        transformed,
        size_of::<nnue::runtime::Aligned<[u8; widest_transformer::widest_transformer::TRANSFORMED]>>()
    );
}
