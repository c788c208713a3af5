//! Malformed net files: each gives a typed error naming what was read and the
//! offset, never a panic.

use crate::support::{bytes, net};
use nnue::runtime::LoadError;

use crate::archs::{sfnnv1, sfnnv9_small};

use sfnnv9_small::Network as Small;

fn small() -> Vec<u8> {
    bytes(&net("nn-37f18f62d772.nnue"))
}

fn load(bytes: &[u8]) -> Result<Small, LoadError> {
    Small::from_bytes_with_isa(bytes, nnue::runtime::Isa::Scalar)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// Offset of the transformer hash (after version, hash, length, description).
fn transformer_at(b: &[u8]) -> usize {
    12 + u32_at(b, 8) as usize
}

/// Bytes of one small-net layer stack: hash, fc_0 (16 x 128), fc_1 (32 x 32),
/// fc_2 (1 x 32), each with i32 biases.
const STACK: usize = 4 + (16 * 4 + 16 * 128) + (32 * 4 + 32 * 32) + (4 + 32);

#[test]
fn the_real_net_loads() {
    let net = load(&small()).unwrap();
    assert!(net.description().contains("nnue-pytorch") || !net.description().is_empty());
}

#[test]
fn wrong_version() {
    let mut b = small();
    b[0] ^= 0xFF;
    match load(&b) {
        Err(LoadError::Version { found, expected: 0x7AF3_2F20 }) => assert_eq!(found, 0x7AF3_2FDF),
        other => panic!("{:?}", other.err()),
    }
}

#[test]
fn wrong_hashes_name_their_section_and_offset() {
    let base = small();
    let t = transformer_at(&base);
    let stack5 = base.len() - 3 * STACK;
    for (at, what) in [(4, "the header hash"), (t, "the transformer hash"), (stack5, "layer stack 5 hash")] {
        let mut b = base.clone();
        b[at] ^= 0x10;
        match load(&b) {
            Err(LoadError::Hash { what: w, offset, .. }) => {
                assert_eq!((w.as_str(), offset), (what, at));
            }
            other => panic!("{what}: {:?}", other.err()),
        }
    }
    let mut b = base.clone();
    b[t] ^= 0x10;
    let message = load(&b).err().unwrap().to_string();
    assert_eq!(
        message,
        format!(
            "the transformer hash at offset {t} is 0x7F234DA8, but architecture `sfnnv9-small` expects 0x7F234DB8 (a net of another architecture?)"
        )
    );
}

nnue::nnue!(include "tests/piece_square/king_buckets.ron");

/// A Stockfish-format `PieceSquare` set written without `hash:` (its word is
/// then 0): a net whose set has a word fails the header hash, and the error
/// names the field and the word, computed from the transformer's hash word
/// (`word ^ 2 * L1`). Issue 55: "the header hash at offset 4 is 0x0C1035AE,
/// but architecture `sf19lite` expects 0x63337916" named neither.
#[test]
fn a_feature_set_without_its_hash_word_names_the_word() {
    let word = 0x6F23_4CB8u32;
    // `king_buckets.ron`'s random net with the set's word mixed into the
    // header and the transformer's words, as a net of the same shape whose
    // set has that word.
    let mut b = king_buckets::random_net_file(1);
    let t = transformer_at(&b);
    for at in [4, t] {
        let changed = u32_at(&b, at) ^ word;
        b[at..at + 4].copy_from_slice(&changed.to_le_bytes());
    }
    assert_eq!(king_buckets::TRANSFORMER_HASH, 2 * 128, "no hash word: 2 * L1 alone");
    let error = king_buckets::Network::from_bytes_with_isa(&b, nnue::runtime::Isa::Scalar).err().unwrap();
    match error {
        LoadError::FeatureSetHash {
            offset: 4, set_hash, dimensions, transformer_offset, transformer_found, ..
        } => {
            assert_eq!((set_hash, dimensions, transformer_offset, transformer_found), (word, 128, t, word ^ 256));
        }
        ref other => panic!("{other}"),
    }
    assert_eq!(
        error.to_string(),
        format!(
            "the header hash at offset 4 is 0x{:08X}, but architecture `king_buckets` expects 0x{:08X}: the net's feature set has hash word 0x6F234CB8 (its transformer hash word at offset {t}, 0x6F234DB8, is 0x6F234CB8 ^ 2 * 128, L1 being 128), but the architecture's feature set has none: add `hash: 0x6F234CB8` to the feature set",
            king_buckets::HEADER_HASH ^ word,
            king_buckets::HEADER_HASH
        )
    );
    // The same from a file read in chunks.
    let path = std::env::temp_dir().join(format!("nnue-net-errors-{}.nnue", std::process::id()));
    std::fs::write(&path, &b).unwrap();
    let from_file = king_buckets::Network::from_file_with_isa(&path, nnue::runtime::Isa::Scalar).err().unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(from_file.to_string(), error.to_string());
}

#[test]
fn trailing_bytes() {
    let mut b = small();
    let len = b.len();
    b.push(0);
    match load(&b) {
        Err(LoadError::TrailingBytes { offset, extra: 1 }) => assert_eq!(offset, len),
        other => panic!("{:?}", other.err()),
    }
}

#[test]
fn description_must_be_text() {
    let mut b = small();
    b[12] = 0xFF;
    assert!(matches!(load(&b), Err(LoadError::Description { .. })));
}

#[test]
fn leb128_magic() {
    let mut b = small();
    let at = transformer_at(&b) + 4;
    b[at] = b'X';
    match load(&b) {
        Err(LoadError::Leb128Magic { what, offset }) => assert_eq!((what.as_str(), offset), ("transformer biases", at)),
        other => panic!("{:?}", other.err()),
    }
}

#[test]
fn leb128_byte_count_too_large_or_small() {
    let base = small();
    let count_at = transformer_at(&base) + 4 + 17;
    let count = u32_at(&base, count_at);
    for (delta, expect) in [(1i64, "1 bytes left over after 128 values"), (-1, "block ends after 127 of 128 values")] {
        let mut b = base.clone();
        b[count_at..count_at + 4].copy_from_slice(&((count as i64 + delta) as u32).to_le_bytes());
        match load(&b) {
            Err(LoadError::Leb128 { what, problem, .. }) => {
                assert_eq!(what, "transformer biases");
                assert!(problem.contains(expect), "{delta}: {problem}");
            }
            other => panic!("{delta}: {:?}", other.err()),
        }
    }
    let mut b = base.clone();
    b[count_at..count_at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(load(&b), Err(LoadError::Truncated { .. })), "a huge count is a truncation, not an allocation");
}

#[test]
fn leb128_value_too_long() {
    let mut b = small();
    let first = transformer_at(&b) + 4 + 17 + 4;
    b[first..first + 3].fill(0xFF);
    match load(&b) {
        Err(LoadError::Leb128 { offset, problem, .. }) => {
            assert_eq!(offset, first);
            assert!(problem.contains("value 0 is longer than 3 bytes"), "{problem}");
        }
        other => panic!("{:?}", other.err()),
    }
}

/// Truncated anywhere (every section boundary and many points between): a
/// typed error, never a panic and never success.
#[test]
fn truncated_anywhere() {
    let b = small();
    let mut cuts: Vec<usize> = (0..64).collect();
    cuts.extend((0..400).map(|i| i * b.len() / 400));
    cuts.extend((0..8).flat_map(|s| [b.len() - s * STACK, b.len() - s * STACK - 1]));
    cuts.retain(|&c| c < b.len());
    for cut in cuts {
        match load(&b[..cut]) {
            Err(LoadError::Truncated { offset, needed, len, .. }) => {
                assert_eq!(len, cut);
                assert!(offset + needed > cut, "cut {cut}");
            }
            Err(LoadError::Leb128 { .. }) => {} // a block cut short inside its byte count
            other => panic!("cut at {cut}: {:?}", other.err()),
        }
    }
}

/// Raw (uncompressed) nets too, with the layer named.
#[test]
fn truncated_raw_net_names_the_layer() {
    let b = bytes(&net("nn-82215d0fd0df.nnue"));
    match sfnnv1::Network::from_bytes_with_isa(&b[..b.len() - 10], nnue::runtime::Isa::Scalar) {
        Err(e @ LoadError::Truncated { .. }) => {
            assert_eq!(
                e.to_string(),
                format!(
                    "file ends at offset {} while reading layer stack 0 fc_2 weights (32 bytes needed at offset {})",
                    b.len() - 10,
                    b.len() - 32
                )
            );
        }
        other => panic!("{:?}", other.err()),
    }
}

/// A net of another architecture: rejected by its header hash.
#[test]
fn net_of_another_architecture() {
    let b = bytes(&net("nn-82215d0fd0df.nnue"));
    assert!(matches!(load(&b), Err(LoadError::Version { found: 0x7AF3_2F16, .. })));
    let b = small();
    match sfnnv1::Network::from_bytes_with_isa(&b, nnue::runtime::Isa::Scalar) {
        Err(LoadError::Version { .. }) => {}
        other => panic!("{:?}", other.err()),
    }
}

/// Random single-byte corruptions: loading succeeds (a changed weight) or
/// fails with an error; it never panics.
#[test]
fn random_corruptions_never_panic() {
    let base = small();
    let mut rng = nnue::runtime::Rng::new(0x2545_F491_4F6C_DD1D);
    let mut next = || rng.next_u64();
    let (mut ok, mut err) = (0, 0);
    for _ in 0..300 {
        let mut b = base.clone();
        for _ in 0..1 + next() % 3 {
            let at = (next() % b.len() as u64) as usize;
            b[at] = next() as u8;
        }
        match load(&b) {
            Ok(_) => ok += 1,
            Err(_) => err += 1,
        }
    }
    assert_eq!(ok + err, 300);
}

#[test]
fn missing_file() {
    match Small::from_file("/nonexistent/net.nnue") {
        Err(e @ LoadError::Io { .. }) => assert!(e.to_string().starts_with("cannot read /nonexistent/net.nnue")),
        other => panic!("{:?}", other.err()),
    }
}
