//! Every shipped architecture parses, and its hash words are the ones real
//! Stockfish nets carry (read from the files' headers).

use std::path::{Path, PathBuf};

fn arch(name: &str) -> nnue_spec::Arch {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../archs").join(format!("{name}.ron"));
    let text = std::fs::read_to_string(&path).unwrap();
    nnue_spec::parse(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()))
}

/// Every shipped architecture file: `archs/**/*.ron` (what
/// `nnue::for_each_shipped_arch!` reads; this crate cannot depend on the
/// macro crate, which depends on it).
fn shipped() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "ron") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../archs"), &mut files);
    files.sort();
    assert!(!files.is_empty(), "no architecture files in archs/");
    files
}

#[test]
fn every_shipped_architecture_is_valid() {
    for path in shipped() {
        let text = std::fs::read_to_string(&path).unwrap();
        let arch = nnue_spec::parse(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        let name = path.file_stem().unwrap().to_str().unwrap();
        assert_eq!(arch.name, name, "{}: the file name is the architecture's name", path.display());
    }
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
/// values) and SFNNv5 (30) share every hash word; the header hashes of all
/// other shipped files with a header (not bullet's) are distinct.
#[test]
fn header_hashes_are_distinct_but_for_sfnnv4_and_sfnnv5() {
    assert_eq!(arch("sfnnv4").hashes, arch("sfnnv5").hashes);
    let mut seen: Vec<(u32, String)> = Vec::new();
    for path in shipped() {
        let arch = nnue_spec::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        if arch.is_bullet() || arch.name == "sfnnv5" {
            continue;
        }
        if let Some((_, other)) = seen.iter().find(|(hash, _)| *hash == arch.hashes.header) {
            panic!("{} and {other} share the header hash 0x{:08X}", arch.name, arch.hashes.header);
        }
        seen.push((arch.hashes.header, arch.name));
    }
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
