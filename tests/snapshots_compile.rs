//! The committed snapshots of generated code compile (under
//! `#![deny(warnings)]`) and run: each is extracted from its `.snap` file and
//! built as a trybuild `pass` test against this crate.

use std::path::PathBuf;

#[test]
fn snapshots_compile() {
    let snapshots = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("snapshots-compile");
    std::fs::create_dir_all(&out).unwrap();
    let cases = trybuild::TestCases::new();
    let mut count = 0;
    for entry in std::fs::read_dir(&snapshots).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "snap") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // An insta snapshot: a `---`-delimited header, then the contents.
        let code = text.splitn(3, "---\n").nth(2).unwrap_or_else(|| panic!("{}: no insta header", path.display()));
        let module = code.split("pub mod ").nth(1).and_then(|s| s.split_whitespace().next()).expect("a module");
        let program = format!(
            "#![deny(warnings)]\n{code}\nfn main() {{\n    assert_eq!({module}::ARCH.name.replace('-', \"_\"), \"{module}\");\n    assert_eq!({module}::ARCH.feature_dimensions, {module}::FEATURES);\n}}\n"
        );
        let file = out.join(format!("{module}.rs"));
        std::fs::write(&file, program).unwrap();
        cases.pass(&file);
        count += 1;
    }
    assert_eq!(count, SHIPPED, "one snapshot per shipped architecture");
}

/// How many architectures are shipped (`nnue::for_each_shipped_arch!`).
macro_rules! count {
    ($($module:ident { $($entry:tt)* }),* $(,)?) => {
        const SHIPPED: usize = [$(stringify!($module)),*].len();
    };
}

nnue::for_each_shipped_arch!(count);
