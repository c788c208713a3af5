//! The generated code of every shipped architecture, formatted, as insta
//! snapshots (`tests/snapshots/`): a reviewer sees exactly what a generator
//! change does. `snapshots_compile` checks that the snapshots compile.

/// Every shipped architecture (`nnue::for_each_shipped_arch!`): its
/// snapshot's name (the file under `archs/` without `.ron`, `/` as `-`:
/// `sfnnv9`, `bullet-obsidian`) and its text.
macro_rules! shipped {
    ($($module:ident { file: $file:literal, source: $source:literal, network: $network:tt, plain: $plain:tt }),* $(,)?) => {
        /// The shipped architectures, as (snapshot name, text).
        fn archs() -> Vec<(String, &'static str)> {
            vec![$(($file.trim_end_matches(".ron").replace('/', "-"), $source)),*]
        }
    };
}

nnue::for_each_shipped_arch!(shipped);

#[test]
fn generated_code() {
    let archs = archs();
    let mut names: Vec<String> = archs.iter().map(|(name, _)| name.clone()).collect();
    for (name, text) in archs {
        let arch = nnue_spec::parse(text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let code = nnue_codegen::generate_pretty(&arch, &nnue_codegen::Options::default());
        insta::with_settings!({ prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(name, code);
        });
    }
    // No snapshot is left of a file no longer shipped.
    let snapshots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let mut committed: Vec<String> = std::fs::read_dir(&snapshots)
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().into_string().ok()?.strip_suffix(".snap").map(str::to_owned))
        .collect();
    committed.sort();
    names.sort();
    assert_eq!(committed, names, "tests/snapshots/ holds one snapshot per shipped architecture");
}
