//! C entry points for `tools/bullet-compare` (see `Cargo.toml`): load the
//! Obsidian net with `archs/bullet/obsidian.ron`, refresh an accumulator
//! from a FEN (untimed), evaluate it (timed by the caller).

use std::ffi::{CStr, c_char, c_int};

use nnue::runtime::{Color, Isa, LoadOptions};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

nnue::nnue!(include "bullet/obsidian.ron");

/// A loaded net and the one accumulator the harness times on.
pub struct Handle {
    net: obsidian::Network,
    accumulator: Box<obsidian::Accumulator>,
}

/// Loads the net at `path` for backend `isa` (a name of `nnue --isa`);
/// null on any error (printed to stderr).
///
/// # Safety
/// `path` and `isa` are NUL-terminated strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_ffi_load(path: *const c_char, isa: *const c_char) -> *mut Handle {
    // SAFETY: the caller passes NUL-terminated strings.
    let (path, isa) = unsafe { (CStr::from_ptr(path), CStr::from_ptr(isa)) };
    let loaded = (|| -> Result<Handle, String> {
        let isa = Isa::from_name(isa.to_str().map_err(|e| e.to_string())?)
            .and_then(Isa::require)
            .map_err(|e| e.to_string())?;
        let path = path.to_str().map_err(|e| e.to_string())?;
        let options = LoadOptions { isa: Some(isa), ..LoadOptions::default() };
        let net = obsidian::Network::from_file_with(path, options).map_err(|e| format!("{path}: {e}"))?;
        Ok(Handle { net, accumulator: Box::default() })
    })();
    match loaded {
        Ok(handle) => Box::into_raw(Box::new(handle)),
        Err(e) => {
            eprintln!("nnue_ffi_load: {e}");
            std::ptr::null_mut()
        }
    }
}

/// Refreshes the accumulator from `fen`; 0, or -1 for a FEN shakmaty
/// rejects.
///
/// # Safety
/// `handle` comes from [`nnue_ffi_load`] and is not used elsewhere during
/// the call; `fen` is a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_ffi_refresh(handle: *mut Handle, fen: *const c_char) -> c_int {
    // SAFETY: the caller passes a live handle, used by no one else now, and
    // a NUL-terminated string.
    let (handle, fen) = unsafe { (&mut *handle, CStr::from_ptr(fen)) };
    let position: Option<Chess> = Fen::from_ascii(fen.to_bytes())
        .ok()
        .and_then(|f| f.into_position(CastlingMode::Chess960).or_else(|e| e.ignore_invalid_castling_rights()).ok());
    match position {
        Some(position) => {
            handle.net.refresh(&position, &mut handle.accumulator);
            0
        }
        None => -1,
    }
}

/// Evaluates the refreshed accumulator: `white_to_move` and `pieces` (the
/// number of pieces on the board, kings included) as `nnue bench` passes
/// them; the net's output in Obsidian's units, from the side to move's
/// point of view.
///
/// # Safety
/// `handle` comes from [`nnue_ffi_load`] and is not being refreshed during
/// the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_ffi_evaluate(handle: *const Handle, white_to_move: c_int, pieces: c_int) -> c_int {
    // SAFETY: the caller passes a live handle that no one mutates now.
    let handle = unsafe { &*handle };
    let side = if white_to_move != 0 { Color::White } else { Color::Black };
    handle.net.evaluate_accumulator(&handle.accumulator, side, pieces as usize).value
}
