//! What the fuzz targets do, as plain functions: `fuzz_targets/` hands them
//! libFuzzer's inputs, and `tests/fuzz_corpus.rs` (stable, part of the test
//! suite) replays the committed corpus through them. Each must return for
//! every input; a panic, hang or memory error is a finding.

use nnue::runtime::{ArchEntry, Board, Color, Isa, Piece, PieceKind, Position as _, Square};

/// Every shipped architecture's module, and [`ARCHITECTURES`]: their
/// entries (`nnue::for_each_shipped_arch!`).
macro_rules! shipped {
    ($($module:ident { $($entry:tt)* }),* $(,)?) => {
        $(shipped_module!($module { $($entry)* });)*

        const ARCHITECTURES: &[ArchEntry] = &[$($module::ENTRY),*];
    };
}

macro_rules! shipped_module {
    ($module:ident { file: $file:literal, $($rest:tt)* }) => {
        nnue::nnue!(include $file);
    };
}

nnue::for_each_shipped_arch!(shipped);
// SFNNv10's form at 128 lanes, for net_edits_threats.
nnue::nnue!(include "../../tests/composed/threats-and-pieces.ron");
// SFNNv16's form at 128 lanes, for net_edits_three_sets.
nnue::nnue!(include "../../tests/composed/threats-pairs-and-pieces.ron");

/// An architecture file's text: parsed, checked and, when valid, turned
/// into code. Errors are expected; panics are not. A rejected file has
/// errors, each on a line of the file; an accepted one is within every
/// size limit (`nnue_spec::limits::within_limits`).
pub fn spec(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match nnue_spec::parse(text) {
        Ok(arch) => {
            if let Err(broken) = nnue_spec::limits::within_limits(&arch) {
                panic!("accepted over a limit: {broken}");
            }
            let code = nnue_codegen::generate(&arch, &nnue_codegen::Options::default());
            assert!(!code.is_empty());
        }
        Err(errors) => {
            assert!(!errors.is_empty());
            let lines = text.split('\n').count();
            for e in &errors {
                assert!((1..=lines).contains(&e.at.line) && e.at.col >= 1, "{e} outside the file's {lines} lines");
            }
        }
    }
}

/// Raw bytes as a net file, for every shipped architecture (and through the
/// header lookup the CLI uses). Fails early in the header or a length field
/// for almost all inputs: the target for header, description and hash
/// parsing (a bullet file, with no header, loads only at its exact size).
pub fn net_bytes(data: &[u8]) {
    for entry in ARCHITECTURES {
        let _ = (entry.load)(data, nnue::runtime::LoadOptions::isa(Isa::Scalar));
    }
    // As the CLI looks a net up: among the architectures whose files have a header.
    let by_header: Vec<ArchEntry> = ARCHITECTURES.iter().copied().filter(|e| e.info.file_bytes.is_none()).collect();
    let _ = nnue::runtime::candidates(&by_header, data);
}

/// A real-sized net file (a random sfnnv9-small net, 6.5 MB, every part the
/// reader knows: header, LEB128 blocks, PSQT, eight layer stacks) edited by
/// `data`, loaded on the best backend and, if it loads, evaluated.
///
/// `data` is a list of 9-byte edits `[op, offset (u32 LE), value (u32 LE)]`,
/// offsets taken modulo the current length + 1: 0 truncate at offset;
/// 1 xor the byte at offset with value (as a non-zero byte); 2 write value
/// as u32 LE at offset; 3 delete `value % 64` bytes at offset; 4 insert value
/// as 4 bytes LE at offset; 5 append `value % 64` copies of its low byte.
pub fn net_edits(data: &[u8]) {
    static BASE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    if let Some(net) = load_edited::<sfnnv9_small::Network>(&BASE, || sfnnv9_small::random_net_file(1), data) {
        let board = start_board();
        let eval = net.evaluate(&board);
        assert_eq!(eval.bucket, sfnnv9_small::Network::bucket(board.piece_count()));
    }
}

/// [`net_edits`] on a net of two feature sets summed into one accumulator
/// (a random net of SFNNv10's form at 128 lanes, 19 MB: raw i8 threat
/// weights, LEB128 piece-square weights, one PSQT block for both sets),
/// evaluated after a move that changes threats, incrementally and from
/// scratch.
pub fn net_edits_threats(data: &[u8]) {
    static BASE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    if let Some(net) =
        load_edited::<threats_and_pieces::Network>(&BASE, || threats_and_pieces::random_net_file(2), data)
    {
        e4_incrementally(&net);
    }
}

/// [`net_edits_threats`] on a net of three feature sets summed into one
/// accumulator (a random net of SFNNv16's form at 128 lanes, 24 MB:
/// FullThreats and PP_3Wide i8 weights stored raw, each set's PSQT weights
/// in a LEB128 block after its weights): 1. e4 changes pawn pairs as well
/// as threats.
pub fn net_edits_three_sets(data: &[u8]) {
    static BASE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    if let Some(net) =
        load_edited::<threats_pairs_and_pieces::Network>(&BASE, || threats_pairs_and_pieces::random_net_file(4), data)
    {
        e4_incrementally(&net);
    }
}

/// The net `base` (made once by `make`) edited by `data`, loaded on the
/// best backend, if it loads.
fn load_edited<N: nnue::runtime::Network>(
    base: &std::sync::OnceLock<Vec<u8>>,
    make: impl FnOnce() -> Vec<u8>,
    data: &[u8],
) -> Option<N> {
    let mut bytes = base.get_or_init(make).clone();
    apply_edits(&mut bytes, data);
    N::load(&bytes, Isa::best()).ok()
}

/// The evaluation of `pos` from scratch.
fn fresh<N: nnue::runtime::Network>(net: &N, pos: &Board) -> nnue::runtime::Evaluation {
    let mut accumulator = N::Accumulator::default();
    net.refresh(pos, &mut accumulator);
    net.evaluate_accumulator(&accumulator, pos.side_to_move(), pos.piece_count())
}

/// The start position, then 1. e4 (the pawn's attacks, the bishop's and
/// queen's rays and the e-pawn's pairs change), through the accumulator
/// stack equal the evaluations from scratch.
fn e4_incrementally<N: nnue::runtime::Network>(net: &N) {
    let board = start_board();
    let mut stack = nnue::runtime::AccumulatorStack::new(net);
    stack.reset(&board);
    assert_eq!(stack.evaluate(net, &board), fresh(net, &board));
    let (from, to) = (Square::from_file_rank(4, 1).expect("e2"), Square::from_file_rank(4, 3).expect("e4"));
    let pawn = Piece { color: Color::White, kind: PieceKind::Pawn };
    let mut changes = nnue::runtime::MoveChanges::default();
    changes.push(nnue::runtime::PieceChange { piece: pawn, from: Some(from), to: Some(to) });
    let moved = Board::new(
        Color::Black,
        start_pieces().into_iter().map(|(square, piece)| (if square == from { to } else { square }, piece)),
    )
    .expect("one king a side");
    stack.push(&changes);
    assert_eq!(stack.evaluate(net, &moved), fresh(net, &moved));
}

/// [`net_edits`] on a bullet file with an f32 tail (a random net of
/// akimbo's architecture, 1.2 MB, no header: any bytes of the right size
/// load unless the overflow proof fails, NaNs and infinities included): if
/// it loads, every backend gives the scalar backend's evaluation.
pub fn net_edits_bullet(data: &[u8]) {
    static BASE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    let mut bytes = BASE.get_or_init(|| akimbo::random_net_file(3)).clone();
    apply_edits(&mut bytes, data);
    let Ok(scalar) = akimbo::Network::from_bytes_with_isa(&bytes, Isa::Scalar) else { return };
    let board = start_board();
    let expected = scalar.evaluate(&board);
    let net = akimbo::Network::from_bytes_with_isa(&bytes, Isa::best()).expect("loads on every backend if on scalar");
    assert_eq!(net.evaluate(&board), expected);
}

/// Applies [`net_edits`]'s edit list to `bytes`.
pub fn apply_edits(bytes: &mut Vec<u8>, edits: &[u8]) {
    for edit in edits.chunks_exact(9) {
        let offset = u32::from_le_bytes(edit[1..5].try_into().unwrap()) as usize % (bytes.len() + 1);
        let value = u32::from_le_bytes(edit[5..9].try_into().unwrap());
        match edit[0] % 6 {
            0 => bytes.truncate(offset),
            1 if offset < bytes.len() => bytes[offset] ^= (value as u8).max(1),
            2 if offset + 4 <= bytes.len() => bytes[offset..offset + 4].copy_from_slice(&value.to_le_bytes()),
            3 => {
                let end = (offset + (value % 64) as usize).min(bytes.len());
                bytes.drain(offset..end);
            }
            4 => {
                bytes.splice(offset..offset, value.to_le_bytes());
            }
            5 => bytes.extend(std::iter::repeat_n(value as u8, (value % 64) as usize)),
            _ => {}
        }
    }
}

/// One edit, for building seeds.
pub fn edit(op: u8, offset: u32, value: u32) -> [u8; 9] {
    let mut e = [0; 9];
    e[0] = op;
    e[1..5].copy_from_slice(&offset.to_le_bytes());
    e[5..9].copy_from_slice(&value.to_le_bytes());
    e
}

/// The starting position.
fn start_board() -> Board {
    Board::new(Color::White, start_pieces()).expect("one king a side")
}

/// The pieces of the starting position.
fn start_pieces() -> Vec<(Square, Piece)> {
    const BACK: [PieceKind; 8] = [
        PieceKind::Rook,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Queen,
        PieceKind::King,
        PieceKind::Bishop,
        PieceKind::Knight,
        PieceKind::Rook,
    ];
    let square = |file: u8, rank: u8| Square::from_file_rank(file, rank).expect("on the board");
    (0..8u8)
        .flat_map(|f| {
            [
                (square(f, 0), Piece { color: Color::White, kind: BACK[f as usize] }),
                (square(f, 1), Piece { color: Color::White, kind: PieceKind::Pawn }),
                (square(f, 6), Piece { color: Color::Black, kind: PieceKind::Pawn }),
                (square(f, 7), Piece { color: Color::Black, kind: BACK[f as usize] }),
            ]
        })
        .collect()
}
