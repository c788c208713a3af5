//! Mistakes in an architecture file: the first error is the one at the
//! cause, and names the fix (the field to add and the value that fits).
//! `tests/ui/fixes/` has the same mistakes as compile errors of `nnue!`.

fn obsidian() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../archs/bullet/obsidian.ron")).unwrap()
}

fn sfnnv9() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../archs/sfnnv9.ron")).unwrap()
}

/// The errors of `text` with `from` replaced by `to`, as `line:col: message`.
fn errors(text: &str, from: &str, to: &str) -> Vec<String> {
    assert!(text.contains(from), "{from}");
    let text = text.replace(from, to);
    nnue_spec::parse(&text).err().unwrap_or_else(|| panic!("{to}: no error")).iter().map(ToString::to_string).collect()
}

/// The line and column of the first occurrence of `what` in `text` with
/// `from` replaced by `to`.
fn at(text: &str, from: &str, to: &str, what: &str) -> String {
    let text = text.replace(from, to);
    let offset = text.find(what).unwrap();
    let line = text[..offset].matches('\n').count() + 1;
    let col = offset - text[..offset].rfind('\n').map_or(0, |n| n + 1) + 1;
    format!("{line}:{col}")
}

/// Issue 55: `ClippedReLU(max: 384)` after the transformer named no fix.
#[test]
fn a_clamp_beyond_u8_names_accumulators_and_screlu() {
    let text = obsidian().replace(
        "SCReLU(name: \"screlu\", input: \"transformer\", max: 255)",
        "SCReLU(name: \"screlu\", input: \"transformer\", max: 384)",
    );
    let (from, to) = ("output: ClippedReLU(max: 255)", "output: ClippedReLU(max: 384)");
    assert_eq!(
        errors(&text, from, to),
        [format!(
            "{}: `ClippedReLU(max: 384)` outputs values up to 384, but the transformer's output is a u8 (at most 255): to clamp at 384, write `output: Accumulators`: the i16 accumulators go to `screlu`, whose `SCReLU(max: 384)` clamps them itself (as in archs/bullet/akimbo.ron); or `ClippedReLU(max: 255)` (a max in 1..=255)",
            at(&text, from, to, "max: 384")
        )]
    );
    // The fix compiles.
    let fixed = text.replace(from, "output: Accumulators");
    nnue_spec::parse(&fixed).unwrap();
    // With an SCReLU of another clamp, its max is named too.
    let errors = errors(&obsidian(), from, to);
    assert!(errors[0].contains("write `output: Accumulators` and `max: 384` in `screlu`"), "{errors:?}");
}

/// Issue 55: an `Affine` with `divisor` but without `weight: I16` gave three
/// errors, the first (at the tensor list) the wrong way round.
#[test]
fn a_divisor_without_i16_weights_is_one_error_naming_the_field() {
    let text = obsidian();
    let (from, to) = (", weight: I16, divisor: 255", ", divisor: 255");
    assert_eq!(
        errors(&text, from, to),
        [format!(
            "{}: `divisor: 255` divides the sum of i16 weights (`sum / 255 + bias`), but `out` has i8 weights (`weight` is I8 by default): add `weight: I16` to `out`",
            at(&text, from, to, "divisor: 255)")
        )]
    );
    // Without the divisor either, the layer's error comes before the tensor
    // list's, and both name the field.
    let errors = errors(&text, ", weight: I16, divisor: 255", "");
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].ends_with("`screlu` (SCReLU) produces i32 values, but an Affine with i8 weights reads u8 values: add `weight: I16` to `out` (i16 weights read i32 values; bullet files)"), "{errors:?}");
    assert!(
        errors[1].ends_with(
            "`out.weights` is I16, but `out` has i8 weights: add `weight: I16` to `out`, or store the tensor as I8"
        ),
        "{errors:?}"
    );
}

/// A Stockfish file's pairwise output over the u8 (and fc_0's 127) names
/// the divisor and the max that fit.
#[test]
fn a_pairwise_output_too_large_names_the_divisor_that_fits() {
    let errors = errors(&sfnnv9(), "Pairwise(max: 254, divisor: 512)", "Pairwise(max: 254)");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].ends_with("use `divisor: 512` (largest output 126), or `max: 127` (largest output 126)"),
        "{errors:?}"
    );
}

/// Layer problems come before those of the tensor list derived from them.
#[test]
fn tensor_list_problems_come_last() {
    let text = obsidian().replace("(tensor: \"out.biases\", type: I16),", "");
    let errors = errors(&text, "input: \"screlu\"", "input: \"scrleu\"");
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].contains("unknown input `scrleu`: did you mean `screlu`?"), "{errors:?}");
    assert!(errors[1].contains("`out.biases` is missing"), "{errors:?}");
    let errors = errors_of(
        &obsidian().replace("(tensor: \"out.biases\", type: I16),", "").replace(", weight: I16, divisor: 255", ""),
    );
    assert!(errors[0].contains("add `weight: I16` to `out`"), "{errors:?}");
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors[1].contains("`out.biases` is missing") && errors[2].contains("`out.weights` is I16"), "{errors:?}");
}

fn errors_of(text: &str) -> Vec<String> {
    nnue_spec::parse(text).err().unwrap().iter().map(ToString::to_string).collect()
}

/// Missing fields name the value that fits.
#[test]
fn missing_fields_name_a_value() {
    for (from, to, message) in [
        ("        eval: DivideThenSum,\n", "", "`output` has no `eval`: add `eval: DivideThenSum`"),
        (
            "    layer_stacks: (count: 8, select: PieceCount(divisor: 4, offset: 2)),",
            "    layer_stacks: (count: 8),",
            "`layer_stacks` has no `select`: add `select: Single` for one stack",
        ),
        (
            "SCReLU(name: \"screlu\", input: \"transformer\", max: 255)",
            "SCReLU(name: \"screlu\", input: \"transformer\")",
            "`SCReLU(...)` has no `max`: add `max: <QA>`",
        ),
        (
            "(tensor: \"out.weights\", type: I16, layout: InputMajor)",
            "(tensor: \"out.weights\", layout: InputMajor)",
            "a tensor of `file.format` has no `type`: add `type: I16`",
        ),
    ] {
        let errors = errors(&obsidian(), from, to);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains(message), "{errors:?}");
    }
    let errors = errors(&sfnnv9(), "version: 0x7AF32F20, ", "");
    assert!(
        errors[0]
            .contains("add `version: <the u32 at offset 0 of the net>` to `file`: 0x7AF32F20 for Stockfish 14 to 18"),
        "{errors:?}"
    );
}

/// Misspellings name what was meant; RON mistakes name the RON.
#[test]
fn misspellings_and_syntax_name_the_fix() {
    for (text, from, to, message) in [
        (obsidian(), "\"out.weights\"", "\"ot.weights\"", "unknown layer `ot`: did you mean `out.weights`?"),
        (obsidian(), "\"out.biases\"", "\"out.bias\"", "`out.bias` is not a tensor: did you mean `out.biases`?"),
        (obsidian(), "weight: I16,", "weight: i16,", "unknown type `i16`: did you mean `I16`?"),
        (
            obsidian(),
            "rescale: Some((multiply: 400, divide: 16320))",
            "rescale: (multiply: 400, divide: 16320)",
            "`rescale` is optional: write its value inside `Some(...)`, e.g. `rescale: Some((multiply: 400, divide: 16320))`",
        ),
        (obsidian(), "        mirror: KingOnEToH,\n", "", "add `mirror: KingOnEToH`"),
        (
            sfnnv9(),
            "version: 0x7AF32F20",
            "version: Some(0x7AF32F20)",
            "`version` is written without `Some`: `version: 0x7AF32F20`",
        ),
        (
            sfnnv9(),
            "PieceCount(divisor: 4)",
            "PieceCount(4)",
            "the fields of `PieceCount(...)` are written with their names: `PieceCount(divisor: 4, ..)`",
        ),
        (sfnnv9(), "dimensions: 3072", "dimensions: 3072.0", "`dimensions` is an integer: write `3072`"),
        (
            sfnnv9(),
            "(version: 0x7AF32F20,",
            "(version: 0x7AF32F20, hash: 0x7F234CB8,",
            "a feature set's hash word is written on the set: `features: [(set: .., hash: 0x7F234CB8)]`",
        ),
        (
            sfnnv9(),
            "features: [(set: HalfKAv2_hm)]",
            "features: [HalfKAv2_hm]",
            "a feature set is written `(set: ..)`, not `HalfKAv2_hm`: `(set: HalfKAv2_hm)`",
        ),
        (
            sfnnv9(),
            "select: PieceCount(divisor: 4)",
            "select: PieceCount(divisor: 4, offst: 1)",
            "`PieceCount(...)` has no field `offst`: did you mean `offset`?",
        ),
        (
            sfnnv9(),
            "dimensions: 3072,",
            "dimensions: 3072,\n        psqt_buckets: 8,\n        load_scale: 2,\n        output: Pairwise(max: 254, divisor: 512),\n    layer_stacks: (count: 8, select: PieceCount(divisor: 4)),\n    (",
            "is the `)` closing `transformer` missing before it?",
        ),
    ] {
        let errors = errors(&text, from, to);
        assert!(errors[0].contains(message), "{to}: {errors:?}");
    }
    // A string's forgotten closing quote is reported at the string.
    let unclosed = errors(&sfnnv9(), "name: \"sfnnv9\",", "name: \"sfnnv9,");
    assert!(
        unclosed[0].ends_with("this string runs on to the next line: is its closing `\"` missing?"),
        "{unclosed:?}"
    );
    assert!(
        unclosed[0].starts_with(&at(&sfnnv9(), "name: \"sfnnv9\",", "name: \"sfnnv9,", "\"sfnnv9,")),
        "{unclosed:?}"
    );
    // A comma forgotten at the end of a line is reported there.
    let text = sfnnv9();
    let errors = errors(
        &text,
        "file: (version: 0x7AF32F20, transformer_encoding: Leb128),",
        "file: (version: 0x7AF32F20, transformer_encoding: Leb128)",
    );
    let line = text[..text.find("file: (version").unwrap()].matches('\n').count() + 1;
    assert!(
        errors[0].starts_with(&format!("{line}:")) && errors[0].ends_with("expected a comma after this value"),
        "{errors:?}"
    );
}
