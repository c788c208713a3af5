//! Bit-exactness against Stockfish: every row of every reference file of
//! SFNNv1-SFNNv16 nets (`tests/reference/`), every column our evaluation
//! produces: bucket, psqt and positional for every bucket, and the value of
//! the release's NNUE entry point (for SFNNv10 and SFNNv16 also the raw PSQT
//! accumulators); for Stockfish 19's lite net, the value its engine prints;
//! on every backend this CPU runs.

use crate::support::{self, Reference, board, net};
use nnue::runtime::{AnyNetwork, ArchEntry};

use crate::archs::{sf19_lite, sfnnv1, sfnnv2, sfnnv3, sfnnv4, sfnnv6, sfnnv8, sfnnv9, sfnnv9_small, sfnnv10, sfnnv16};
nnue::nnue!(include "tests/piece_square/sfnnv9-piece-square.ron");

/// How the reference file states the entry point's value.
enum Value {
    /// A column holding it.
    Column(&'static str),
    /// Two columns to add (psqt / 16 and positional / 16, Stockfish 17.1+).
    Sum(&'static str, &'static str),
    /// Not stated for this architecture's rule: the reference's release used
    /// another rule for the same net (the small net under Stockfish 16.1), so
    /// the value is checked as `psqt / 16 + positional / 16` of the
    /// reference's own selected-bucket columns.
    DivideThenSum,
}

/// Checks every backend this CPU runs.
fn check(file: &str, net_name: &str, entry: ArchEntry, value: Value) {
    check_loaded(file, net_name, entry, value, nnue::runtime::LoadOptions::default());
}

/// [`check`] with `options` (their backend is replaced by each in turn).
fn check_loaded(file: &str, net_name: &str, entry: ArchEntry, value: Value, options: nnue::runtime::LoadOptions) {
    let reference = Reference::read(file);
    let bytes = std::fs::read(net(net_name)).unwrap();
    for isa in support::isas() {
        let options = nnue::runtime::LoadOptions { isa: Some(isa), ..options };
        let network: Box<dyn AnyNetwork> = (entry.load)(&bytes, options).unwrap_or_else(|e| panic!("{net_name}: {e}"));
        assert_eq!(network.isa(), isa);
        if !options.allow_overflow {
            assert!(network.overflow_proof().holds(), "{file}: the net loaded, so its overflow proof holds");
        }
        check_network(&reference, file, &*network, &value);
    }
}

fn check_network(reference: &Reference, file: &str, network: &dyn AnyNetwork, value: &Value) {
    let stacks = network.arch().layer_stacks;
    assert!(reference.rows.len() > 1000, "{}: only {} rows", reference.path.display(), reference.rows.len());
    let mut mismatches = Vec::new();
    for (i, row) in reference.rows.iter().enumerate() {
        let fen = &row["fen"];
        let ours = network.evaluate_board(&board(fen));
        let int =
            |column: &str| -> i32 { row[column].parse().unwrap_or_else(|e| panic!("{file} row {i} {column}: {e}")) };
        let mut expected: Vec<(String, i32)> = Vec::new();
        let mut actual: Vec<(String, i32)> = Vec::new();
        if row.contains_key("output_raw") {
            // Stockfish 12: one stack, no PSQT; the raw output is positional_0.
            expected.extend([("bucket".into(), 0), ("psqt_0".into(), 0), ("positional_0".into(), int("output_raw"))]);
        } else {
            expected.push(("bucket".into(), int("bucket")));
            for b in 0..stacks {
                expected.push((format!("psqt_{b}"), int(&format!("psqt_{b}"))));
                expected.push((format!("positional_{b}"), int(&format!("positional_{b}"))));
            }
        }
        expected.push((
            "value".into(),
            match *value {
                Value::Column(c) => int(c),
                Value::Sum(a, b) => int(a) + int(b),
                Value::DivideThenSum => {
                    let b = int("bucket");
                    int(&format!("psqt_{b}")) / 16 + int(&format!("positional_{b}")) / 16
                }
            },
        ));
        actual.push(("bucket".into(), ours.bucket as i32));
        for b in 0..stacks {
            actual.push((format!("psqt_{b}"), ours.psqt[b]));
            actual.push((format!("positional_{b}"), ours.positional[b]));
        }
        actual.push(("value".into(), ours.value));
        // The overflow proof's bounds hold on every real position.
        let proof = network.overflow_proof();
        let bound = |name: &str| {
            proof.bounds().iter().find(|b| b.value == name).unwrap_or_else(|| panic!("no `{name}` bound")).range
        };
        for (name, v) in [("stack output", ours.positional[ours.bucket]), ("evaluation", ours.value)] {
            let range = bound(name);
            assert!(
                (range.min..=range.max).contains(&i64::from(v)),
                "{file} row {i}: {name} {v} outside the proven {range}"
            );
        }
        for (column, want) in &expected {
            let got = actual.iter().find(|(c, _)| c == column).map(|(_, v)| *v);
            if got != Some(*want) {
                mismatches.push(format!("row {i} `{fen}` {column}: ours {got:?}, Stockfish {want}"));
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{file} ({}): {} mismatches, first: {:#?}",
        network.isa(),
        mismatches.len(),
        &mismatches[..mismatches.len().min(5)]
    );
}

#[test]
fn sf_12_sfnnv1() {
    check("sf_12/nn-82215d0fd0df.tsv", "nn-82215d0fd0df.nnue", sfnnv1::ENTRY, Value::Column("nnue_value"));
}

#[test]
fn sf_14_sfnnv2() {
    check("sf_14/nn-26abeed38351.tsv", "nn-26abeed38351.nnue", sfnnv2::ENTRY, Value::Column("nnue_plain"));
}

#[test]
fn sf_14_1_sfnnv3() {
    check("sf_14.1/nn-13406b1dcbe0.tsv", "nn-13406b1dcbe0.nnue", sfnnv3::ENTRY, Value::Column("nnue_plain"));
}

#[test]
fn sf_15_sfnnv4() {
    check("sf_15/nn-6877cd24400e.tsv", "nn-6877cd24400e.nnue", sfnnv4::ENTRY, Value::Column("nnue_plain"));
}

#[test]
fn sf_16_sfnnv6() {
    check("sf_16/nn-5af11540bbfe.tsv", "nn-5af11540bbfe.nnue", sfnnv6::ENTRY, Value::Column("nnue_plain"));
}

#[test]
fn sf_16_1_sfnnv8_standin() {
    check("sf_16.1/standin-l2560.tsv", "sfnnv8-standin-l2560.nnue", sfnnv8::ENTRY, Value::Column("nnue_plain"));
}

#[test]
fn sf_16_1_small_net() {
    check("sf_16.1/nn-37f18f62d772.tsv", "nn-37f18f62d772.nnue", sfnnv9_small::ENTRY, Value::DivideThenSum);
}

#[test]
fn sf_17_1_sfnnv9() {
    check(
        "sf_17.1/nn-1c0000000000.tsv",
        "nn-1c0000000000.nnue",
        sfnnv9::ENTRY,
        Value::Sum("nnue_psqt_div16", "nnue_positional_div16"),
    );
}

#[test]
fn sf_17_1_small_net() {
    check(
        "sf_17.1/nn-37f18f62d772.tsv",
        "nn-37f18f62d772.nnue",
        sfnnv9_small::ENTRY,
        Value::Sum("nnue_psqt_div16", "nnue_positional_div16"),
    );
}

#[test]
fn sf_18_small_net() {
    check(
        "sf_18/nn-37f18f62d772.tsv",
        "nn-37f18f62d772.nnue",
        sfnnv9_small::ENTRY,
        Value::Sum("nnue_psqt_div16", "nnue_positional_div16"),
    );
}

/// Stockfish 18's big net, FullThreats + HalfKAv2_hm: every column, the
/// threat part of the PSQT accumulators included (in `psqt_*`), on every
/// backend; the net loads only if its overflow proof holds.
#[test]
fn sf_18_sfnnv10() {
    check(
        "sf_18/nn-c288c895ea92.tsv",
        "nn-c288c895ea92.nnue",
        sfnnv10::ENTRY,
        Value::Sum("nnue_psqt_div16", "nnue_positional_div16"),
    );
}

/// HalfKAv2_hm is an instance of the PieceSquare vocabulary: Stockfish
/// 17.1's net through `sfnnv9.ron` with the feature set written out as a
/// layout (same hash words) gives every reference row.
#[test]
fn sf_17_1_through_a_piece_square_layout() {
    assert_eq!(sfnnv9_piece_square::HEADER_HASH, sfnnv9::HEADER_HASH);
    check(
        "sf_17.1/nn-1c0000000000.tsv",
        "nn-1c0000000000.nnue",
        sfnnv9_piece_square::ENTRY,
        Value::Sum("nnue_psqt_div16", "nnue_positional_div16"),
    );
}

/// Stockfish 18's big net: both perspectives' raw PSQT accumulators (the
/// `psqtacc_*` columns: HalfKAv2_hm's PSQT rows plus the threat part in
/// `threatacc_*`) equal our accumulator's, which sums both sets, on every
/// backend.
#[test]
fn sf_18_sfnnv10_psqt_accumulators() {
    psqt_accumulators!(
        sfnnv10,
        "sf_18/nn-c288c895ea92.tsv",
        "nn-c288c895ea92.nnue",
        nnue::runtime::LoadOptions::default()
    );
}

/// Stockfish 19's net (Stockfish master of 2026-08-03), FullThreats with
/// Stockfish 19's targets + PP_3Wide + HalfKAv2_hm: every column, on every
/// backend. Its overflow proof holds, though only once pawn pairs come with
/// their pawns and, in some lanes and king views, each threat's attacked
/// piece is priced (`overflow::pairwise`): its threat rows reach +-127 in
/// thousands of rows of a lane, and bounded square by square the lanes leave
/// i16 by half as much again.
#[test]
fn sf_head_sfnnv16() {
    let bytes = std::fs::read(net("nn-1a298aa575a0.nnue")).unwrap();
    let loaded = sfnnv16::Network::from_bytes(&bytes).expect("the proof holds");
    let accumulator =
        loaded.overflow_proof().bounds().iter().find(|b| b.value == "transformer accumulator").expect("bounded");
    assert!(accumulator.holds(), "{accumulator:?}");
    check_loaded(
        "sf_head/nn-1a298aa575a0.tsv",
        "nn-1a298aa575a0.nnue",
        sfnnv16::ENTRY,
        Value::Column("nnue_sum"),
        nnue::runtime::LoadOptions::default(),
    );
}

/// Stockfish 19's net: the raw PSQT accumulators of both perspectives, on
/// every backend.
#[test]
fn sf_head_sfnnv16_psqt_accumulators() {
    psqt_accumulators!(
        sfnnv16,
        "sf_head/nn-1a298aa575a0.tsv",
        "nn-1a298aa575a0.nnue",
        nnue::runtime::LoadOptions::default()
    );
}

/// Stockfish 19's lite net (nn-61e7af4bb97d: P_hm, 768 king-side-mirrored
/// piece-square inputs, then Stockfish 19's layer stack), against the value
/// its own engine prints: the npm package's lite WebAssembly build's `eval`,
/// "NNUE evaluation ... (side to move, internal units)", which is
/// `psqt / 16 + positional / 16` of the selected bucket (our `value`). Every
/// row not in check (the engine prints no value in check), on every backend.
#[test]
fn sf_19_lite() {
    let file = "sf_19-lite/nn-61e7af4bb97d.tsv";
    let reference = Reference::read(file);
    let bytes = std::fs::read(net("nn-61e7af4bb97d.nnue")).unwrap();
    let in_check = reference.rows.iter().filter(|row| row["in_check"] == "1").count();
    assert!(
        reference.rows.len() - in_check > 1000,
        "{file}: only {} rows out of check",
        reference.rows.len() - in_check
    );
    for isa in support::isas() {
        let network = sf19_lite::Network::from_bytes_with(&bytes, nnue::runtime::LoadOptions::isa(isa)).unwrap();
        assert_eq!(network.isa(), isa);
        assert!(network.overflow_proof().holds(), "{file}: the net loaded, so its overflow proof holds");
        let (mut matched, mut mismatches) = (0, Vec::new());
        for (i, row) in reference.rows.iter().enumerate() {
            let fen = &row["fen"];
            if row["in_check"] == "1" {
                assert_eq!(row["nnue_eval"], "-", "{file} row {i}: a value in check");
                continue;
            }
            let want: i32 = row["nnue_eval"].parse().unwrap_or_else(|e| panic!("{file} row {i}: {e}"));
            let ours = network.evaluate(&board(fen));
            let divided = ours.psqt / 16 + ours.positional / 16;
            assert_eq!(ours.value, divided, "row {i} `{fen}`: value is psqt / 16 + positional / 16");
            match ours.value == want {
                true => matched += 1,
                false => mismatches.push(format!("row {i} `{fen}`: ours {}, the engine {want}", ours.value)),
            }
        }
        assert!(
            mismatches.is_empty(),
            "{file} ({isa}): {} mismatches, first: {:#?}",
            mismatches.len(),
            &mismatches[..mismatches.len().min(5)]
        );
        eprintln!("{file} ({isa}): {matched} rows equal ({in_check} in check not compared)");
    }
}

/// Checks the `psqtacc_stm_*` and `psqtacc_nstm_*` columns of `$file`
/// against the accumulator of `$arch`'s network on `$net`, on every backend.
macro_rules! psqt_accumulators {
    ($arch:ident, $file:expr, $net:expr, $options:expr) => {{
        use nnue::runtime::Position as _;
        let reference = Reference::read($file);
        let bytes = std::fs::read(net($net)).unwrap();
        for isa in support::isas() {
            let options = nnue::runtime::LoadOptions { isa: Some(isa), ..$options };
            let network = $arch::Network::from_bytes_with(&bytes, options).unwrap();
            let mut accumulator = Box::new($arch::Accumulator::default());
            let mut mismatches = 0;
            for row in &reference.rows {
                let pos = board(&row["fen"]);
                network.refresh(&pos, &mut accumulator);
                let stm = pos.side_to_move();
                for (side, perspective) in [("stm", stm), ("nstm", stm.flip())] {
                    let expected: Vec<i32> =
                        (0..8).map(|b| row[&format!("psqtacc_{side}_{b}")].parse().unwrap()).collect();
                    if accumulator.psqt[perspective.index()][..] != expected[..] {
                        mismatches += 1;
                        eprintln!(
                            "{} {side}: ours {:?}, Stockfish {expected:?}",
                            row["fen"],
                            accumulator.psqt[perspective.index()]
                        );
                    }
                }
            }
            assert_eq!(mismatches, 0, "{isa}: {mismatches} of {} perspectives differ", 2 * reference.rows.len());
        }
    }};
}
use psqt_accumulators;
