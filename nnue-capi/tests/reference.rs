//! Bit-exactness through the C API: Stockfish 18's two nets on every row of
//! `tests/reference/sf_18/`, every column the C API gives (the bucket, psqt
//! and positional of every bucket, and the value of Stockfish 18's NNUE
//! entry point), each position reset on one stack (its refresh cache
//! carried from row to row), on every backend this CPU runs.

mod common;

use common::{NetRef, chess, last_error, pieces, real_net, side, support};
use nnue_capi::NNUE_OK;

fn check(file: &str, net_name: &str, arch: &str, test: &str) {
    let Some(path) = real_net(net_name, test) else { return };
    let reference = support::Reference::read(file);
    assert!(reference.rows.len() > 1000, "{}: only {} rows", reference.path.display(), reference.rows.len());
    for isa in support::isas() {
        let net = NetRef::from_file(&path, None, Some(isa.name()), 0)
            .unwrap_or_else(|code| panic!("{net_name} on {isa}: code {code}: {}", last_error()));
        assert_eq!((net.arch().as_str(), net.isa().as_str()), (arch, isa.name()));
        let buckets = net.buckets();
        let mut stack = net.stack();
        let mut mismatches = Vec::new();
        for (i, row) in reference.rows.iter().enumerate() {
            let int = |column: &str| -> i32 { row[column].parse().unwrap_or_else(|e| panic!("row {i} {column}: {e}")) };
            let pos = chess(&row["fen"]);
            assert_eq!(stack.reset(&pieces(&pos)), NNUE_OK, "row {i}: {}", last_error());
            let eval = stack.evaluate(side(&pos)).unwrap();
            let all = stack.evaluate_buckets(side(&pos), buckets).unwrap();
            let mut expected = vec![
                ("bucket".to_owned(), int("bucket")),
                ("value".to_owned(), int("nnue_psqt_div16") + int("nnue_positional_div16")),
            ];
            let mut actual = vec![("bucket".to_owned(), eval.bucket), ("value".to_owned(), eval.value)];
            for (b, e) in all.iter().enumerate() {
                assert_eq!(e.bucket, b as i32);
                expected.push((format!("psqt_{b}"), int(&format!("psqt_{b}"))));
                expected.push((format!("positional_{b}"), int(&format!("positional_{b}"))));
                actual.push((format!("psqt_{b}"), e.psqt));
                actual.push((format!("positional_{b}"), e.positional));
            }
            assert_eq!(all[eval.bucket as usize], eval, "row {i}: the selected bucket's entry is the evaluation");
            for ((column, want), (_, got)) in expected.iter().zip(&actual) {
                if want != got {
                    mismatches.push(format!("row {i} `{}` {column}: C API {got}, Stockfish {want}", row["fen"]));
                }
            }
        }
        assert!(
            mismatches.is_empty(),
            "{file} ({isa}): {} mismatches, first: {:#?}",
            mismatches.len(),
            &mismatches[..mismatches.len().min(5)]
        );
    }
}

#[test]
fn sf_18_small_net() {
    check("sf_18/nn-37f18f62d772.tsv", "nn-37f18f62d772.nnue", "sfnnv9-small", "sf_18_small_net");
}

/// SFNNv10: threat inputs, whose accumulators depend on the whole board.
#[test]
fn sf_18_big_net() {
    check("sf_18/nn-c288c895ea92.tsv", "nn-c288c895ea92.nnue", "sfnnv10", "sf_18_big_net");
}

/// Stormphrax's architecture found by the CBNF header of its file (no name
/// given), on the net generated in its format: the engine's own outputs on
/// the first rows of its reference, on every backend; a header of no
/// shipped architecture is `NNUE_ERROR_UNKNOWN_ARCH` naming the field.
#[test]
fn stormphrax_by_its_cbnf_header() {
    let Some(path) = real_net("stormphrax-generated.nnue", "stormphrax_by_its_cbnf_header") else { return };
    let text = std::fs::read_to_string(support::reference_dir().join("bullet/stormphrax-generated.tsv")).unwrap();
    for isa in support::isas() {
        let net = NetRef::from_file(&path, None, Some(isa.name()), 0)
            .unwrap_or_else(|code| panic!("stormphrax on {isa}: code {code}: {}", last_error()));
        assert_eq!(net.arch(), "stormphrax");
        let mut stack = net.stack();
        for row in text.lines().take(100) {
            let (fen, want) = row.split_once('\t').unwrap();
            let pos = chess(fen);
            assert_eq!(stack.reset(&pieces(&pos)), NNUE_OK, "{fen}: {}", last_error());
            assert_eq!(stack.evaluate(side(&pos)).unwrap().value, want.parse::<i32>().unwrap(), "{fen} on {isa}");
        }
    }
    let mut head = std::fs::read(&path).unwrap()[..64].to_vec();
    head[14] = 16;
    let bad = std::env::temp_dir().join(format!("nnue-capi-{}-cbnf.nnue", std::process::id()));
    std::fs::write(&bad, &head).unwrap();
    let code = NetRef::from_file(&bad, None, None, 0).err().expect("no architecture has 16 output buckets");
    std::fs::remove_file(&bad).unwrap();
    assert_eq!(nnue_capi::Error::from_code(code), Some(nnue_capi::Error::UnknownArch));
    assert!(last_error().contains("output buckets at offset 14"), "{}", last_error());
}
