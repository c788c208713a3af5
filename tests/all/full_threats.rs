//! Stockfish 18's threat inputs against Stockfish: for every row of the
//! sf_18 reference of its big net (nn-c288c895ea92), both perspectives' PSQT
//! accumulators, the threat part (`threatacc_*`: the FullThreats features'
//! PSQT rows) and the whole (`psqtacc_*`: threat plus HalfKAv2_hm PSQT rows),
//! all 8 buckets.

use crate::support::{Reference, board, net};
use nnue::runtime::features::{BoardFeatures, FullThreats, HalfKAv2Hm, STOCKFISH_18_TARGETS};
use nnue::runtime::params::ThreatTransformer;
use nnue::runtime::{FeatureList, FeatureSet, NetReader, Position};

/// Lanes per perspective of the big net.
const L1: usize = 1024;
/// PSQT buckets.
const BUCKETS: usize = 8;
/// Stockfish 18's FullThreats.
type Threats = FullThreats<STOCKFISH_18_TARGETS>;
/// Its hash word.
const THREATS_HASH: u32 = 0x8F23_4CB8;

/// The big net's transformer, read from its file.
fn transformer() -> ThreatTransformer<L1, BUCKETS> {
    let bytes = std::fs::read(net("nn-c288c895ea92.nnue")).expect("the net is readable");
    let mut r = NetReader::new(&bytes, "sf_18 big net");
    r.header().expect("a header");
    r.expect_hash("the transformer hash", THREATS_HASH ^ (2 * L1 as u32)).expect("FullThreats' transformer hash");
    let transformer =
        ThreatTransformer::read(&mut r, Threats::DIMENSIONS, HalfKAv2Hm::DIMENSIONS).expect("the transformer");
    // What follows is exactly the 8 layer stacks: a hash word, fc_0 (16 i32
    // biases, 16 x 1024 i8), fc_1 (32 i32, 32 x 32 i8), fc_2 (1 i32, 32 i8).
    let stack = 4 + (16 * 4 + 16 * L1) + (32 * 4 + 32 * 32) + (4 + 32);
    assert_eq!(bytes.len() - r.offset(), 8 * stack, "the transformer ends at offset {}", r.offset());
    transformer
}

/// The reference's 8 bucket values of column family `name`.
fn columns(row: &std::collections::HashMap<String, String>, name: &str) -> [i32; BUCKETS] {
    std::array::from_fn(|b| {
        let column = format!("{name}_{b}");
        row[&column].parse().unwrap_or_else(|e| panic!("{column}: {e}"))
    })
}

#[test]
fn threat_and_total_psqt_accumulators_match_stockfish_18() {
    let t = transformer();
    let reference = Reference::read("sf_18/nn-c288c895ea92.tsv");
    assert_eq!(reference.rows.len(), 1237, "{}", reference.path.display());
    let (mut threat_rows, mut total_rows) = (0, 0);
    let mut failures = Vec::new();
    for row in &reference.rows {
        let fen = &row["fen"];
        let pos = board(fen);
        let stm = pos.side_to_move();
        let mut threat_ok = true;
        let mut total_ok = true;
        for (side, perspective) in [("stm", stm), ("nstm", stm.flip())] {
            let mut threats = Vec::with_capacity(Threats::MAX_ACTIVE);
            Threats::for_each_active(&pos, perspective, |f| threats.push(f));
            assert!(threats.len() <= Threats::MAX_ACTIVE, "{fen}: {} threat features", threats.len());
            let threat = t.threat_psqt(threats);
            let mut pieces = FeatureList::default();
            HalfKAv2Hm::active_features(&pos, perspective, &mut pieces);
            let piece_square = t.psqt(pieces.as_slice().iter().map(|&f| f as usize));
            let total: [i32; BUCKETS] = std::array::from_fn(|b| threat[b].wrapping_add(piece_square[b]));
            let expected_threat = columns(row, &format!("threatacc_{side}"));
            let expected_total = columns(row, &format!("psqtacc_{side}"));
            if threat != expected_threat {
                threat_ok = false;
                failures.push(format!(
                    "{fen} {side} ({perspective:?}) threat: ours {threat:?}, Stockfish {expected_threat:?}"
                ));
            }
            if total != expected_total {
                total_ok = false;
                failures.push(format!(
                    "{fen} {side} ({perspective:?}) total: ours {total:?}, Stockfish {expected_total:?}"
                ));
            }
        }
        threat_rows += usize::from(threat_ok);
        total_rows += usize::from(total_ok);
    }
    eprintln!(
        "{threat_rows}/{} rows match threatacc, {total_rows}/{} match psqtacc",
        reference.rows.len(),
        reference.rows.len()
    );
    assert!(
        failures.is_empty(),
        "{} mismatches, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}
