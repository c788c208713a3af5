//! Bullet-trained nets against their engines: every row of
//! `tests/reference/bullet/*.tsv` (a FEN and the engine's output, side to
//! move's view) on every backend this CPU runs, with the nets of
//! `tests/nets/bullet/` loaded through the shipped architecture files.

mod support;

use nnue::runtime::{AnyNetwork, ArchEntry, LoadError, LoadOptions};
use support::{board, repo};

nnue::nnue!(include "bullet/obsidian.ron");
nnue::nnue!(include "bullet/akimbo.ron");

/// `(fen, output)` rows of a bullet reference file (no header line).
fn reference(file: &str) -> Vec<(String, i32)> {
    let path = support::reference_dir().join("bullet").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reference {} unreadable: {e}", path.display()));
    let rows: Vec<(String, i32)> = text
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (fen, output) = l.split_once('\t').unwrap_or_else(|| panic!("{}: `{l}` is not `fen<TAB>output`", path.display()));
            (fen.to_owned(), output.parse().unwrap_or_else(|e| panic!("{}: `{output}`: {e}", path.display())))
        })
        .collect();
    assert_eq!(rows.len(), 1237, "{}", path.display());
    rows
}

fn net_bytes(file: &str) -> Vec<u8> {
    support::bytes(&repo().join("tests/nets/bullet").join(file))
}

/// Every reference row on every backend; returns how many rows matched per
/// backend.
fn check(entry: ArchEntry, net: &str, tsv: &str) {
    let rows = reference(tsv);
    let bytes = net_bytes(net);
    for isa in support::isas() {
        let network: Box<dyn AnyNetwork> =
            (entry.load)(&bytes, LoadOptions::isa(isa)).unwrap_or_else(|e| panic!("{net} on {isa}: {e}"));
        assert!(network.overflow_proof().holds());
        let mismatches: Vec<String> = rows
            .iter()
            .enumerate()
            .filter_map(|(i, (fen, want))| {
                let ours = network.evaluate_board(&board(fen));
                (ours.value != *want).then(|| format!("row {i} `{fen}`: ours {} (bucket {}), engine {want}", ours.value, ours.bucket))
            })
            .collect();
        assert!(mismatches.is_empty(), "{net} on {isa}: {} of {} rows differ, first: {:#?}", mismatches.len(), rows.len(), &mismatches[..mismatches.len().min(5)]);
    }
}

#[test]
fn obsidian_net512_buckets() {
    check(obsidian::ENTRY, "obsidian-net512_buckets.bin", "obsidian-net512_buckets.tsv");
}

/// A float tail: f32 layers summed in input order, on every backend.
#[test]
fn akimbo_morelayers_8_crelu_16_crelu_epoch17() {
    check(akimbo::ENTRY, "akimbo-morelayers-8-crelu-16-crelu-epoch17.bin", "akimbo-morelayers-8-crelu-16-crelu-epoch17.tsv");
}

/// A bullet file has no header: its size is what identifies it, and a file
/// of another size is an error naming both sizes.
#[test]
fn a_bullet_file_of_the_wrong_size_is_a_typed_error() {
    let bytes = net_bytes("obsidian-net512_buckets.bin");
    for len in [0, 64, bytes.len() - 48, bytes.len() - 1, bytes.len() + 1] {
        let mut file = bytes.clone();
        file.resize(len, 0);
        match obsidian::Network::from_bytes(&file) {
            Err(LoadError::Size { expected, actual, .. }) => {
                assert_eq!((expected, actual), (bytes.len(), len));
            }
            Err(e) => panic!("{len} bytes: {e}"),
            Ok(_) => panic!("{len} bytes loaded"),
        }
    }
    assert_eq!(obsidian::FILE_BYTES, bytes.len());
}
