//! The boundary: every exported function runs its body through [`guard`],
//! so that a panic never unwinds into C and every failure becomes a code.

use crate::error::{Error, Failure, NNUE_OK};
use std::ffi::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Runs `body`: `NNUE_OK` if it succeeds, else its failure's code (the
/// detail kept for `nnue_last_error`); a panic is caught and becomes
/// `NNUE_ERROR_PANIC`.
///
/// `body` is asserted unwind-safe: what it leaves half-done when it panics
/// is a stack, which the stack's functions mark as needing a reset (see
/// [`crate::stack`]); the net it reads is never changed after loading.
pub(crate) fn guard(body: impl FnOnce() -> Result<(), Failure>) -> c_int {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => NNUE_OK,
        Ok(Err(failure)) => failure.record(),
        Err(payload) => {
            let detail = match (payload.downcast_ref::<&str>(), payload.downcast_ref::<String>()) {
                (Some(text), _) => (*text).to_owned(),
                (_, Some(text)) => text.clone(),
                _ => "a panic without a message".to_owned(),
            };
            // A payload whose drop panicked would unwind from here: it is
            // leaked instead (a panic is a bug; this is its only cost).
            std::mem::forget(payload);
            Failure::new(Error::Panic, detail).record()
        }
    }
}
