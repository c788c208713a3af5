//! Malformed Stockfish 18 big-net files (sfnnv10: FullThreats weights raw
//! i8 between LEB128 blocks, one PSQT block for both sets): each gives a
//! typed error naming the section and offset, and a net whose threat
//! weights overflow the accumulator is refused by the proof.

use crate::support::{bytes, net};
use nnue::runtime::LoadError;

use crate::archs::sfnnv10;

use sfnnv10::Network;

fn load(bytes: &[u8]) -> Result<Network, LoadError> {
    Network::from_bytes_with_isa(bytes, nnue::runtime::Isa::Scalar)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// The offsets where the transformer's sections start: biases, FullThreats
/// weights, HalfKAv2_hm weights, PSQT weights, the first layer stack.
fn sections(b: &[u8]) -> [usize; 5] {
    let biases = 12 + u32_at(b, 8) as usize + 4;
    let block = |at: usize| at + 17 + 4 + u32_at(b, at + 17) as usize;
    let threats = block(biases);
    let pieces = threats + sfnnv10::L1 * 79_856;
    let psqt = block(pieces);
    [biases, threats, pieces, psqt, block(psqt)]
}

#[test]
fn sections_and_errors_of_the_real_net() {
    let b = bytes(&net("nn-c288c895ea92.nnue"));
    let [biases, threats, pieces, psqt, stacks] = sections(&b);
    assert_eq!(
        b.len() - stacks,
        8 * (4 + (16 * 4 + 16 * 1024) + (32 * 4 + 32 * 32) + (4 + 32)),
        "the sections end where the layer stacks begin"
    );
    // Cut inside each section: a truncation naming it.
    for (cut, what) in [
        (biases + 30, "transformer biases"),
        (threats + 1000, "FullThreats weights"),
        (pieces + 10, "HalfKAv2_hm weights"),
        (psqt + 100, "transformer PSQT weights"),
        (stacks + 10, "layer stack 0"),
    ] {
        match load(&b[..cut]) {
            Err(e @ LoadError::Truncated { .. }) => assert!(e.to_string().contains(what), "cut at {cut}: {e}"),
            other => panic!("cut at {cut} ({what}): {:?}", other.err()),
        }
    }
    // A broken LEB128 magic after the raw threat weights names its block.
    let mut broken = b.clone();
    broken[pieces] ^= 0x20;
    match load(&broken) {
        Err(LoadError::Leb128Magic { what, offset }) => {
            assert_eq!((what.as_str(), offset), ("HalfKAv2_hm weights", pieces))
        }
        other => panic!("{:?}", other.err()),
    }
    // Lane 0's bias at 20,000 (it is -10): every lane still provably fits
    // i16. With every threat weight of lane 0 at 127 too, positions do
    // overflow it (a search over legal boards found one whose threats and
    // pieces add 20,325 in lane 0), and the proof says so. Threat weights
    // of 127 alone do not overflow it: bounded square by square they
    // seemed to (32 pieces with 8 attacks each), priced they fit.
    let with_bias = |bias: i16| {
        let mut r = nnue::runtime::NetReader::new(&b[biases..threats], "biases");
        let mut values = vec![0i16; sfnnv10::L1];
        r.ints("biases", nnue::runtime::Encoding::Leb128, 1, &mut values).expect("the biases");
        values[0] = bias;
        let mut w = nnue::runtime::NetWriter::new();
        w.ints(nnue::runtime::Encoding::Leb128, &values);
        [&b[..biases], &w.finish()[..], &b[threats..]].concat()
    };
    let biased = with_bias(20_000);
    assert!(load(&biased).is_ok(), "a bias of 20,000 in lane 0 fits");
    // `bytes` with every threat weight of lane 0, from offset `threats`, at 127.
    let lane_0_at_127 = |bytes: &[u8], threats: usize| {
        let mut out = bytes.to_vec();
        for feature in 0..79_856 {
            out[threats + feature * sfnnv10::L1] = 127;
        }
        out
    };
    let strong = lane_0_at_127(&biased, threats + biased.len() - b.len());
    match load(&strong) {
        Err(e @ LoadError::Overflow { .. }) => {
            assert!(e.to_string().contains("accumulator") && e.to_string().contains("lane 0"), "{e}")
        }
        other => panic!("{:?}", other.err().map(|e| e.to_string())),
    }
    let threats_only = lane_0_at_127(&b, threats);
    assert!(load(&threats_only).is_ok(), "threat weights of 127 in lane 0 fit i16 over every legal board");
}
