//! Compile-fail tests for mistakes in architecture files: each case in
//! `tests/ui/<group>/` is a `.rs` file calling `nnue::nnue!(include "x.ron")`
//! on the RON file next to it, and the `.stderr` the compiler must print (a
//! `compile_error!` at the path literal whose message starts with
//! `file:line:col`).
//!
//! Regenerate the expected output with
//! `TRYBUILD=overwrite cargo test --test compile_fail`, then read every changed
//! `.stderr` and check that its `line:col` lands on the offending key or value.

/// RON syntax errors, reported by the parser.
#[test]
fn syntax() {
    trybuild::TestCases::new().compile_fail("tests/ui/syntax/*.rs");
}

/// Schema errors: missing or unknown fields, unknown variants, wrong value types.
#[test]
fn schema() {
    trybuild::TestCases::new().compile_fail("tests/ui/schema/*.rs");
}

/// Sizes and numeric ranges: SIMD blocks, outputs, stacks, buckets, clamps, scales.
#[test]
fn sizes() {
    trybuild::TestCases::new().compile_fail("tests/ui/sizes/*.rs");
}

/// Size limits, each just over (`nnue_spec::limits`; `tests/all/limits.rs` builds
/// and runs the largest accepted sizes): the stack budget of an evaluation,
/// reached by the transformer or by a layer; the layer stack count; the
/// transformer's weight table; and the typos.
#[test]
fn limits() {
    trybuild::TestCases::new().compile_fail("tests/ui/limits/*.rs");
}

/// The layer graph: references, slices, value types, names, unused layers, the output.
#[test]
fn graph() {
    trybuild::TestCases::new().compile_fail("tests/ui/graph/*.rs");
}

/// The macro input and the architecture file itself: not found, unreadable, empty.
#[test]
fn file() {
    trybuild::TestCases::new().compile_fail("tests/ui/file/*.rs");
}

/// Feature sets: unknown sets and encodings, duplicates, weight types.
#[test]
fn features() {
    trybuild::TestCases::new().compile_fail("tests/ui/features/*.rs");
}

/// Valid architectures the generator does not support yet.
#[test]
fn unsupported() {
    trybuild::TestCases::new().compile_fail("tests/ui/unsupported/*.rs");
}

/// Several semantic errors in one file, all reported at once.
#[test]
fn multiple() {
    trybuild::TestCases::new().compile_fail("tests/ui/multiple/*.rs");
}

/// Bullet files and the layers of bullet nets: tensors missing, repeated,
/// unknown or of a type their parameter cannot take; a header field in a
/// headerless file; i16 weights where Stockfish's format has none; SCReLU's
/// square beyond i32; material bucket tables.
#[test]
fn bullet() {
    trybuild::TestCases::new().compile_fail("tests/ui/bullet/*.rs");
}

/// Mistakes whose first error is at the cause and names the fix: a clamp
/// beyond the transformer's u8 (with the clamp or layer that fits), a
/// missing `weight: I16` (one error, not three), a missing field (with the
/// value that fits), a misspelling (with the name meant), Rust syntax or
/// unnamed fields in RON, a field in the wrong place.
#[test]
fn fixes() {
    trybuild::TestCases::new().compile_fail("tests/ui/fixes/*.rs");
}
