//! Bullet-trained nets against their engines: every row of
//! `tests/reference/bullet/*.tsv` (a FEN and the engine's output, side to
//! move's view) on every backend this CPU runs, with the nets of
//! `tests/nets/bullet/` (and from the nets directory Reckless's v30 net, which
//! is not ours to redistribute, and the nets `tools/netgen/` generates in an
//! engine's format) loaded through the shipped architecture files.

use crate::support::{self, board, repo};
use nnue::runtime::{AnyNetwork, ArchEntry, LoadError, LoadOptions};

use crate::archs::{akimbo, obsidian, reckless_v30, reckless_v60, stormphrax, viridithas};

/// `(fen, output)` rows of a bullet reference file (no header line).
fn reference(file: &str) -> Vec<(String, i32)> {
    let path = support::reference_dir().join("bullet").join(file);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reference {} unreadable: {e}", path.display()));
    let rows: Vec<(String, i32)> = text
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (fen, output) =
                l.split_once('\t').unwrap_or_else(|| panic!("{}: `{l}` is not `fen<TAB>output`", path.display()));
            (fen.to_owned(), output.parse().unwrap_or_else(|e| panic!("{}: `{output}`: {e}", path.display())))
        })
        .collect();
    assert_eq!(rows.len(), 1237, "{}", path.display());
    rows
}

fn net_bytes(file: &str) -> Vec<u8> {
    support::bytes(&repo().join("tests/nets/bullet").join(file))
}

/// Every reference row on every backend, and the overflow proof holds.
fn check(entry: ArchEntry, net: &str, tsv: &str) {
    check_bytes(entry, net, &net_bytes(net), tsv);
}

/// [`check`] for a net's bytes read from elsewhere.
fn check_bytes(entry: ArchEntry, net: &str, bytes: &[u8], tsv: &str) {
    let rows = reference(tsv);
    for isa in support::isas() {
        let network: Box<dyn AnyNetwork> =
            (entry.load)(bytes, LoadOptions::isa(isa)).unwrap_or_else(|e| panic!("{net} on {isa}: {e}"));
        assert!(network.overflow_proof().holds());
        let mismatches: Vec<String> = rows
            .iter()
            .enumerate()
            .filter_map(|(i, (fen, want))| {
                let ours = network.evaluate_board(&board(fen));
                (ours.value != *want)
                    .then(|| format!("row {i} `{fen}`: ours {} (bucket {}), engine {want}", ours.value, ours.bucket))
            })
            .collect();
        assert!(
            mismatches.is_empty(),
            "{net} on {isa}: {} of {} rows differ, first: {:#?}",
            mismatches.len(),
            rows.len(),
            &mismatches[..mismatches.len().min(5)]
        );
        eprintln!("{net} on {isa}: {} of {} rows equal", rows.len(), rows.len());
    }
}

#[test]
fn obsidian_net512_buckets() {
    check(obsidian::ENTRY, "obsidian-net512_buckets.bin", "obsidian-net512_buckets.tsv");
}

/// A float tail: f32 layers summed in input order, on every backend.
#[test]
fn akimbo_morelayers_8_crelu_16_crelu_epoch17() {
    check(
        akimbo::ENTRY,
        "akimbo-morelayers-8-crelu-16-crelu-epoch17.bin",
        "akimbo-morelayers-8-crelu-16-crelu-epoch17.tsv",
    );
}

/// Reckless's v30 net (not in the repository: read from the nets directory,
/// see `support::copied_net`): no king buckets, QA 384 read from the i16
/// accumulators, an output sum that can leave i32 and wraps as the engine's
/// does.
#[test]
fn reckless_v30_863f1172() {
    let name = "reckless-v30-863f1172.nnue";
    let Some(path) = support::copied_net(name, "reckless_v30_863f1172") else { return };
    let bytes = support::bytes(&path);
    assert_eq!(bytes.len(), reckless_v30::FILE_BYTES, "{}", path.display());
    check_bytes(reckless_v30::ENTRY, name, &bytes, "reckless-v30-863f1172.tsv");
}

/// Reckless's current architecture (789de89) on a net generated in its
/// format by `tools/netgen/reckless_v60.py` (fetch-nets makes it, checked by
/// its SHA-256), against Reckless's own evaluation of that net: threats and
/// king-bucketed piece squares in one accumulator, an i8 layer without
/// biases, a fused dequantisation, fused f32 sums in the engine's orders.
#[test]
fn reckless_v60_generated() {
    let name = "reckless-v60-generated.nnue";
    let path = support::net(name);
    let bytes = support::bytes(&path);
    assert_eq!(bytes.len(), reckless_v60::FILE_BYTES, "{}", path.display());
    check_bytes(reckless_v60::ENTRY, name, &bytes, "reckless-v60-generated.tsv");
}

/// Viridithas's architecture (8bc0706) on a net generated in its format by
/// `tools/netgen/viridithas.py` (fetch-nets makes the decoded file; the
/// engine's own file is that zstd-compressed, as here), against Viridithas's
/// own `raweval` of it: pawn pairs, threats and merged-king piece squares,
/// HardSwish, SwiGLU with a residual, fused f32 sums; read from memory and
/// streamed from a file.
#[test]
fn viridithas_generated() {
    let name = "viridithas-generated.nnue";
    let raw = support::bytes(&support::net(name));
    let compressed = nnue::__private::format::bullet::zstd_compress(&raw);
    check_bytes(viridithas::ENTRY, name, &compressed, "viridithas-generated.tsv");
    let path = std::env::temp_dir().join(format!("nnue-test-{}-viridithas.nnue.zst", std::process::id()));
    std::fs::write(&path, &compressed).unwrap();
    let streamed = viridithas::Network::from_file(&path);
    std::fs::remove_file(&path).unwrap();
    let from_memory = viridithas::Network::from_bytes(&compressed).unwrap();
    let streamed = streamed.unwrap_or_else(|e| panic!("{name} streamed from a file: {e}"));
    for (fen, _) in reference("viridithas-generated.tsv").iter().take(50) {
        let board = board(fen);
        assert_eq!(streamed.evaluate_board(&board), from_memory.evaluate_board(&board), "{fen}");
    }
    // The decoded file is the architecture's size, or a typed error.
    let short = nnue::__private::format::bullet::zstd_compress(&raw[..raw.len() - 64]);
    assert!(matches!(
        viridithas::Network::from_bytes(&short),
        Err(LoadError::DecompressedSize { expected, actual, .. }) if expected == raw.len() && actual == raw.len() - 64
    ));
    assert!(matches!(viridithas::Network::from_bytes(&raw), Err(LoadError::Decompress { .. })));
}

/// Stormphrax's architecture (2402cae) on a net generated in its format by
/// `tools/netgen/stormphrax.py` (CBNF header, tensors uncompressed), against
/// Stormphrax's own `raweval` of it: merged-king piece squares, pawn pairs
/// and threats, an all-integer tail with a clipped and a squared half and a
/// skip over L2, the result within +-24999. Also with the tensors
/// zstd-compressed behind the header's flag, as a release net may be; and
/// a header that does not match is a typed error naming the field.
#[test]
fn stormphrax_generated() {
    let name = "stormphrax-generated.nnue";
    let raw = support::bytes(&support::net(name));
    assert_eq!(raw.len(), stormphrax::FILE_BYTES);
    check_bytes(stormphrax::ENTRY, name, &raw, "stormphrax-generated.tsv");
    let mut compressed = raw[..64].to_vec();
    compressed[6] |= 0x1;
    compressed.extend(nnue::__private::format::bullet::zstd_compress(&raw[64..]));
    let plain = stormphrax::Network::from_bytes(&raw).unwrap();
    let zstd = stormphrax::Network::from_bytes(&compressed).unwrap();
    for (fen, _) in reference("stormphrax-generated.tsv").iter().take(50) {
        let board = board(fen);
        assert_eq!(zstd.evaluate_board(&board), plain.evaluate_board(&board), "{fen}");
    }
    let mut other = raw.clone();
    other[14] = 16; // output buckets
    assert!(matches!(
        stormphrax::Network::from_bytes(&other),
        Err(LoadError::Header { offset: 14, ref found, ref expected, .. }) if found == "0x10" && expected == "0x08"
    ));
    assert!(matches!(
        stormphrax::Network::from_bytes(&raw[..raw.len() - 1]),
        Err(LoadError::Size { expected, actual, .. }) if expected == raw.len() && actual == raw.len() - 1
    ));
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

/// An output weight too large for 16-bit SCReLU products (255 * 200 >
/// 32767): the SIMD backends fall back to the i32 sum and still equal
/// scalar, on every reference position.
#[test]
fn weights_beyond_the_16_bit_bound_fall_back() {
    let mut bytes = net_bytes("obsidian-net512_buckets.bin");
    // `out.weights` follows the transformer (3072 x 512 + 512 i16): input 5 of
    // the side to move, output bucket 3.
    let at = 2 * (3072 * 512 + 512) + 2 * (5 * 8 + 3);
    bytes[at..at + 2].copy_from_slice(&200i16.to_le_bytes());
    let rows = reference("obsidian-net512_buckets.tsv");
    let scalar = obsidian::Network::from_bytes_with_isa(&bytes, nnue::runtime::Isa::Scalar).unwrap();
    // The overflow proof says which stacks multiply in 16 bits: all but
    // bucket 3, whose products reach 255 * 200 and are bounded as i32.
    let bound = |value: &str| scalar.overflow_proof().bounds().iter().find(|b| b.value == value).cloned();
    let sixteen = bound("out 16-bit products").expect("the other stacks' 16-bit products");
    assert_eq!((sixteen.ty, sixteen.margin()), (nnue::runtime::overflow::Int::I16, 32767 - 255 * 126));
    let wide = bound("out products").expect("bucket 3's products");
    assert_eq!(
        (wide.ty, wide.range.max, wide.tightest.as_str()),
        (nnue::runtime::overflow::Int::I32, 255 * 200, "layer stack 3, output 0")
    );
    let mut changed = 0;
    for isa in support::isas() {
        let network = obsidian::Network::from_bytes_with_isa(&bytes, isa).unwrap();
        for (fen, engine) in &rows {
            let (ours, reference) = (network.evaluate(&board(fen)), scalar.evaluate(&board(fen)));
            assert_eq!(ours, reference, "{isa} `{fen}`");
            changed += usize::from(ours.value != *engine);
        }
    }
    assert!(changed > 0, "the edited weight changes some evaluations");
}

/// akimbo's file has no padding: one byte more or less is an error naming
/// both sizes.
#[test]
fn akimbo_file_size_is_checked() {
    let bytes = net_bytes("akimbo-morelayers-8-crelu-16-crelu-epoch17.bin");
    assert_eq!(akimbo::FILE_BYTES, bytes.len());
    for len in [bytes.len() - 1, bytes.len() + 1] {
        let mut file = bytes.clone();
        file.resize(len, 0);
        assert!(
            matches!(akimbo::Network::from_bytes(&file), Err(LoadError::Size { expected, actual, .. }) if expected == bytes.len() && actual == len)
        );
    }
}
