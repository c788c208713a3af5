//! The `capi` fuzz target's corpus (`fuzz/corpus/capi/`) replayed on
//! stable: every committed input goes through the function the target
//! calls (`fuzz/src/capi.rs`) and must return. `write_seeds` (ignored;
//! `cargo test -p nnue-capi --test fuzz_corpus -- --ignored`) writes the
//! seed inputs.

#[path = "../../fuzz/src/capi.rs"]
mod capi;

use std::path::PathBuf;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/capi")
}

#[test]
fn capi_corpus() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus())
        .unwrap_or_else(|e| panic!("{}: {e}", corpus().display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: empty corpus", corpus().display());
    for file in files {
        capi::capi(&std::fs::read(&file).unwrap());
    }
}

/// Writes the seed inputs: on each net, the start position and 1. e4
/// evaluated, moves of the board's pieces made and unmade, a bare-kings
/// reset, bad resets and pushes, buffers too short, and loads.
#[test]
#[ignore]
fn write_seeds() {
    let dir = corpus();
    std::fs::create_dir_all(&dir).unwrap();
    // Operations (see fuzz/src/capi.rs): 0 reset to bytes, 1 reset to the
    // start, 2 push bytes, 3 push a board move, 4 pop, 5 evaluate, 6 every
    // bucket, 7 ply, 8 load.
    let e4 = [2, 1, 0, 12, 28];
    let seeds: Vec<(&str, Vec<u8>)> = vec![
        ("e4", [&[1u8][..], &e4, &[5, 1, 6, 8, 1, 4, 5, 0, 7]].concat()),
        ("board-moves", vec![1, 3, 9, 28, 0, 5, 1, 3, 50, 36, 0, 5, 0, 3, 3, 200, 1, 6, 8, 0, 4, 4, 5, 0]),
        ("king-moves", vec![1, 3, 4, 12, 0, 2, 1, 5, 4, 12, 5, 0, 3, 30, 20, 0, 5, 1, 4, 4, 5, 0]),
        ("promotion", vec![0, 4, 60, 2, 48, 0, 52, 6, 3, 1, 56, 3, 5, 0, 4, 5, 1]),
        ("bare-kings", vec![0, 4, 60, 0, 5, 0, 6, 8, 1]),
        ("bad-reset", vec![0, 4, 4, 2, 65, 12, 70, 0, 5, 0, 4, 7]),
        ("bad-push", vec![1, 2, 4, 0, 12, 28, 0, 12, 28, 0, 12, 28, 0, 12, 28, 2, 1, 12, 64, 64, 2, 1, 0, 65, 1]),
        ("short-buffer", vec![1, 6, 3, 0, 6, 8, 2, 5, 2]),
        ("before-reset", vec![2, 1, 0, 12, 28, 4, 5, 0, 6, 8, 0, 7]),
        ("load-by-header", vec![8, 4, 0x20, 0x2F, 0xF3, 0x7A, 0x92, 0x3C, 0x10, 0x1C, 0, 0, 0, 0]),
        ("load-named", vec![8, 1, 1, 2, 3, 4]),
    ];
    // A long line of board moves, evaluated on the way, with pops: inputs
    // this long let the fuzzer's length limit grow to deep lines.
    let mut state = 0x9E37_79B9_u32;
    let mut byte = || {
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (state >> 24) as u8
    };
    let mut long = vec![1];
    for i in 0..80 {
        long.extend([3, byte(), byte(), byte(), 5, byte() % 2]);
        if i % 7 == 6 {
            long.extend([4, 6, 8, 0]);
        }
    }
    let seeds = [seeds, vec![("long-walk", long)]].concat();
    for net in 0..3u8 {
        for (name, ops) in &seeds {
            let mut data = vec![net];
            data.extend(ops);
            std::fs::write(dir.join(format!("seed-net{net}-{name}")), data).unwrap();
        }
    }
}
