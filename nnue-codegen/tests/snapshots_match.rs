//! The generated code of every architecture under `archs/` is exactly the
//! snapshot committed for it in `tests/snapshots/` (checked by the `nnue`
//! crate's insta test too): a check of the generator that needs only this
//! crate built.

use std::path::{Path, PathBuf};

/// Every `.ron` file under `dir`, recursively.
fn ron_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            ron_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "ron") {
            found.push(path);
        }
    }
}

#[test]
fn output_matches_snapshots() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let archs = root.join("archs");
    let mut files = Vec::new();
    ron_files(&archs, &mut files);
    files.sort();
    assert!(!files.is_empty());
    let mut differ = Vec::new();
    for file in &files {
        let name = file.strip_prefix(&archs).unwrap().with_extension("").to_str().unwrap().replace('/', "-");
        let text = std::fs::read_to_string(file).unwrap();
        let arch = nnue_spec::parse(&text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let code = nnue_codegen::generate_pretty(&arch, &nnue_codegen::Options::default());
        let snap = std::fs::read_to_string(root.join("tests/snapshots").join(format!("{name}.snap"))).unwrap();
        // The snapshot's text after insta's `---` header.
        let body = snap.splitn(3, "---\n").nth(2).unwrap_or_else(|| panic!("{name}: no insta header"));
        if body.trim_end() != code.trim_end() {
            std::fs::write(std::env::temp_dir().join(format!("nnue-codegen-{name}.rs")), &code).unwrap();
            differ.push(name);
        }
    }
    assert!(differ.is_empty(), "generated code differs from the snapshot (written to the temp dir): {differ:?}");
}
