//! The size limits (`nnue_spec::limits`): every shipped architecture is
//! within them; the mistakes of the issue that introduced them are one
//! located error each; and over randomly generated files, with sizes drawn
//! up to and far beyond the limits, every file is either rejected with
//! located errors or within every limit (checked from the IR).

use nnue_spec::limits::{self, STACK_BUDGET};
use nnue_spec::stack_bytes;
use nnue_spec::{Diagnostic, LineCol};
use proptest::prelude::*;
use std::path::Path;

fn shipped(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../archs").join(format!("{name}.ron"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The line and column of the first occurrence of `needle` after `after`
/// (errors are located at a value's key).
fn position(text: &str, after: &str, needle: &str) -> LineCol {
    let offset = text.find(after).unwrap() + text[text.find(after).unwrap()..].find(needle).unwrap();
    let line = text[..offset].matches('\n').count() + 1;
    let col = offset - text[..offset].rfind('\n').map_or(0, |n| n + 1) + 1;
    LineCol { line, col }
}

fn only_error(text: &str) -> Diagnostic {
    let errors = nnue_spec::parse(text).expect_err("the file must be rejected");
    assert_eq!(errors.len(), 1, "{errors:?}");
    errors.into_iter().next().unwrap()
}

#[test]
fn shipped_architectures_are_within_every_limit() {
    for name in
        ["sfnnv1", "sfnnv2", "sfnnv3", "sfnnv4", "sfnnv5", "sfnnv6", "sfnnv7", "sfnnv8", "sfnnv9", "sfnnv9-small"]
    {
        let arch = nnue_spec::parse(&shipped(name)).unwrap();
        assert_eq!(limits::within_limits(&arch), Ok(()), "{name}");
    }
}

/// The issue's new user: `fc_1` of `sfnnv9-small` given 1000000 outputs.
#[test]
fn a_wide_layer_is_one_error_at_its_outputs() {
    let text = shipped("sfnnv9-small").replace(
        "name: \"fc_1\", input: \"fc_1_in\", outputs: 32",
        "name: \"fc_1\", input: \"fc_1_in\", outputs: 1000000",
    );
    let error = only_error(&text);
    assert_eq!(error.at, position(&text, "name: \"fc_1\"", "outputs: 1000000"));
    assert!(error.message.starts_with("fc_1 outputs 1000000: an evaluation would keep "), "{}", error.message);
    assert!(
        error.message.contains("on the stack, over the 65536-byte (64 KiB) budget; largest buffers: "),
        "{}",
        error.message
    );
}

/// L1 = 2^32 and 2^30: one error at `dimensions`, the weight table's limit.
#[test]
fn a_huge_transformer_is_one_error_at_its_dimensions() {
    for dims in ["4294967296", "1073741824"] {
        let text = shipped("sfnnv9-small").replace("dimensions: 128", &format!("dimensions: {dims}"));
        let error = only_error(&text);
        assert_eq!(error.at, position(&text, "transformer: (", "dimensions"));
        assert!(
            error.message.starts_with(&format!(
                "transformer dimensions {dims}: the transformer's weight table would be 22528 x {dims} x 2 = "
            )),
            "{}",
            error.message
        );
    }
}

/// Other errors are still reported with a limit's.
#[test]
fn a_limit_is_reported_with_the_other_errors() {
    let text = shipped("sfnnv9-small")
        .replace("count: 8, select: PieceCount(divisor: 4)", "count: 40, select: PieceCount(divisor: 4)")
        .replace("scale: 16", "scale: 0");
    let errors = nnue_spec::parse(&text).unwrap_err();
    let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(errors.len(), 3, "{messages:?}");
    assert!(messages.iter().any(|m| m.starts_with("layer_stacks.count 40: at most 32 layer stacks")), "{messages:?}");
    assert!(messages.iter().any(|m| m.starts_with("8 PSQT buckets but 40 layer stacks")), "{messages:?}");
    assert!(messages.iter().any(|m| m.starts_with("scale 0 must be positive")), "{messages:?}");
}

/// One error per value: `Single` with 40 stacks is reported as a wrong
/// count for `Single`, not again as over the limit.
#[test]
fn a_value_already_wrong_is_not_reported_again() {
    let text = shipped("sfnnv1").replace("count: 1, select: Single", "count: 40, select: Single");
    let error = only_error(&text);
    assert_eq!(error.message, "`Single` selects one stack, but count is 40: use `count: 1`");
}

/// A size: small, around the limits, or anything up to `usize::MAX`.
fn size() -> impl Strategy<Value = usize> {
    prop_oneof![
        0..=64usize,
        1..=20_000usize,
        (0..64u32).prop_map(|k| 1usize << k),
        (1..=1024usize).prop_map(|k| k * 64),
        any::<usize>(),
    ]
}

/// An optional slice `[a..b]` of a reference.
fn slice() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        (size(), size()).prop_map(|(a, b)| format!("[{a}..{b}]")),
        size().prop_map(|i| format!("[{i}]"))
    ]
}

prop_compose! {
    /// An architecture file whose sizes are all drawn from [`size`].
    fn spec()(
        set in prop_oneof![Just("HalfKP"), Just("HalfKAv2"), Just("HalfKAv2_hm")],
        dims in prop_oneof![(1..=400usize).prop_map(|k| k * 64), size()],
        pairwise in any::<bool>(),
        psqt in prop_oneof![Just(0usize), 1..=40usize, size()],
        (count, divisor) in (prop_oneof![1..=40usize, size()], prop_oneof![1..=8usize, size()]),
        outputs in [size(), size(), size()],
        small in [1..=64usize, 1..=64usize, 1..=64usize],
        use_small in [any::<bool>(), any::<bool>(), any::<bool>()],
        slices in [slice(), slice()],
        sparse in any::<bool>(),
    ) -> String {
        let out = |i: usize| if use_small[i] { small[i] } else { outputs[i] };
        let output = if pairwise { "Pairwise()" } else { "ClippedReLU()" };
        format!(r#"Network(
    name: "random",
    file: (version: 1),
    features: [(set: {set})],
    transformer: (
        dimensions: {dims},
        psqt_buckets: {psqt},
        output: {output},
    ),
    layer_stacks: (count: {count}, select: PieceCount(divisor: {divisor})),
    layers: [
        Affine(name: "fc_0", input: "transformer{}", outputs: {}, sparse: {sparse}),
        ClippedReLU(name: "ac_0", input: "fc_0"),
        Concat(name: "both", inputs: ["ac_0", "ac_0{}"]),
        Affine(name: "fc_1", input: "both", outputs: {}),
        ClippedReLU(name: "ac_1", input: "fc_1"),
        Affine(name: "fc_2", input: "ac_1", outputs: {}),
    ],
    output: (value: "fc_2[0]", eval: SumThenDivide),
)
"#, slices[0], out(0), slices[1], out(1), out(2))
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_file_is_rejected_with_located_errors_or_within_every_limit(text in spec()) {
        match nnue_spec::parse(&text) {
            Ok(arch) => prop_assert_eq!(limits::within_limits(&arch), Ok(())),
            Err(errors) => {
                prop_assert!(!errors.is_empty());
                let lines: Vec<&str> = text.lines().collect();
                for e in &errors {
                    // On a line of the file, at or just past a character of it.
                    prop_assert!((1..=lines.len()).contains(&e.at.line), "{e}");
                    prop_assert!((1..=lines[e.at.line - 1].chars().count() + 1).contains(&e.at.col), "{e}");
                    prop_assert!(!e.message.is_empty());
                }
            }
        }
    }
}

/// The budget is reached from below: a file just under it is accepted and
/// the generated code's buffers it lists are the ones of that file.
#[test]
fn the_budget_is_the_sum_of_the_listed_buffers() {
    let arch = nnue_spec::parse(&shipped("sfnnv9")).unwrap();
    let buffers = stack_bytes::evaluation_buffers(&arch.transformer, &arch.layers);
    assert_eq!(stack_bytes::stack_bytes(&buffers), stack_bytes::evaluation_stack_bytes(&arch));
    assert!(stack_bytes::evaluation_stack_bytes(&arch) < STACK_BUDGET);
    assert!(buffers.iter().any(|b| b.what == "accumulator lanes, 2 x 3072 i16" && b.bytes == 12288));
}
