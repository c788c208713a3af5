//! The C example (`examples/c/evaluate.c`) built with the system's C
//! compiler against the static library this test run built, and run on the
//! small net: its output equals the Rust API's evaluation of 1. e4. The
//! header also compiles as C++ (engines are mostly C++).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The directory cargo put this test run's libraries in
/// (`target/<profile>`): the test binary is in its `deps/`.
fn artifacts() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let deps = exe.parent().expect("in deps/");
    deps.parent().expect("deps/ is in the profile's directory").to_owned()
}

/// What the static library needs besides (`rustc --print native-static-libs`).
const NATIVE_LIBS: &[&str] = &["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"];

/// Runs `command`, failing the test with its output if it fails.
fn run(command: &mut Command) -> String {
    let output = command.output().unwrap_or_else(|e| panic!("{command:?}: {e}"));
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert!(
        output.status.success(),
        "{command:?}: {}\n{}{}",
        output.status,
        text(&output.stdout),
        text(&output.stderr)
    );
    text(&output.stdout)
}

fn compiler(var: &str, default: &str) -> String {
    std::env::var(var).unwrap_or_else(|_| default.to_owned())
}

/// Builds the example: the C compiler (`$CC`, else `cc`), strict warnings.
fn build(repo: &Path, include: &Path) -> PathBuf {
    // `cargo test` leaves the static library it built for this run in
    // `deps/` (as `cargo build` would, its name has no hash: the crate is
    // also a cdylib); only `cargo build` copies it up to `target/<profile>`.
    let library = ["deps/libnnue_capi.a", "libnnue_capi.a"]
        .map(|name| artifacts().join(name))
        .into_iter()
        .find(|path| path.is_file())
        .unwrap_or_else(|| panic!("no libnnue_capi.a in {} or its deps/", artifacts().display()));
    let exe = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("evaluate-c");
    run(Command::new(compiler("CC", "cc"))
        .args(["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-I"])
        .arg(include)
        .arg(repo.join("examples/c/evaluate.c"))
        .arg(&library)
        .args(NATIVE_LIBS)
        .arg("-o")
        .arg(&exe));
    exe
}

#[test]
#[cfg(target_os = "linux")]
fn c_example() {
    let repo = common::support::repo();
    let include = repo.join("nnue-capi/include");
    let exe = build(&repo, &include);
    let Some(net) = common::real_net("nn-37f18f62d772.nnue", "c_example") else { return };
    let printed = run(Command::new(&exe).arg(&net));
    let field = |key: &str| {
        printed
            .lines()
            .find_map(|l| l.strip_prefix(key).and_then(|rest| rest.strip_prefix(' ')))
            .unwrap_or_else(|| panic!("no `{key}` in the example's output:\n{printed}"))
            .to_owned()
    };
    // The same through the Rust API.
    let rust = nnue_capi::archs::sfnnv9_small::Network::from_file(&net).expect("the small net loads");
    let after_e4 = common::chess("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    let eval = rust.evaluate(&after_e4);
    let expected = [
        ("arch", "sfnnv9-small".to_owned()),
        ("isa", rust.isa().name().to_owned()),
        ("bucket", eval.bucket.to_string()),
        ("psqt", eval.psqt.to_string()),
        ("positional", eval.positional.to_string()),
        ("value", eval.value.to_string()),
    ];
    for (key, value) in expected {
        assert_eq!(field(key), value, "{key}; the example printed:\n{printed}");
    }
}

/// The header is valid C++ (its functions in `extern "C"`), with
/// warnings as errors: the C++ compiler (`$CXX`, else `c++`).
#[test]
#[cfg(target_os = "linux")]
fn header_compiles_as_cpp() {
    let include = common::support::repo().join("nnue-capi/include");
    let source = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("nnue-header.cpp");
    std::fs::write(
        &source,
        "#include \"nnue.h\"\nint main() {\n    const nnue_net *net = nullptr;\n    nnue_eval eval{};\n    \
         return nnue_net_load_file(\"x\", nullptr, nullptr, 0, &net) + eval.value + NNUE_ERROR_PANIC;\n}\n",
    )
    .unwrap();
    run(Command::new(compiler("CXX", "c++"))
        .args(["-std=c++17", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-fsyntax-only", "-I"])
        .arg(&include)
        .arg(&source));
}
