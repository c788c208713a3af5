//! `cargo bench --bench expansion`: what `nnue!` costs at compile time, per
//! shipped architecture (`nnue::for_each_shipped_arch!`): parsing and
//! checking the RON file, and generating the module (the macro's whole work
//! besides reading the file).

use criterion::{Criterion, criterion_group, criterion_main};

/// The shipped architectures: (file under `archs/` without `.ron`, text).
macro_rules! shipped {
    ($($module:ident { file: $file:literal, source: $source:literal, $($rest:tt)* }),* $(,)?) => {
        const SHIPPED: &[(&str, &str)] = &[$(($file, $source)),*];
    };
}

nnue::for_each_shipped_arch!(shipped);

fn expansion(c: &mut Criterion) {
    for &(file, text) in SHIPPED {
        let name = file.trim_end_matches(".ron");
        let options = nnue_codegen::Options::default();
        let tokens = nnue_codegen::generate(&nnue_spec::parse(text).unwrap(), &options).to_string();
        println!("{name}: {} bytes of tokens", tokens.len());
        c.bench_function(&format!("expand/{name}"), |b| {
            b.iter(|| nnue_codegen::generate(&nnue_spec::parse(text).unwrap(), &options))
        });
    }
}

criterion_group!(benches, expansion);
criterion_main!(benches);
