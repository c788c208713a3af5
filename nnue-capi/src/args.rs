//! Reading a C caller's arguments: pointers checked for NULL and alignment,
//! strings for UTF-8, before anything is done with them.

use crate::error::{Error, Failure};
use std::ffi::{CStr, c_char};

/// The failure of a NULL or misaligned pointer argument.
fn bad_pointer<T>(ptr: *const T, what: &str) -> Failure {
    let why = if ptr.is_null() { "NULL" } else { "misaligned" };
    Failure::new(Error::NullPointer, format!("{what} is {why}"))
}

/// `ptr` as a shared reference.
///
/// # Safety
/// If `ptr` is neither NULL nor misaligned, it points to a valid `T` that
/// nothing writes to for `'a`.
pub(crate) unsafe fn shared<'a, T>(ptr: *const T, what: &str) -> Result<&'a T, Failure> {
    if ptr.is_null() || !ptr.is_aligned() {
        return Err(bad_pointer(ptr, what));
    }
    // SAFETY: non-NULL and aligned, and valid by the caller's promise.
    Ok(unsafe { &*ptr })
}

/// `ptr` as an exclusive reference.
///
/// # Safety
/// If `ptr` is neither NULL nor misaligned, it points to a valid `T` that
/// nothing else reads or writes for `'a`.
pub(crate) unsafe fn exclusive<'a, T>(ptr: *mut T, what: &str) -> Result<&'a mut T, Failure> {
    if ptr.is_null() || !ptr.is_aligned() {
        return Err(bad_pointer(ptr, what));
    }
    // SAFETY: non-NULL and aligned, and valid and unaliased by the caller's promise.
    Ok(unsafe { &mut *ptr })
}

/// A checked place to write a `T` to (an out-parameter), so that it is
/// checked before the work whose result it receives.
pub(crate) struct Out<T>(*mut T);

impl<T> Out<T> {
    /// `ptr` if it is neither NULL nor misaligned.
    pub(crate) fn new(ptr: *mut T, what: &str) -> Result<Out<T>, Failure> {
        if ptr.is_null() || !ptr.is_aligned() {
            return Err(bad_pointer(ptr, what));
        }
        Ok(Out(ptr))
    }

    /// Writes `value` (without dropping what was there: C memory holds no
    /// Rust values).
    ///
    /// # Safety
    /// The pointer given to [`Out::new`] is valid for writing a `T`.
    pub(crate) unsafe fn write(self, value: T) {
        // SAFETY: non-NULL and aligned (checked by `new`), writable by the caller's promise.
        unsafe { self.0.write(value) }
    }
}

/// `len` values at `ptr`.
///
/// # Safety
/// If `ptr` is neither NULL nor misaligned, it points to `len` valid values
/// of `T` that nothing writes to for `'a`.
pub(crate) unsafe fn slice<'a, T>(ptr: *const T, len: usize, what: &str) -> Result<&'a [T], Failure> {
    if ptr.is_null() || !ptr.is_aligned() {
        return Err(bad_pointer(ptr, what));
    }
    if len.checked_mul(size_of::<T>()).is_none_or(|bytes| bytes > isize::MAX as usize) {
        return Err(Failure::new(Error::Buffer, format!("{what}: {len} values cannot be in memory")));
    }
    // SAFETY: non-NULL, aligned, at most isize::MAX bytes, and valid by the caller's promise.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// A NUL-terminated UTF-8 string; NULL gives `None`.
///
/// # Safety
/// If `ptr` is not NULL, it points to a NUL-terminated string that nothing
/// writes to for `'a`.
pub(crate) unsafe fn optional_str<'a>(ptr: *const c_char, what: &str) -> Result<Option<&'a str>, Failure> {
    if ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's promise.
    let text = unsafe { CStr::from_ptr(ptr) };
    text.to_str().map(Some).map_err(|e| Failure::new(Error::Utf8, format!("{what}: {e}")))
}

/// A NUL-terminated UTF-8 string that must be given.
///
/// # Safety
/// As for [`optional_str`].
pub(crate) unsafe fn required_str<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Failure> {
    // SAFETY: the caller's promise is `optional_str`'s.
    unsafe { optional_str(ptr, what) }?.ok_or_else(|| bad_pointer(ptr, what))
}
