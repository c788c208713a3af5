//! The error codes, their messages, and the detail of a thread's last
//! failure: `nnue_error_message`, `nnue_last_error`.

use std::cell::RefCell;
use std::ffi::{CString, c_char, c_int};

/// What every function returns when it succeeds.
pub const NNUE_OK: c_int = 0;

/// Why a call failed: every function returns `NNUE_OK` (0) or one of these.
/// A call that fails changes nothing (a stack stays as it was), except
/// `NNUE_ERROR_PANIC`, after which a stack must be reset.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Error {
    /// A pointer argument is NULL (or not aligned for its type).
    NullPointer = 1,
    /// The net file cannot be read.
    Io = 2,
    /// The net file is not a valid net of its architecture: truncated,
    /// another version or hash, broken LEB128 blocks, trailing bytes.
    Format = 3,
    /// No shipped architecture has this name, or the net's header hash.
    UnknownArch = 4,
    /// No backend has this name, or this CPU lacks it.
    Isa = 5,
    /// The net's overflow proof fails (some value can wrap in some
    /// position); `NNUE_LOAD_ALLOW_OVERFLOW` loads it anyway.
    OverflowProof = 6,
    /// The architecture has no incremental accumulator, so no stack.
    NotIncremental = 7,
    /// A square is not 0..=63 (nor `NNUE_NO_SQUARE` where that is allowed).
    Square = 8,
    /// A piece code is not 0..=11.
    Piece = 9,
    /// Two pieces on one square, or a piece moved onto an occupied one.
    Occupied = 10,
    /// A side has no king, or more than one.
    Kings = 11,
    /// More than `NNUE_MAX_PIECES` pieces.
    TooManyPieces = 12,
    /// More than `NNUE_MAX_CHANGES` piece changes in one move.
    TooManyChanges = 13,
    /// A change that neither leaves nor lands on a square, or removes a
    /// piece that is not on its `from` square.
    BadChange = 14,
    /// A pop with no move pushed since the reset.
    EmptyStack = 15,
    /// A push, pop or evaluation on a stack never reset (or reset by a panic).
    NotReset = 16,
    /// An output buffer too short.
    Buffer = 17,
    /// A string argument is not UTF-8.
    Utf8 = 18,
    /// A bug in the library: a panic, caught at the boundary. The stack it
    /// happened on must be reset.
    Panic = 19,
    /// A side to move that is neither 0 (white) nor 1 (black).
    Side = 20,
    /// A push beyond `NNUE_MAX_PLY` moves from the reset.
    StackFull = 21,
    /// Unknown bits in a load call's `flags`.
    Flags = 22,
    /// A stack asked for no net or more than `NNUE_MAX_NETS`, or a net
    /// index that the stack does not have.
    NetIndex = 23,
}

/// Every code, in order.
const ALL: [Error; 23] = [
    Error::NullPointer,
    Error::Io,
    Error::Format,
    Error::UnknownArch,
    Error::Isa,
    Error::OverflowProof,
    Error::NotIncremental,
    Error::Square,
    Error::Piece,
    Error::Occupied,
    Error::Kings,
    Error::TooManyPieces,
    Error::TooManyChanges,
    Error::BadChange,
    Error::EmptyStack,
    Error::NotReset,
    Error::Buffer,
    Error::Utf8,
    Error::Panic,
    Error::Side,
    Error::StackFull,
    Error::Flags,
    Error::NetIndex,
];

impl Error {
    /// Every code, in order.
    pub fn all() -> [Error; 23] {
        ALL
    }

    /// The code a C caller sees.
    pub fn code(self) -> c_int {
        self as c_int
    }

    /// The error of `code`, if it is one.
    pub fn from_code(code: c_int) -> Option<Error> {
        ALL.into_iter().find(|e| e.code() == code)
    }

    /// One line saying what the code means.
    pub fn message(self) -> &'static std::ffi::CStr {
        match self {
            Error::NullPointer => c"a pointer argument is NULL or misaligned",
            Error::Io => c"the net file cannot be read",
            Error::Format => c"not a valid net file of its architecture",
            Error::UnknownArch => c"no shipped architecture has this name or header hash",
            Error::Isa => c"unknown backend, or this CPU lacks it",
            Error::OverflowProof => c"the net's overflow proof fails (NNUE_LOAD_ALLOW_OVERFLOW loads it anyway)",
            Error::NotIncremental => c"the architecture has no incremental accumulator stack",
            Error::Square => c"a square is out of range",
            Error::Piece => c"a piece code is out of range",
            Error::Occupied => c"two pieces on one square",
            Error::Kings => c"a side does not have exactly one king",
            Error::TooManyPieces => c"more than 32 pieces",
            Error::TooManyChanges => c"more than 3 piece changes in a move",
            Error::BadChange => c"a piece change does not fit the board",
            Error::EmptyStack => c"no move to pop",
            Error::NotReset => c"the stack has not been reset",
            Error::Buffer => c"the output buffer is too short",
            Error::Utf8 => c"a string argument is not UTF-8",
            Error::Panic => c"internal error (a panic, caught); reset the stack",
            Error::Side => c"the side to move is neither 0 (white) nor 1 (black)",
            Error::StackFull => c"more moves pushed than NNUE_MAX_PLY",
            Error::Flags => c"unknown flags",
            Error::NetIndex => c"a net count or net index out of range",
        }
    }
}

/// A failed call: its code and what exactly went wrong, for
/// `nnue_last_error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub error: Error,
    pub detail: String,
}

impl Failure {
    pub fn new(error: Error, detail: impl Into<String>) -> Failure {
        Failure { error, detail: detail.into() }
    }

    /// Stores the detail as this thread's last error and returns the code.
    pub(crate) fn record(self) -> c_int {
        let text = format!("{}: {}", self.error.message().to_string_lossy(), self.detail);
        let text = CString::new(text.replace('\0', "\\0")).unwrap_or_default();
        // After the thread's locals are destroyed there is nowhere to keep it.
        let _ = LAST_ERROR.try_with(|last| *last.borrow_mut() = text);
        self.error.code()
    }
}

/// Why a net did not load, as a code; the detail is the error's text.
impl From<nnue::runtime::LoadError> for Failure {
    fn from(e: nnue::runtime::LoadError) -> Failure {
        use nnue::runtime::LoadError;
        let error = match &e {
            LoadError::Isa(_) => Error::Isa,
            LoadError::Io { .. } => Error::Io,
            LoadError::Overflow { .. } => Error::OverflowProof,
            LoadError::UnknownArchitecture { .. } => Error::UnknownArch,
            _ => Error::Format,
        };
        Failure::new(error, e.to_string())
    }
}

thread_local! {
    /// The text of this thread's last failure.
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// A static, NUL-terminated line describing `code` (`"ok"` for `NNUE_OK`,
/// `"unknown error code"` for a value that is no code). Never NULL.
#[unsafe(no_mangle)]
pub extern "C" fn nnue_error_message(code: c_int) -> *const c_char {
    let message = std::panic::catch_unwind(|| match Error::from_code(code) {
        Some(error) => error.message(),
        None if code == NNUE_OK => c"ok",
        None => c"unknown error code",
    });
    message.unwrap_or(c"unknown error code").as_ptr()
}

/// What the last failed call on this thread said: the code's message and
/// the detail (which argument, which square, the load error's text with
/// its file offset). An empty string if no call on this thread has failed.
/// The text belongs to the library and stays valid until the next failing
/// call on this thread. Never NULL.
#[unsafe(no_mangle)]
pub extern "C" fn nnue_last_error() -> *const c_char {
    // `with` on the thread's locals cannot panic here; `try_with` fails
    // only while the thread exits.
    std::panic::catch_unwind(|| LAST_ERROR.try_with(|last| last.borrow().as_ptr()).ok())
        .ok()
        .flatten()
        .unwrap_or(c"".as_ptr())
}
