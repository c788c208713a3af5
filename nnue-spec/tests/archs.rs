//! Every shipped architecture parses, and its hash words are the ones real
//! Stockfish nets carry (read from the files' headers).

use std::path::Path;

fn arch(name: &str) -> nnue_spec::Arch {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../archs").join(format!("{name}.ron"));
    let text = std::fs::read_to_string(&path).unwrap();
    nnue_spec::parse(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()))
}

#[test]
fn every_shipped_architecture_is_valid() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../archs");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ron") {
            let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
            assert_eq!(arch(&name).name, name, "the file name is the architecture's name");
            count += 1;
        }
    }
    assert_eq!(count, 13);
}

/// Header hash words of the official nets (offset 4 of each file).
#[test]
fn header_hashes_match_stockfish_nets() {
    for (name, hash) in [
        ("sfnnv1", 0x3E5A_A6EE),       // nn-82215d0fd0df, Stockfish 12
        ("sfnnv2", 0x3C10_3E72),       // nn-26abeed38351, Stockfish 14
        ("sfnnv3", 0x1C10_2EEC),       // nn-13406b1dcbe0, Stockfish 14.1
        ("sfnnv4", 0x1C10_2EF2),       // nn-6877cd24400e, Stockfish 15
        ("sfnnv6", 0x1C10_2B72),       // nn-5af11540bbfe, Stockfish 16
        ("sfnnv8", 0x1C10_3072),       // the SFNNv8 stand-in, Stockfish 16.1
        ("sfnnv9", 0x1C10_20F2),       // nn-1c0000000000, Stockfish 17.1
        ("sfnnv9-small", 0x1C10_3C92), // nn-37f18f62d772, Stockfish 16.1 to 18
        ("sfnnv10", 0xEC10_2EF2),      // nn-c288c895ea92, Stockfish 18
        ("sfnnv16", 0xA85B_2205),      // nn-1a298aa575a0, Stockfish 19
        ("sf19-lite", 0x0C10_35AE),    // nn-61e7af4bb97d, Stockfish 19's lite builds
    ] {
        assert_eq!(arch(name).hashes.header, hash, "{name}: 0x{:08X}", arch(name).hashes.header);
    }
}

/// Stockfish's hash ignores layer input widths, so SFNNv4 (fc_1 reads 15
/// values) and SFNNv5 (30) share every hash word; all others are distinct.
#[test]
fn header_hashes_are_distinct_but_for_sfnnv4_and_sfnnv5() {
    assert_eq!(arch("sfnnv4").hashes, arch("sfnnv5").hashes);
    let names = ["sfnnv1", "sfnnv2", "sfnnv3", "sfnnv4", "sfnnv6", "sfnnv7", "sfnnv8", "sfnnv9", "sfnnv9-small", "sfnnv10", "sfnnv16", "sf19-lite"];
    let mut hashes: Vec<u32> = names.iter().map(|n| arch(n).hashes.header).collect();
    hashes.sort();
    hashes.dedup();
    assert_eq!(hashes.len(), names.len());
}

/// Stockfish 18's big net: the transformer's word is FullThreats' word (the
/// first set's; HalfKAv2_hm's is not mixed in) with 2 x 1024.
#[test]
fn sfnnv10_transformer_hash_is_full_threats_word() {
    let hashes = arch("sfnnv10").hashes;
    assert_eq!(hashes.transformer, 0x8F23_4CB8 ^ 2048);
    assert_eq!(hashes.transformer, 0x8F23_44B8);
}

/// Stockfish 19's net: every set's word enters the transformer's, each after
/// the running word is rotated left by one bit (FullThreats 0x2E6B9D04,
/// PP_3Wide 0x86F2B1DD, HalfKAv2_hm 0x7F234CB8), with 2 x 1024; the layer
/// stack's word leaves both squared activations out.
#[test]
fn sfnnv16_hashes() {
    let hashes = arch("sfnnv16").hashes;
    let sets = [0x2E6B_9D04u32, 0x86F2_B1DD, 0x7F23_4CB8].into_iter().fold(0u32, |w, h| w.rotate_left(1) ^ h);
    assert_eq!(hashes.transformer, sets ^ 2048);
    assert_eq!(hashes.transformer, 0xCB68_5313);
    assert_eq!(hashes.layer_stack, 0x6333_7116);
}
