//! `cargo bench --bench expansion`: what `nnue!` costs at compile time, per
//! shipped architecture: parsing and checking the RON file, and generating
//! the module (the macro's whole work besides reading the file).

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::Path;

fn expansion(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("archs");
    for name in ["sfnnv1", "sfnnv9", "sfnnv9-small", "sfnnv10", "sfnnv16"] {
        let text = std::fs::read_to_string(dir.join(format!("{name}.ron"))).unwrap();
        let options = nnue_codegen::Options::default();
        let tokens = nnue_codegen::generate(&nnue_spec::parse(&text).unwrap(), &options).to_string();
        println!("{name}: {} bytes of tokens", tokens.len());
        c.bench_function(&format!("expand/{name}"), |b| {
            b.iter(|| nnue_codegen::generate(&nnue_spec::parse(&text).unwrap(), &options))
        });
    }
}

criterion_group!(benches, expansion);
criterion_main!(benches);
