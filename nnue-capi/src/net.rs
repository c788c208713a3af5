//! `nnue_net`: a loaded network, read-only, shared by every thread and
//! reference counted.

use crate::args::{Out, optional_str, required_str, shared, slice};
use crate::erased::ErasedNet;
use crate::error::{Error, Failure};
use crate::guard::guard;
use crate::load::{Source, load, options};
use std::ffi::{CString, c_char, c_int};
use std::path::Path;
use std::sync::Arc;

/// A loaded network (opaque): shared read-only by any number of threads,
/// reference counted (`nnue_net_retain`, `nnue_net_release`); each stack
/// made from it keeps it alive.
pub struct Net {
    pub(crate) inner: Box<dyn ErasedNet>,
    arch: CString,
    isa: CString,
    description: CString,
}

impl Net {
    /// A reference-counted handle to `inner`, with its names as C strings.
    fn publish(inner: Box<dyn ErasedNet>) -> *const Net {
        let any = inner.any();
        let text = |s: &str| CString::new(s.replace('\0', "\\0")).unwrap_or_default();
        let (arch, isa, description) = (text(any.arch().name), text(any.isa().name()), text(any.description()));
        Arc::into_raw(Arc::new(Net { inner, arch, isa, description }))
    }
}

/// Loads the net file at `path` (UTF-8).
///
/// `arch`: the architecture's name (`"sfnnv10"`, `"sfnnv9-small"`,
/// `"obsidian"`) or its file under nnue's `archs/` (`"bullet/obsidian.ron"`);
/// NULL: the shipped architecture whose version and header hash the file's
/// header has (a bullet net has no header: name its architecture). `isa`:
/// the backend's name (`"scalar"`, `"avx2"`, `"avx-vnni"`, `"avx512"`,
/// `"avx512-vnni"`, `"neon"`, `"neon-dotprod"`); NULL: the one the
/// environment variable `NNUE_ISA` names, else the best this CPU runs.
/// `flags`: 0 or `NNUE_LOAD_ALLOW_OVERFLOW`.
///
/// On success `*out_net` is a new net with one reference (release it with
/// `nnue_net_release`); on failure it is left as it was.
///
/// # Safety
/// `path`, and `arch` and `isa` unless NULL, are NUL-terminated strings;
/// `out_net` is NULL or valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_net_load_file(
    path: *const c_char,
    arch: *const c_char,
    isa: *const c_char,
    flags: u32,
    out_net: *mut *const Net,
) -> c_int {
    guard(|| {
        let out = Out::new(out_net, "out_net")?;
        // SAFETY: NUL-terminated strings or NULL, by the caller's promise.
        let (path, arch, isa) =
            unsafe { (required_str(path, "path")?, optional_str(arch, "arch")?, optional_str(isa, "isa")?) };
        let options = options(isa, flags)?;
        let path = Path::new(path);
        // A net found by its header is read twice; what can be read only
        // once (a pipe) is read whole first.
        let net = if arch.is_none() && std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            let bytes = std::fs::read(path)
                .map_err(|e| Failure::new(Error::Io, format!("cannot read {}: {e}", path.display())))?;
            load(Source::Bytes(&bytes), arch, options)?
        } else {
            load(Source::File(path), arch, options)?
        };
        // SAFETY: `out_net` is valid for writing, by the caller's promise.
        unsafe { out.write(Net::publish(net)) };
        Ok(())
    })
}

/// Loads a net file held in memory: `len` bytes at `bytes` (which the
/// library does not keep). `arch`, `isa`, `flags` and `out_net` as for
/// `nnue_net_load_file`.
///
/// # Safety
/// `bytes` is NULL or points to `len` readable bytes; `arch` and `isa` are
/// NULL or NUL-terminated strings; `out_net` is NULL or valid for writing a
/// pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_net_load_memory(
    bytes: *const u8,
    len: usize,
    arch: *const c_char,
    isa: *const c_char,
    flags: u32,
    out_net: *mut *const Net,
) -> c_int {
    guard(|| {
        let out = Out::new(out_net, "out_net")?;
        // SAFETY: readable bytes and NUL-terminated strings or NULL, by the caller's promise.
        let (bytes, arch, isa) =
            unsafe { (slice(bytes, len, "bytes")?, optional_str(arch, "arch")?, optional_str(isa, "isa")?) };
        let net = load(Source::Bytes(bytes), arch, options(isa, flags)?)?;
        // SAFETY: `out_net` is valid for writing, by the caller's promise.
        unsafe { out.write(Net::publish(net)) };
        Ok(())
    })
}

/// Adds a reference to `net`.
///
/// # Safety
/// `net` is NULL or a net that a load returned and that still has a
/// reference.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_net_retain(net: *const Net) -> c_int {
    guard(|| {
        // SAFETY: a live net or NULL, by the caller's promise (NULL is refused).
        unsafe { shared(net, "net")? };
        // SAFETY: `net` came from `Arc::into_raw` in `Net::publish` and has a reference.
        unsafe { Arc::increment_strong_count(net) };
        Ok(())
    })
}

/// Drops a reference to `net`; the last one frees it (stacks made from it
/// keep what they need). NULL is allowed and does nothing.
///
/// # Safety
/// `net` is NULL or a net that a load returned and that still has a
/// reference, which the caller gives up.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_net_release(net: *const Net) -> c_int {
    guard(|| {
        if net.is_null() {
            return Ok(());
        }
        // SAFETY: a live net, by the caller's promise (checked for alignment).
        unsafe { shared(net, "net")? };
        // SAFETY: `net` came from `Arc::into_raw` in `Net::publish`, and the caller gives up its reference.
        unsafe { Arc::decrement_strong_count(net) };
        Ok(())
    })
}

/// Writes to `*out` a fact of `net`.
///
/// # Safety
/// `net` is NULL or a live net; `out` is NULL or valid for writing a `T`.
unsafe fn fact<T>(net: *const Net, out: *mut T, get: impl FnOnce(&Net) -> T) -> c_int {
    guard(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: a live net or NULL, by the caller's promise.
        let net = unsafe { shared(net, "net")? };
        // SAFETY: valid for writing, by the caller's promise.
        unsafe { out.write(get(net)) };
        Ok(())
    })
}

/// The architecture's name (`"sfnnv10"`), valid while `net` lives.
///
/// # Safety
/// `net` is NULL or a live net; `out_name` is NULL or valid for writing a
/// pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_net_arch_name(net: *const Net, out_name: *mut *const c_char) -> c_int {
    // SAFETY: the caller's promise is `fact`'s.
    unsafe { fact(net, out_name, |n| n.arch.as_ptr()) }
}

/// The backend's name (`"avx2"`), valid while `net` lives.
///
/// # Safety
/// As for `nnue_net_arch_name`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_net_isa_name(net: *const Net, out_name: *mut *const c_char) -> c_int {
    // SAFETY: the caller's promise is `fact`'s.
    unsafe { fact(net, out_name, |n| n.isa.as_ptr()) }
}

/// The description stored in the net file, valid while `net` lives.
///
/// # Safety
/// As for `nnue_net_arch_name`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_net_description(net: *const Net, out_description: *mut *const c_char) -> c_int {
    // SAFETY: the caller's promise is `fact`'s.
    unsafe { fact(net, out_description, |n| n.description.as_ptr()) }
}

/// The number of output buckets (layer stacks): the length
/// `nnue_stack_evaluate_buckets` fills.
///
/// # Safety
/// `net` is NULL or a live net; `out_buckets` is NULL or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nnue_net_buckets(net: *const Net, out_buckets: *mut usize) -> c_int {
    // SAFETY: the caller's promise is `fact`'s.
    unsafe { fact(net, out_buckets, |n| n.inner.buckets()) }
}
