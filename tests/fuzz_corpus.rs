//! The fuzz corpus (`fuzz/corpus/`) replayed as regression tests on stable:
//! every committed input goes through the same function its fuzz target
//! calls (`fuzz/src/lib.rs`) and must return. `write_seeds` (ignored;
//! `cargo test --test fuzz_corpus -- --ignored`) regenerates the seed inputs.

#[path = "../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod fuzz;

mod support;

use std::path::PathBuf;

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = support::repo().join("fuzz/corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: empty corpus", dir.display());
    files.into_iter().map(|f| (f.clone(), std::fs::read(&f).unwrap())).collect()
}

#[test]
fn spec_corpus() {
    for (file, data) in corpus("spec") {
        eprintln!("{}", file.display());
        fuzz::spec(&data);
    }
}

#[test]
fn net_bytes_corpus() {
    for (_, data) in corpus("net_bytes") {
        fuzz::net_bytes(&data);
    }
}

#[test]
fn net_edits_corpus() {
    for (_, data) in corpus("net_edits") {
        fuzz::net_edits(&data);
    }
}

#[test]
fn net_edits_bullet_corpus() {
    for (_, data) in corpus("net_edits_bullet") {
        fuzz::net_edits_bullet(&data);
    }
}

#[test]
fn net_edits_threats_corpus() {
    for (_, data) in corpus("net_edits_threats") {
        fuzz::net_edits_threats(&data);
    }
}

/// The unedited bases load (the edit targets would test nothing otherwise).
#[test]
fn edit_bases_load() {
    use nnue::runtime::Isa;
    assert!(
        fuzz::sfnnv9_small::Network::from_bytes_with_isa(&fuzz::sfnnv9_small::random_net_file(1), Isa::best()).is_ok()
    );
    let threats = fuzz::threats_and_pieces::random_net_file(2);
    assert!(fuzz::threats_and_pieces::Network::from_bytes_with_isa(&threats, Isa::best()).is_ok());
    let three = fuzz::threats_pairs_and_pieces::random_net_file(4);
    assert!(fuzz::threats_pairs_and_pieces::Network::from_bytes_with_isa(&three, Isa::best()).is_ok());
    assert!(fuzz::akimbo::Network::from_bytes_with_isa(&fuzz::akimbo::random_net_file(3), Isa::best()).is_ok());
}

#[test]
fn net_edits_three_sets_corpus() {
    for (_, data) in corpus("net_edits_three_sets") {
        fuzz::net_edits_three_sets(&data);
    }
}

/// Writes the seed inputs: the shipped architecture files and every
/// compile-fail case's file (spec); the first bytes of each real net
/// (net_bytes); and edits of a generated net that truncate it, flip bits,
/// break its version, hashes, description length and LEB128 blocks
/// (net_edits), of a two-set net with raw threat weights
/// (net_edits_threats), of a three-set net with raw threat and pawn-pair
/// weights, each set's PSQT weights after them (net_edits_three_sets), and of a bullet net with an f32 tail, writing NaNs,
/// infinities and extreme weights into it (net_edits_bullet).
#[test]
#[ignore]
fn write_seeds() {
    let root = support::repo().join("fuzz/corpus");
    let write = |target: &str, name: &str, data: &[u8]| {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("seed-{name}")), data).unwrap();
    };
    for entry in std::fs::read_dir(support::repo().join("archs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ron") {
            write("spec", path.file_name().unwrap().to_str().unwrap(), &std::fs::read(&path).unwrap());
        }
    }
    let ui = support::repo().join("tests/ui");
    for group in std::fs::read_dir(&ui).unwrap() {
        let group = group.unwrap().path();
        for entry in std::fs::read_dir(&group).into_iter().flatten() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "ron") {
                let name = format!(
                    "ui-{}-{}",
                    group.file_name().unwrap().to_str().unwrap(),
                    path.file_name().unwrap().to_str().unwrap()
                );
                write("spec", &name, &std::fs::read(&path).unwrap());
            }
        }
    }
    for net in [
        "nn-82215d0fd0df",
        "nn-26abeed38351",
        "nn-13406b1dcbe0",
        "nn-6877cd24400e",
        "nn-5af11540bbfe",
        "nn-1c0000000000",
        "nn-37f18f62d772",
        "nn-c288c895ea92",
        "nn-1a298aa575a0",
    ] {
        let bytes = std::fs::read(support::net(&format!("{net}.nnue"))).unwrap();
        write("net_bytes", &format!("{net}-head"), &bytes[..4096]);
        write("net_bytes", &format!("{net}-header"), &bytes[..200]);
    }
    write("net_bytes", "empty", b"");
    // Layout of the base net: version (0), header hash (4), description length
    // (8), description (12, 17 bytes), transformer hash (29), then the first
    // LEB128 block: magic (33, 17 bytes), byte count (50), values (54).
    let len = fuzz::sfnnv9_small::random_net_file(1).len() as u32;
    let seeds: Vec<(&str, Vec<[u8; 9]>)> = vec![
        ("unchanged", vec![]),
        ("truncated-empty", vec![fuzz::edit(0, 0, 0)]),
        ("truncated-in-header", vec![fuzz::edit(0, 6, 0)]),
        ("truncated-in-description", vec![fuzz::edit(0, 20, 0)]),
        ("truncated-in-magic", vec![fuzz::edit(0, 40, 0)]),
        ("truncated-in-block", vec![fuzz::edit(0, 5000, 0)]),
        ("truncated-midway", vec![fuzz::edit(0, len / 2, 0)]),
        ("truncated-last-byte", vec![fuzz::edit(0, len - 1, 0)]),
        ("trailing-bytes", vec![fuzz::edit(5, 0, 0x0303)]),
        ("wrong-version", vec![fuzz::edit(1, 0, 1)]),
        ("wrong-header-hash", vec![fuzz::edit(1, 5, 0x80)]),
        ("huge-description", vec![fuzz::edit(2, 8, u32::MAX)]),
        ("description-past-end", vec![fuzz::edit(2, 8, len)]),
        ("wrong-transformer-hash", vec![fuzz::edit(1, 30, 4)]),
        ("broken-magic", vec![fuzz::edit(1, 35, 0x20)]),
        ("oversized-block-length", vec![fuzz::edit(2, 50, u32::MAX)]),
        ("block-too-short", vec![fuzz::edit(2, 50, 16)]),
        ("block-too-long", vec![fuzz::edit(4, 54, 0x0101_0101)]),
        ("unterminated-leb128", vec![fuzz::edit(2, 54, 0x8080_8080), fuzz::edit(2, 58, 0x8080_8080)]),
        ("flipped-bit-in-weights", vec![fuzz::edit(1, 100_000, 0x10)]),
        ("wrong-stack-hash", vec![fuzz::edit(1, len - 2000, 0xFF), fuzz::edit(1, len - 4000, 0xFF)]),
        ("byte-deleted", vec![fuzz::edit(3, 70_000, 1)]),
    ];
    for (name, edits) in seeds {
        write("net_edits", name, &edits.concat());
    }
    // The two-set net: header, transformer hash, the biases' LEB128 block
    // (magic, byte count, values), then the raw threat weights (79856 x 128
    // bytes), the piece-square weights' and the PSQT weights' LEB128 blocks,
    // the layer stacks.
    let base = fuzz::threats_and_pieces::random_net_file(2);
    let len = base.len() as u32;
    let word = |at: usize| u32::from_le_bytes(base[at..at + 4].try_into().unwrap());
    let transformer_hash = 12 + word(8);
    let biases_count = transformer_hash + 4 + 17;
    let threats = biases_count + 4 + word(biases_count as usize);
    let pieces = threats + 79_856 * 128;
    let seeds: Vec<(&str, Vec<[u8; 9]>)> = vec![
        ("unchanged", vec![]),
        ("truncated-in-biases", vec![fuzz::edit(0, biases_count + 10, 0)]),
        ("truncated-in-threats", vec![fuzz::edit(0, threats + 1_000_000, 0)]),
        ("truncated-at-piece-squares", vec![fuzz::edit(0, pieces, 0)]),
        ("truncated-last-byte", vec![fuzz::edit(0, len - 1, 0)]),
        ("trailing-bytes", vec![fuzz::edit(5, 0, 0x0303)]),
        ("wrong-transformer-hash", vec![fuzz::edit(1, transformer_hash, 4)]),
        ("threat-weight-flipped", vec![fuzz::edit(1, threats + 123_457, 0x80)]),
        ("threat-weights-extreme", (0..64).map(|i| fuzz::edit(2, threats + 64 * 5000 + 4 * i, 0x7F7F_7F7F)).collect()),
        ("byte-deleted-in-threats", vec![fuzz::edit(3, threats + 4096, 1)]),
        ("byte-inserted-in-threats", vec![fuzz::edit(4, threats + 4096, 0)]),
        ("broken-piece-square-magic", vec![fuzz::edit(1, pieces + 2, 0x20)]),
    ];
    for (name, edits) in seeds {
        write("net_edits_threats", name, &edits.concat());
    }
    // The three-set net: header, transformer hash, the biases' LEB128 block,
    // then per set its weights and its PSQT weights' LEB128 block: raw
    // threat weights (59808 x 128 bytes), raw pawn-pair weights (4560 x 128
    // bytes), LEB128 piece-square weights; then the layer stacks.
    let base = fuzz::threats_pairs_and_pieces::random_net_file(4);
    let len = base.len() as u32;
    let word = |at: u32| u32::from_le_bytes(base[at as usize..at as usize + 4].try_into().unwrap());
    let block_end = |magic: u32| {
        assert_eq!(&base[magic as usize..magic as usize + 17], b"COMPRESSED_LEB128", "a LEB128 block at {magic}");
        magic + 17 + 4 + word(magic + 17)
    };
    let transformer_hash = 12 + word(8);
    let threats = block_end(transformer_hash + 4);
    let threat_psqt = threats + 59_808 * 128;
    let pairs = block_end(threat_psqt);
    let pair_psqt = pairs + 4560 * 128;
    let pieces = block_end(pair_psqt);
    let seeds: Vec<(&str, Vec<[u8; 9]>)> = vec![
        ("unchanged", vec![]),
        ("truncated-in-threats", vec![fuzz::edit(0, threats + 1_000_000, 0)]),
        ("truncated-in-threat-psqt", vec![fuzz::edit(0, threat_psqt + 30, 0)]),
        ("truncated-in-pairs", vec![fuzz::edit(0, pairs + 4096, 0)]),
        ("truncated-at-pieces", vec![fuzz::edit(0, pieces, 0)]),
        ("truncated-last-byte", vec![fuzz::edit(0, len - 1, 0)]),
        ("wrong-transformer-hash", vec![fuzz::edit(1, transformer_hash, 4)]),
        ("broken-threat-psqt-magic", vec![fuzz::edit(1, threat_psqt + 3, 0x20)]),
        ("pair-weight-flipped", vec![fuzz::edit(1, pairs + 777, 0x80)]),
        ("pair-weights-extreme", (0..64).map(|i| fuzz::edit(2, pairs + 128 * 100 + 4 * i, 0x7F7F_7F7F)).collect()),
        ("byte-deleted-in-pairs", vec![fuzz::edit(3, pairs + 4096, 1)]),
        ("byte-inserted-in-pairs", vec![fuzz::edit(4, pairs + 4096, 0)]),
        ("broken-pair-psqt-magic", vec![fuzz::edit(1, pair_psqt + 1, 0x20)]),
        ("broken-piece-square-magic", vec![fuzz::edit(1, pieces + 2, 0x20)]),
    ];
    for (name, edits) in seeds {
        write("net_edits_three_sets", name, &edits.concat());
    }
    // The bullet net (akimbo's form): the transformer's i16 weights and
    // biases, then the f32 tail's tensors.
    let tail = (768 * 768 + 768) * 2;
    let seeds: Vec<(&str, Vec<[u8; 9]>)> = vec![
        ("unedited", vec![]),
        ("nan-weight", vec![fuzz::edit(2, tail, 0x7FC0_0000)]),
        ("infinite-bias", vec![fuzz::edit(2, tail + 1536 * 8 * 4, 0x7F80_0000)]),
        ("huge-transformer-weights", (0..8).map(|k| fuzz::edit(2, 2 * 64 * 768 * k, 0x7FFF_7FFF)).collect()),
        ("flip-bytes", (1..40).map(|k| fuzz::edit(1, 1000 * k + 7, 0x80)).collect()),
        ("truncate", vec![fuzz::edit(0, 1000, 0)]),
    ];
    for (name, edits) in seeds {
        write("net_edits_bullet", name, &edits.concat());
    }
}
