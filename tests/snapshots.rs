//! The generated code of every shipped architecture, formatted, as insta
//! snapshots (`tests/snapshots/`): a reviewer sees exactly what a generator
//! change does. `snapshots_compile` checks that the snapshots compile.

use std::path::PathBuf;

/// Every shipped architecture: `archs/*.ron` and `archs/bullet/*.ron`
/// (snapshot `bullet-<name>`).
fn archs() -> Vec<(String, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("archs");
    let mut archs: Vec<(String, String)> = [("", root.clone()), ("bullet-", root.join("bullet"))]
        .into_iter()
        .flat_map(|(prefix, dir)| {
            std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "ron"))
                .map(move |p| (format!("{prefix}{}", p.file_stem().unwrap().to_str().unwrap()), std::fs::read_to_string(&p).unwrap()))
        })
        .collect();
    archs.sort();
    archs
}

#[test]
fn generated_code() {
    let archs = archs();
    assert_eq!(archs.len(), 16);
    for (name, text) in archs {
        let arch = nnue_spec::parse(&text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let code = nnue_codegen::generate_pretty(&arch, &nnue_codegen::Options::default());
        insta::with_settings!({ prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(name, code);
        });
    }
}
