//! Shared by nnue-capi's tests: owning wrappers over the C API's handles,
//! positions and moves as it takes them, and the real nets.

#![allow(dead_code)]

/// The repository's test support (reference files, the backends to test).
#[path = "../../../tests/support/mod.rs"]
pub mod support;

use nnue_capi::{Eval, NNUE_OK, Net, PieceChange, PieceOn, Stack};
use std::ffi::{CStr, CString, c_char, c_int};
use std::path::{Path, PathBuf};

/// A net with one reference, released on drop.
pub struct NetRef(pub *const Net);

// SAFETY: the C API lets any number of threads use a net at once.
unsafe impl Send for NetRef {}
// SAFETY: as for `Send`.
unsafe impl Sync for NetRef {}

impl NetRef {
    /// `nnue_net_load_memory`.
    pub fn from_bytes(bytes: &[u8], arch: Option<&str>, isa: Option<&str>, flags: u32) -> Result<NetRef, c_int> {
        let (arch, isa) = (arch.map(c_string), isa.map(c_string));
        let mut net = std::ptr::null();
        // SAFETY: `bytes` is readable for its length; the strings are NUL-terminated or NULL; `net` is writable.
        let code = unsafe {
            nnue_capi::nnue_net_load_memory(bytes.as_ptr(), bytes.len(), ptr(&arch), ptr(&isa), flags, &mut net)
        };
        if code == NNUE_OK { Ok(NetRef(net)) } else { Err(code) }
    }

    /// `nnue_net_load_file`.
    pub fn from_file(path: &Path, arch: Option<&str>, isa: Option<&str>, flags: u32) -> Result<NetRef, c_int> {
        let path = c_string(path.to_str().expect("a UTF-8 path"));
        let (arch, isa) = (arch.map(c_string), isa.map(c_string));
        let mut net = std::ptr::null();
        // SAFETY: the strings are NUL-terminated or NULL; `net` is writable.
        let code = unsafe { nnue_capi::nnue_net_load_file(path.as_ptr(), ptr(&arch), ptr(&isa), flags, &mut net) };
        if code == NNUE_OK { Ok(NetRef(net)) } else { Err(code) }
    }

    /// The architecture's name.
    pub fn arch(&self) -> String {
        let mut name = std::ptr::null();
        // SAFETY: a live net; `name` is writable.
        assert_eq!(unsafe { nnue_capi::nnue_net_arch_name(self.0, &mut name) }, NNUE_OK);
        // SAFETY: a NUL-terminated string that lives as long as the net.
        unsafe { CStr::from_ptr(name) }.to_str().unwrap().to_owned()
    }

    /// The backend's name.
    pub fn isa(&self) -> String {
        let mut name = std::ptr::null();
        // SAFETY: a live net; `name` is writable.
        assert_eq!(unsafe { nnue_capi::nnue_net_isa_name(self.0, &mut name) }, NNUE_OK);
        // SAFETY: a NUL-terminated string that lives as long as the net.
        unsafe { CStr::from_ptr(name) }.to_str().unwrap().to_owned()
    }

    /// The number of buckets.
    pub fn buckets(&self) -> usize {
        let mut n = 0;
        // SAFETY: a live net; `n` is writable.
        assert_eq!(unsafe { nnue_capi::nnue_net_buckets(self.0, &mut n) }, NNUE_OK);
        n
    }

    /// A new stack.
    pub fn stack(&self) -> StackRef {
        let mut stack = std::ptr::null_mut();
        // SAFETY: a live net; `stack` is writable.
        assert_eq!(unsafe { nnue_capi::nnue_stack_new(self.0, &mut stack) }, NNUE_OK);
        StackRef(stack)
    }
}

impl Drop for NetRef {
    fn drop(&mut self) {
        // SAFETY: this wrapper holds one reference, given up here.
        assert_eq!(unsafe { nnue_capi::nnue_net_release(self.0) }, NNUE_OK);
    }
}

/// `nnue_stack_new_multi` over `nets` (all kept alive by the stack).
pub fn multi_stack(nets: &[*const Net]) -> Result<StackRef, c_int> {
    let mut stack = std::ptr::null_mut();
    // SAFETY: `nets` is readable for its length; `stack` is writable.
    let code = unsafe { nnue_capi::nnue_stack_new_multi(nets.as_ptr(), nets.len(), &mut stack) };
    if code == NNUE_OK { Ok(StackRef(stack)) } else { Err(code) }
}

/// A stack, freed on drop.
pub struct StackRef(pub *mut Stack);

// SAFETY: a stack may move between threads.
unsafe impl Send for StackRef {}

impl StackRef {
    pub fn reset(&mut self, pieces: &[PieceOn]) -> c_int {
        // SAFETY: a live stack used by this thread only; `pieces` readable for its length.
        unsafe { nnue_capi::nnue_stack_reset(self.0, pieces.as_ptr(), pieces.len()) }
    }

    pub fn push(&mut self, changes: &[PieceChange]) -> c_int {
        // SAFETY: a live stack used by this thread only; `changes` readable for its length.
        unsafe { nnue_capi::nnue_stack_push(self.0, changes.as_ptr(), changes.len()) }
    }

    pub fn pop(&mut self) -> c_int {
        // SAFETY: a live stack used by this thread only.
        unsafe { nnue_capi::nnue_stack_pop(self.0) }
    }

    pub fn ply(&self) -> Result<usize, c_int> {
        let mut ply = 0;
        // SAFETY: a live stack used by this thread only; `ply` is writable.
        let code = unsafe { nnue_capi::nnue_stack_ply(self.0, &mut ply) };
        if code == NNUE_OK { Ok(ply) } else { Err(code) }
    }

    pub fn evaluate(&mut self, side_to_move: c_int) -> Result<Eval, c_int> {
        let mut eval = Eval::default();
        // SAFETY: a live stack used by this thread only; `eval` is writable.
        let code = unsafe { nnue_capi::nnue_stack_evaluate(self.0, side_to_move, &mut eval) };
        if code == NNUE_OK { Ok(eval) } else { Err(code) }
    }

    /// `nnue_stack_evaluate_net`.
    pub fn evaluate_net(&mut self, net_index: usize, side_to_move: c_int) -> Result<Eval, c_int> {
        let mut eval = Eval::default();
        // SAFETY: a live stack used by this thread only; `eval` is writable.
        let code = unsafe { nnue_capi::nnue_stack_evaluate_net(self.0, net_index, side_to_move, &mut eval) };
        if code == NNUE_OK { Ok(eval) } else { Err(code) }
    }

    /// Every bucket's evaluation, into a buffer of `len`.
    pub fn evaluate_buckets(&mut self, side_to_move: c_int, len: usize) -> Result<Vec<Eval>, c_int> {
        let mut evals = vec![Eval::default(); len];
        // SAFETY: a live stack used by this thread only; `evals` is writable for `len` values.
        let code = unsafe { nnue_capi::nnue_stack_evaluate_buckets(self.0, side_to_move, evals.as_mut_ptr(), len) };
        if code == NNUE_OK { Ok(evals) } else { Err(code) }
    }
}

impl Drop for StackRef {
    fn drop(&mut self) {
        // SAFETY: this wrapper owns the stack.
        assert_eq!(unsafe { nnue_capi::nnue_stack_free(self.0) }, NNUE_OK);
    }
}

pub fn c_string(s: &str) -> CString {
    CString::new(s).expect("no NUL in test strings")
}

/// The pointer of an optional C string (NULL for none).
pub fn ptr(s: &Option<CString>) -> *const c_char {
    s.as_ref().map_or(std::ptr::null(), |s| s.as_ptr())
}

/// The calling thread's last error text.
pub fn last_error() -> String {
    // SAFETY: a NUL-terminated string valid until the next failing call on this thread.
    unsafe { CStr::from_ptr(nnue_capi::nnue_last_error()) }.to_string_lossy().into_owned()
}

/// The C API's piece code of a shakmaty piece.
pub fn piece_code(piece: shakmaty::Piece) -> u8 {
    let kind = match piece.role {
        shakmaty::Role::Pawn => 0,
        shakmaty::Role::Knight => 1,
        shakmaty::Role::Bishop => 2,
        shakmaty::Role::Rook => 3,
        shakmaty::Role::Queen => 4,
        shakmaty::Role::King => 5,
    };
    6 * u8::from(piece.color.is_black()) + kind
}

/// A position's pieces, as `nnue_stack_reset` takes them.
pub fn pieces(pos: &shakmaty::Chess) -> Vec<PieceOn> {
    use shakmaty::Position as _;
    pos.board().iter().map(|(square, piece)| PieceOn { square: u8::from(square), piece: piece_code(piece) }).collect()
}

/// The side to move, as the C API takes it.
pub fn side(pos: &shakmaty::Chess) -> c_int {
    use shakmaty::Position as _;
    c_int::from(pos.turn().is_black())
}

/// A move's piece changes, as `nnue_stack_push` takes them (from the
/// runtime's own adapter).
pub fn changes(pos: &shakmaty::Chess, m: &shakmaty::Move) -> Vec<PieceChange> {
    let square = |s: Option<nnue::runtime::Square>| s.map_or(nnue_capi::NNUE_NO_SQUARE, |s| s.index() as u8);
    nnue::runtime::shakmaty::move_changes(pos, m)
        .iter()
        .map(|c| PieceChange {
            piece: 6 * c.piece.color.index() as u8 + c.piece.kind as u8,
            from: square(c.from),
            to: square(c.to),
        })
        .collect()
}

/// A FEN as a position.
pub fn chess(fen: &str) -> shakmaty::Chess {
    nnue::runtime::shakmaty::chess_from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The start position.
pub fn start() -> shakmaty::Chess {
    shakmaty::Chess::default()
}

/// A random net of the small net's architecture (sfnnv9-small).
pub fn random_net() -> Vec<u8> {
    nnue_capi::archs::sfnnv9_small::random_net_file(1)
}

/// The path of a real net, where the tests find nets: `$NNUE_NETS_DIR` (or
/// the repository's `.cache/nets`), then `~/.cache/nnue/nets`. Without it
/// `test` cannot run: under `CI=true` that fails the test; otherwise it is
/// said on stderr that the test did not run, and the answer is `None`.
pub fn real_net(name: &str, test: &str) -> Option<PathBuf> {
    let home = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/nnue/nets"));
    let dirs = [Some(support::nets_dir()), home];
    if let Some(path) = dirs.iter().flatten().map(|d| d.join(name)).find(|p| p.is_file()) {
        return Some(path);
    }
    let why = format!(
        "net {name} is in none of {:?} (fetch it: python3 tools/fetch-nets.py --dest .cache/nets {name})",
        dirs.iter().flatten().collect::<Vec<_>>()
    );
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true: {why}");
    }
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "NOT RUN: {test}: {why}");
    None
}

/// A small deterministic generator (xorshift64*), for random walks.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}
