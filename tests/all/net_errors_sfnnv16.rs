//! Malformed Stockfish 19 net files (sfnnv16: FullThreats and PP_3Wide
//! weights raw i8, each set's PSQT weights in a LEB128 block of their own
//! right after its weights): each gives a typed error naming the section and
//! offset.

use crate::support::{bytes, net};
use nnue::runtime::{LoadError, LoadOptions};

use crate::archs::sfnnv16;

use sfnnv16::Network;

/// A damaged net may fail the overflow proof before the check a test is
/// after: these tests load with `allow_overflow`, so that every other check
/// runs.
fn load(bytes: &[u8]) -> Result<Network, LoadError> {
    Network::from_bytes_with(bytes, LoadOptions { isa: Some(nnue::runtime::Isa::Scalar), allow_overflow: true })
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// The offsets where the transformer's sections start: biases, FullThreats
/// weights and PSQT weights, PP_3Wide weights and PSQT weights, HalfKAv2_hm
/// weights and PSQT weights, the first layer stack.
fn sections(b: &[u8]) -> [usize; 8] {
    let biases = 12 + u32_at(b, 8) as usize + 4;
    let block = |at: usize| at + 17 + 4 + u32_at(b, at + 17) as usize;
    let threats = block(biases);
    let threat_psqt = threats + sfnnv16::L1 * 59_808;
    let pairs = block(threat_psqt);
    let pair_psqt = pairs + sfnnv16::L1 * 4_560;
    let pieces = block(pair_psqt);
    let piece_psqt = block(pieces);
    [biases, threats, threat_psqt, pairs, pair_psqt, pieces, piece_psqt, block(piece_psqt)]
}

#[test]
fn sections_and_errors_of_the_real_net() {
    let b = bytes(&net("nn-1a298aa575a0.nnue"));
    let [biases, threats, threat_psqt, pairs, pair_psqt, pieces, piece_psqt, stacks] = sections(&b);
    assert_eq!(
        b.len() - stacks,
        8 * (4 + (32 * 4 + 32 * 1024) + (32 * 4 + 32 * 64) + (4 + 128)),
        "the sections end where the layer stacks begin"
    );
    assert!(load(&b).is_ok());
    // Cut inside each section: a truncation naming it.
    for (cut, what) in [
        (biases + 30, "transformer biases"),
        (threats + 1000, "FullThreats weights"),
        (threat_psqt + 100, "FullThreats PSQT weights"),
        (pairs + 1000, "PP_3Wide weights"),
        (pair_psqt + 100, "PP_3Wide PSQT weights"),
        (pieces + 10, "HalfKAv2_hm weights"),
        (piece_psqt + 100, "HalfKAv2_hm PSQT weights"),
        (stacks + 10, "layer stack 0"),
    ] {
        match load(&b[..cut]) {
            Err(e @ LoadError::Truncated { .. }) => assert!(e.to_string().contains(what), "cut at {cut}: {e}"),
            other => panic!("cut at {cut} ({what}): {:?}", other.err()),
        }
    }
    // A broken LEB128 magic after each raw block names the block that follows.
    for (at, what) in [(threat_psqt, "FullThreats PSQT weights"), (pieces, "HalfKAv2_hm weights")] {
        let mut broken = b.clone();
        broken[at] ^= 0x20;
        match load(&broken) {
            Err(LoadError::Leb128Magic { what: named, offset }) => assert_eq!((named.as_str(), offset), (what, at)),
            other => panic!("{:?}", other.err()),
        }
    }
    // A byte gone from the pair weights: their fixed-size block ends one
    // byte into the PSQT block, where the magic is then looked for.
    let mut short = b.clone();
    short.remove(pairs + 5);
    match load(&short) {
        Err(LoadError::Leb128Magic { what, offset }) => {
            assert_eq!((what.as_str(), offset), ("PP_3Wide PSQT weights", pair_psqt))
        }
        other => panic!("{:?}", other.err()),
    }
}
