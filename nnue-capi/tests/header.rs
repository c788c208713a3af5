//! `include/nnue.h` is what cbindgen makes of the crate's source with
//! `cbindgen.toml`, byte for byte. `NNUE_BLESS=1` rewrites it.

use std::path::Path;

#[test]
fn header_is_generated_from_the_source() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(dir.join("src/lib.rs"))
        .generate()
        .expect("cbindgen reads the crate")
        .write(&mut generated);
    let path = dir.join("include/nnue.h");
    if std::env::var_os("NNUE_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &generated).expect("include/nnue.h written");
        return;
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} differs from what cbindgen generates from the source; if the change is intended, run \
         `NNUE_BLESS=1 cargo test -p nnue-capi --test header` and commit the header",
        path.display()
    );
}
