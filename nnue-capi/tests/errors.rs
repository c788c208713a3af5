//! Bad input through the C functions: each gives its code, and a failed
//! call changes nothing. On a random net of the small net's architecture.

mod common;

use common::{NetRef, StackRef, c_string, last_error, multi_stack, pieces, random_net, start};
use nnue_capi::{
    Error, NNUE_LOAD_ALLOW_OVERFLOW, NNUE_MAX_NETS, NNUE_MAX_PLY, NNUE_NO_SQUARE, NNUE_OK, PieceChange, PieceOn,
    nnue_error_message,
};
use std::ffi::{CStr, c_char, c_int};
use std::ptr::{null, null_mut};

const NULL_POINTER: c_int = Error::NullPointer as c_int;

fn net() -> NetRef {
    NetRef::from_bytes(&random_net(), None, None, 0).expect("the random net loads")
}

/// A stack reset to the start position.
fn started(net: &NetRef) -> StackRef {
    let mut stack = net.stack();
    assert_eq!(stack.reset(&pieces(&start())), NNUE_OK);
    stack
}

/// `code` is `error`'s, and the thread's last error says `detail`.
#[track_caller]
fn fails(code: c_int, error: Error, detail: &str) {
    assert_eq!(Error::from_code(code), Some(error), "code {code}, last error: {}", last_error());
    let text = last_error();
    assert!(text.contains(detail), "`{text}` does not say `{detail}`");
}

fn piece(square: u8, piece: u8) -> PieceOn {
    PieceOn { square, piece }
}

fn change(piece: u8, from: u8, to: u8) -> PieceChange {
    PieceChange { piece, from, to }
}

// Squares and pieces used below.
const E1: u8 = 4;
const E2: u8 = 12;
const E3: u8 = 20;
const E4: u8 = 28;
const E7: u8 = 52;
const E8: u8 = 60;
const WHITE_PAWN: u8 = 0;
const WHITE_KNIGHT: u8 = 1;
const WHITE_QUEEN: u8 = 4;
const WHITE_KING: u8 = 5;
const BLACK_KING: u8 = 11;

#[test]
fn null_pointers() {
    let net = net();
    let mut stack = started(&net);
    let (mut out_net, mut out_stack, mut name, mut count) = (null(), null_mut(), null(), 0usize);
    let mut eval = nnue_capi::Eval::default();
    let bytes = random_net();
    let path = c_string("/nonexistent.nnue");
    // SAFETY: every pointer is NULL or valid; NULL ones must be refused.
    let codes = unsafe {
        [
            ("load_file path", nnue_capi::nnue_net_load_file(null(), null(), null(), 0, &mut out_net)),
            ("load_file out", nnue_capi::nnue_net_load_file(path.as_ptr(), null(), null(), 0, null_mut())),
            ("load_memory bytes", nnue_capi::nnue_net_load_memory(null(), 10, null(), null(), 0, &mut out_net)),
            (
                "load_memory out",
                nnue_capi::nnue_net_load_memory(bytes.as_ptr(), bytes.len(), null(), null(), 0, null_mut()),
            ),
            ("retain", nnue_capi::nnue_net_retain(null())),
            ("arch_name net", nnue_capi::nnue_net_arch_name(null(), &mut name)),
            ("arch_name out", nnue_capi::nnue_net_arch_name(net.0, null_mut())),
            ("isa_name net", nnue_capi::nnue_net_isa_name(null(), &mut name)),
            ("isa_name out", nnue_capi::nnue_net_isa_name(net.0, null_mut())),
            ("description net", nnue_capi::nnue_net_description(null(), &mut name)),
            ("description out", nnue_capi::nnue_net_description(net.0, null_mut())),
            ("buckets net", nnue_capi::nnue_net_buckets(null(), &mut count)),
            ("buckets out", nnue_capi::nnue_net_buckets(net.0, null_mut())),
            ("stack_new net", nnue_capi::nnue_stack_new(null(), &mut out_stack)),
            ("stack_new out", nnue_capi::nnue_stack_new(net.0, null_mut())),
            ("reset stack", nnue_capi::nnue_stack_reset(null_mut(), [piece(E1, WHITE_KING)].as_ptr(), 1)),
            ("reset pieces", nnue_capi::nnue_stack_reset(stack.0, null(), 2)),
            ("push stack", nnue_capi::nnue_stack_push(null_mut(), [change(WHITE_PAWN, E2, E4)].as_ptr(), 1)),
            ("push changes", nnue_capi::nnue_stack_push(stack.0, null(), 1)),
            ("pop", nnue_capi::nnue_stack_pop(null_mut())),
            ("ply stack", nnue_capi::nnue_stack_ply(null(), &mut count)),
            ("ply out", nnue_capi::nnue_stack_ply(stack.0, null_mut())),
            ("evaluate stack", nnue_capi::nnue_stack_evaluate(null_mut(), 0, &mut eval)),
            ("evaluate out", nnue_capi::nnue_stack_evaluate(stack.0, 0, null_mut())),
            ("buckets stack", nnue_capi::nnue_stack_evaluate_buckets(null_mut(), 0, &mut eval, 8)),
            ("buckets out", nnue_capi::nnue_stack_evaluate_buckets(stack.0, 0, null_mut(), 8)),
        ]
    };
    for (call, code) in codes {
        assert_eq!(code, NULL_POINTER, "{call}: {}", last_error());
        assert!(last_error().contains("NULL"), "{call}: {}", last_error());
    }
    // Nothing was written.
    assert!(out_net.is_null() && out_stack.is_null() && name.is_null() && count == 0);
    // Releasing or freeing NULL does nothing, as free(NULL).
    // SAFETY: NULL is allowed.
    assert_eq!(unsafe { nnue_capi::nnue_net_release(null()) }, NNUE_OK);
    // SAFETY: NULL is allowed.
    assert_eq!(unsafe { nnue_capi::nnue_stack_free(null_mut()) }, NNUE_OK);
    // The stack still works.
    assert_eq!(stack.ply(), Ok(0));
    assert!(stack.evaluate(0).is_ok());
}

#[test]
fn misaligned_out_pointer() {
    let net = net();
    let stack = started(&net);
    let mut words = [0u32; 8];
    let misaligned = words.as_mut_ptr().cast::<u8>().wrapping_add(1).cast::<nnue_capi::Eval>();
    // SAFETY: a misaligned pointer must be refused before any write.
    fails(unsafe { nnue_capi::nnue_stack_evaluate(stack.0, 0, misaligned) }, Error::NullPointer, "misaligned");
    assert_eq!(words, [0; 8]);
}

#[test]
fn reset_bad_pieces() {
    let net = net();
    let mut stack = net.stack();
    let kings = [piece(E1, WHITE_KING), piece(E8, BLACK_KING)];
    let with = |extra: &[PieceOn]| [&kings[..], extra].concat();
    fails(stack.reset(&with(&[piece(64, WHITE_PAWN)])), Error::Square, "square 64");
    fails(stack.reset(&with(&[piece(255, WHITE_PAWN)])), Error::Square, "square 255");
    fails(stack.reset(&with(&[piece(E2, 12)])), Error::Piece, "piece code 12");
    fails(stack.reset(&with(&[piece(E2, 200)])), Error::Piece, "piece code 200");
    fails(stack.reset(&with(&[piece(E2, WHITE_PAWN), piece(E2, WHITE_KNIGHT)])), Error::Occupied, "square 12");
    fails(stack.reset(&with(&[piece(E1, WHITE_QUEEN)])), Error::Occupied, "square 4");
    fails(stack.reset(&[piece(E8, BLACK_KING)]), Error::Kings, "white has no king");
    fails(stack.reset(&[piece(E1, WHITE_KING)]), Error::Kings, "black has no king");
    fails(stack.reset(&[]), Error::Kings, "white has no king");
    fails(stack.reset(&with(&[piece(E3, WHITE_KING)])), Error::Kings, "second White king");
    fails(stack.reset(&with(&[piece(E3, BLACK_KING)])), Error::Kings, "second Black king");
    // 33 pieces: the start position and one more.
    let mut many = pieces(&start());
    many.push(piece(E4, WHITE_QUEEN));
    fails(stack.reset(&many), Error::TooManyPieces, "33 pieces");
    // None of these reset the stack.
    fails(stack.evaluate(0).unwrap_err(), Error::NotReset, "reset");
    assert_eq!(stack.reset(&kings), NNUE_OK, "two bare kings are a position");
    assert_eq!(stack.reset(&many[..32]), NNUE_OK);
}

#[test]
fn before_reset() {
    let net = net();
    let mut stack = net.stack();
    fails(stack.push(&[change(WHITE_PAWN, E2, E4)]), Error::NotReset, "nnue_stack_reset");
    fails(stack.pop(), Error::NotReset, "nnue_stack_reset");
    fails(stack.evaluate(0).unwrap_err(), Error::NotReset, "nnue_stack_reset");
    fails(stack.evaluate_buckets(0, 8).unwrap_err(), Error::NotReset, "nnue_stack_reset");
    fails(stack.ply().unwrap_err(), Error::NotReset, "nnue_stack_reset");
}

#[test]
fn pop_at_the_root() {
    let net = net();
    let mut stack = started(&net);
    fails(stack.pop(), Error::EmptyStack, "no move");
    assert_eq!(stack.push(&[change(WHITE_PAWN, E2, E4)]), NNUE_OK);
    assert_eq!(stack.pop(), NNUE_OK);
    fails(stack.pop(), Error::EmptyStack, "no move");
}

#[test]
fn push_bad_changes() {
    let net = net();
    let mut stack = started(&net);
    let before = stack.evaluate(0).unwrap();
    let pawn = change(WHITE_PAWN, E2, E4);
    let no = NNUE_NO_SQUARE;
    fails(stack.push(&[pawn; 4]), Error::TooManyChanges, "4 changes");
    fails(stack.push(&[change(12, E2, E4)]), Error::Piece, "piece code 12");
    fails(stack.push(&[change(WHITE_PAWN, 65, E4)]), Error::Square, "square 65");
    fails(stack.push(&[change(WHITE_PAWN, E2, 200)]), Error::Square, "square 200");
    fails(stack.push(&[change(WHITE_PAWN, no, no)]), Error::BadChange, "neither");
    fails(stack.push(&[change(WHITE_PAWN, E3, E4)]), Error::BadChange, "not on square 20");
    fails(stack.push(&[change(WHITE_KNIGHT, E2, E4)]), Error::BadChange, "not on square 12");
    // The same pawn moved twice in one move.
    fails(stack.push(&[pawn, change(WHITE_PAWN, E2, E3)]), Error::BadChange, "change 1");
    // Onto a square still taken (a capture must remove the captured piece).
    fails(stack.push(&[change(WHITE_PAWN, E2, E7)]), Error::Occupied, "square 52");
    fails(stack.push(&[pawn, change(WHITE_QUEEN, no, E4)]), Error::Occupied, "square 28");
    // Kings: captured, or a second one.
    fails(stack.push(&[change(BLACK_KING, E8, no)]), Error::Kings, "black has no king");
    fails(stack.push(&[change(WHITE_KING, no, E4)]), Error::Kings, "second White king");
    // A 33rd piece.
    fails(stack.push(&[change(WHITE_QUEEN, no, E4)]), Error::TooManyPieces, "33 pieces");
    // None of them moved anything.
    assert_eq!(stack.ply(), Ok(0));
    assert_eq!(stack.evaluate(0), Ok(before));
    // A promotion, a capture and a null move are fine.
    assert_eq!(stack.push(&[change(WHITE_PAWN, E2, no), change(WHITE_QUEEN, no, E4)]), NNUE_OK);
    assert_eq!(stack.push(&[change(WHITE_QUEEN, E4, no), change(WHITE_PAWN, no, E4)]), NNUE_OK);
    assert_eq!(stack.push(&[]), NNUE_OK);
    assert_eq!(stack.ply(), Ok(3));
}

#[test]
fn bad_side_to_move() {
    let net = net();
    let mut stack = started(&net);
    fails(stack.evaluate(2).unwrap_err(), Error::Side, "side to move 2");
    fails(stack.evaluate(-1).unwrap_err(), Error::Side, "side to move -1");
    fails(stack.evaluate_buckets(7, 8).unwrap_err(), Error::Side, "side to move 7");
}

#[test]
fn buckets_buffer_too_short() {
    let net = net();
    let mut stack = started(&net);
    assert_eq!(net.buckets(), 8);
    fails(stack.evaluate_buckets(0, 7).unwrap_err(), Error::Buffer, "7 entries for 8 buckets");
    fails(stack.evaluate_buckets(0, 0).unwrap_err(), Error::Buffer, "0 entries");
    let evals = stack.evaluate_buckets(0, 9).unwrap();
    assert_eq!(evals[8], nnue_capi::Eval::default(), "only 8 written");
    let eval = stack.evaluate(0).unwrap();
    assert_eq!(evals[eval.bucket as usize], eval);
}

#[test]
fn stack_full() {
    let net = net();
    let mut stack = started(&net);
    for _ in 0..NNUE_MAX_PLY {
        assert_eq!(stack.push(&[]), NNUE_OK);
    }
    fails(stack.push(&[]), Error::StackFull, "1024 moves");
    assert_eq!(stack.ply(), Ok(NNUE_MAX_PLY));
    assert!(stack.evaluate(0).is_ok());
    assert_eq!(stack.pop(), NNUE_OK);
    assert_eq!(stack.push(&[change(WHITE_PAWN, E2, E4)]), NNUE_OK);
}

/// A stack over several nets: no net, too many, NULL among them, an index
/// it does not have.
#[test]
fn multi_stack_bad_nets() {
    let (a, b) = (net(), net());
    fails(multi_stack(&[]).err().unwrap(), Error::NetIndex, "0 nets (1 to 8)");
    let many = vec![a.0; NNUE_MAX_NETS + 1];
    fails(multi_stack(&many).err().unwrap(), Error::NetIndex, "9 nets (1 to 8)");
    fails(multi_stack(&[a.0, null()]).err().unwrap(), Error::NullPointer, "nets[1] is NULL");
    let mut out = null_mut();
    // SAFETY: `out` is writable; the nets pointer is NULL, which the call refuses.
    let code = unsafe { nnue_capi::nnue_stack_new_multi(null(), 2, &mut out) };
    fails(code, Error::NullPointer, "nets is NULL");
    assert!(out.is_null());
    // SAFETY: the nets are readable; the out pointer is NULL, which the call refuses.
    let code = unsafe { nnue_capi::nnue_stack_new_multi([a.0].as_ptr(), 1, null_mut()) };
    fails(code, Error::NullPointer, "out_stack is NULL");
    let mut stack = multi_stack(&[a.0, b.0]).expect("two nets");
    fails(stack.evaluate_net(0, 0).unwrap_err(), Error::NotReset, "nnue_stack_reset");
    assert_eq!(stack.reset(&pieces(&start())), NNUE_OK);
    fails(stack.evaluate_net(2, 0).unwrap_err(), Error::NetIndex, "net 2; the stack has 2");
    fails(stack.evaluate_net(usize::MAX, 0).unwrap_err(), Error::NetIndex, "; the stack has 2");
    fails(stack.evaluate_net(1, 2).unwrap_err(), Error::Side, "side to move 2");
    assert_eq!(stack.evaluate_net(1, 0), stack.evaluate(0), "two loads of one net file");
    let mut single = started(&a);
    fails(single.evaluate_net(1, 0).unwrap_err(), Error::NetIndex, "net 1; the stack has 1");
    assert_eq!(single.evaluate_net(0, 0), single.evaluate(0));
}

/// A C string of bytes that are not UTF-8.
fn not_utf8() -> Vec<u8> {
    vec![b'n', 0xFF, 0xFE, b'.', 0]
}

#[test]
fn load_errors() {
    let bytes = random_net();
    let load = |bytes: &[u8], arch: Option<&str>, isa: Option<&str>, flags: u32| {
        NetRef::from_bytes(bytes, arch, isa, flags).err().expect("a load that fails")
    };
    fails(load(&bytes, Some("sfnnv99"), None, 0), Error::UnknownArch, "`sfnnv99` (shipped: sfnnv1,");
    fails(load(&bytes, None, Some("sse9"), 0), Error::Isa, "unknown instruction set `sse9`");
    let foreign = if cfg!(target_arch = "x86_64") { "neon" } else { "avx2" };
    fails(load(&bytes, None, Some(foreign), 0), Error::Isa, "this CPU lacks");
    fails(load(&bytes, None, None, 2), Error::Flags, "flags 0x2");
    fails(load(&bytes[..bytes.len() / 2], None, None, 0), Error::Format, "file ends at offset");
    fails(load(&bytes[..6], None, None, 0), Error::Format, "6 bytes");
    fails(load(&[], None, None, 0), Error::Format, "0 bytes");
    fails(load(&bytes, Some("sfnnv10"), None, 0), Error::Format, "expects");
    let mut foreign_hash = bytes.clone();
    foreign_hash[4] ^= 1;
    fails(load(&foreign_hash, None, None, 0), Error::UnknownArch, "no shipped architecture has header hash");
    let mut trailing = bytes.clone();
    trailing.push(0);
    fails(load(&trailing, None, None, 0), Error::Format, "unexpected bytes");
    // A last layer whose bias sits next to i32::MAX can overflow: refused
    // unless allowed (the runtime's own example).
    let mut overflowing = bytes.clone();
    let bias = overflowing.len() - 32 - 4;
    overflowing[bias..bias + 4].copy_from_slice(&(i32::MAX - 100).to_le_bytes());
    fails(load(&overflowing, None, None, 0), Error::OverflowProof, "fc_2 sums");
    let allowed = NetRef::from_bytes(&overflowing, None, None, NNUE_LOAD_ALLOW_OVERFLOW).expect("allowed");
    assert_eq!(allowed.arch(), "sfnnv9-small");
    // Named by the architecture's file, or by its name.
    assert_eq!(NetRef::from_bytes(&bytes, Some("sfnnv9-small.ron"), Some("scalar"), 0).unwrap().isa(), "scalar");
    assert_eq!(NetRef::from_bytes(&bytes, Some("sfnnv9-small"), None, 0).unwrap().arch(), "sfnnv9-small");
}

#[test]
fn load_file_errors() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let missing = dir.join("nnue-capi-missing.nnue");
    fails(NetRef::from_file(&missing, None, None, 0).err().unwrap(), Error::Io, "nnue-capi-missing.nnue");
    fails(NetRef::from_file(&dir, None, None, 0).err().unwrap(), Error::Io, "cannot read");
    let truncated = dir.join("nnue-capi-truncated.nnue");
    let bytes = random_net();
    std::fs::write(&truncated, &bytes[..1000]).unwrap();
    fails(NetRef::from_file(&truncated, None, None, 0).err().unwrap(), Error::Format, "file ends at offset");
    let whole = dir.join("nnue-capi-random.nnue");
    std::fs::write(&whole, &bytes).unwrap();
    assert_eq!(NetRef::from_file(&whole, None, None, 0).unwrap().arch(), "sfnnv9-small");
    // Strings that are not UTF-8.
    let path = not_utf8();
    let mut out = null();
    // SAFETY: NUL-terminated strings; `out` is writable.
    let code = unsafe { nnue_capi::nnue_net_load_file(path.as_ptr().cast::<c_char>(), null(), null(), 0, &mut out) };
    fails(code, Error::Utf8, "path");
    let whole = c_string(whole.to_str().unwrap());
    // SAFETY: as above.
    let code =
        unsafe { nnue_capi::nnue_net_load_file(whole.as_ptr(), path.as_ptr().cast::<c_char>(), null(), 0, &mut out) };
    fails(code, Error::Utf8, "arch");
    // SAFETY: as above.
    let code = unsafe {
        nnue_capi::nnue_net_load_memory(bytes.as_ptr(), bytes.len(), null(), path.as_ptr().cast(), 0, &mut out)
    };
    fails(code, Error::Utf8, "isa");
    assert!(out.is_null());
}

#[test]
fn messages() {
    let message = |code: c_int| {
        // SAFETY: a static NUL-terminated string.
        unsafe { CStr::from_ptr(nnue_error_message(code)) }.to_str().unwrap().to_owned()
    };
    assert_eq!(message(NNUE_OK), "ok");
    assert_eq!(message(-1), "unknown error code");
    assert_eq!(message(1000), "unknown error code");
    let mut seen = std::collections::HashSet::new();
    for (i, error) in Error::all().into_iter().enumerate() {
        assert_eq!(error.code(), i as c_int + 1, "codes are 1, 2, ... in order");
        let text = message(error.code());
        assert!(!text.is_empty() && text != "unknown error code" && seen.insert(text.clone()), "{error:?}: {text}");
    }
}

/// The last error is per thread.
#[test]
fn last_error_is_per_thread() {
    let net = net();
    let mut stack = net.stack();
    fails(stack.pop(), Error::NotReset, "nnue_stack_reset");
    std::thread::spawn(|| assert_eq!(common::last_error(), "")).join().unwrap();
    assert!(last_error().contains("nnue_stack_reset"));
}

/// A net released while its stacks live: they keep what they need.
#[test]
fn stacks_outlive_their_net() {
    let net = net();
    let mut stack = started(&net);
    let before = stack.evaluate(0).unwrap();
    // SAFETY: a live net; a second reference.
    assert_eq!(unsafe { nnue_capi::nnue_net_retain(net.0) }, NNUE_OK);
    // SAFETY: gives up the second reference.
    assert_eq!(unsafe { nnue_capi::nnue_net_release(net.0) }, NNUE_OK);
    drop(net);
    assert_eq!(stack.push(&[change(WHITE_PAWN, E2, E4)]), NNUE_OK);
    assert_eq!(stack.pop(), NNUE_OK);
    assert_eq!(stack.evaluate(0), Ok(before));
}
