//! Cache-line aligned storage for weights and buffers.
//!
//! The system allocator returns large blocks 16 bytes past a page boundary,
//! so a plain `Box<[i16]>` of weights puts every 32-byte AVX2 load across
//! two halves of a line and every 64-byte AVX-512 load across two lines.
//! Weights live in an [`AlignedSlice`], fixed-size buffers in [`Aligned`].
//!
//! Large slices (a big net's transformer weights: 138 MB) start on a 2 MiB
//! boundary and, on Linux, are marked for transparent huge pages before they
//! are first written, as Stockfish does: a refresh reads some sixty weight
//! rows at scattered places, and with 4 KiB pages each costs TLB misses.

use core::fmt;
use core::marker::PhantomData;
use core::ops::{Deref, DerefMut};
use std::alloc::{Layout, alloc_zeroed, handle_alloc_error};

/// Bytes of alignment: a cache line, and the width of an AVX-512 register.
pub const ALIGN: usize = 64;

/// A value aligned to [`ALIGN`] bytes.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Aligned<T>(pub T);

impl<T> Deref for Aligned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for Aligned<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl<T, const N: usize> AsRef<[T]> for Aligned<[T; N]> {
    fn as_ref(&self) -> &[T] {
        &self.0
    }
}

impl<T, const N: usize> AsMut<[T]> for Aligned<[T; N]> {
    fn as_mut(&mut self) -> &mut [T] {
        &mut self.0
    }
}

/// Plain integer types, the element types of an [`AlignedSlice`].
///
/// # Safety
/// Every bit pattern of `size_of::<Self>()` bytes is a valid value, and the
/// alignment divides [`ALIGN`].
pub unsafe trait Plain: Copy + 'static {}

// SAFETY: integers of these widths accept every bit pattern; alignments 1, 1,
// 2, 4 divide 64.
unsafe impl Plain for u8 {}
// SAFETY: as above.
unsafe impl Plain for i8 {}
// SAFETY: as above.
unsafe impl Plain for i16 {}
// SAFETY: as above.
unsafe impl Plain for i32 {}
// SAFETY: every 32-bit pattern is an f32 (some are NaNs); alignment 4
// divides 64.
unsafe impl Plain for f32 {}

/// The unit of storage: 16 bytes, the largest alignment the system
/// allocator gives zeroed memory without writing it (`calloc`); slices
/// start at a suitable offset into their units.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct Unit([u8; UNIT]);

const UNIT: usize = 16;

/// Slices of at least this many bytes start on a multiple of it and are
/// advised into transparent huge pages (the x86-64 and AArch64 Linux huge
/// page size).
pub const HUGE_PAGE: usize = 2 << 20;

/// A heap slice of `T` starting on a cache line (on a huge page when it is
/// at least [`HUGE_PAGE`] bytes long); dereferences to `[T]`.
pub struct AlignedSlice<T: Plain> {
    /// The storage: the slice begins `start` units in.
    units: Box<[Unit]>,
    start: usize,
    len: usize,
    marker: PhantomData<T>,
}

/// `n` (at least one) zeroed units. With a 16-byte alignment the system
/// allocator returns zeroed memory without writing it (large blocks are
/// fresh pages), so the pages are not touched before [`advise_huge_pages`].
fn zeroed_units(n: usize) -> Box<[Unit]> {
    let layout = Layout::array::<Unit>(n).expect("slice length overflows the address space");
    assert!(layout.size() > 0);
    // SAFETY: `layout` has a non-zero size.
    let ptr = unsafe { alloc_zeroed(layout) }.cast::<Unit>();
    if ptr.is_null() {
        handle_alloc_error(layout);
    }
    // SAFETY: `ptr` is a fresh allocation of the global allocator with the
    // layout of `[Unit; n]`, which `Box<[Unit]>` frees with that layout, and
    // all-zero bytes are a valid `Unit`.
    unsafe { Box::from_raw(core::ptr::slice_from_raw_parts_mut(ptr, n)) }
}

/// Asks the kernel to back `bytes` bytes at `ptr` (a multiple of
/// [`HUGE_PAGE`], at a multiple of it) with transparent huge pages. Only a
/// hint: where the kernel does not do it, nothing changes.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut Unit, bytes: usize) {
    // SAFETY: `ptr..ptr + bytes` lies inside one live allocation of ours;
    // `MADV_HUGEPAGE` changes only how the kernel backs those pages, never
    // their contents, so no Rust reference observes a change. The result is
    // ignored: a kernel without THP support refuses, and that is fine.
    unsafe {
        libc::madvise(ptr.cast(), bytes, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut Unit, _bytes: usize) {}

impl<T: Plain> AlignedSlice<T> {
    /// `len` zeros.
    ///
    /// # Panics
    /// If `len` elements do not fit in the address space.
    pub fn zeroed(len: usize) -> Self {
        let bytes = len.checked_mul(size_of::<T>()).expect("slice length overflows usize");
        let needed = bytes.div_ceil(UNIT);
        let boundary = if bytes >= HUGE_PAGE { HUGE_PAGE } else { ALIGN };
        // Room to move the start up to the next boundary.
        let mut units = zeroed_units(needed + boundary / UNIT);
        let address = units.as_ptr() as usize;
        let start = (address.next_multiple_of(boundary) - address) / UNIT;
        if boundary == HUGE_PAGE {
            // SAFETY: `start < HUGE_PAGE / UNIT`, so the slice's `needed`
            // units from `start` lie in the allocation.
            let first = unsafe { units.as_mut_ptr().add(start) };
            // The whole huge pages of the slice (only whole ones can be huge).
            advise_huge_pages(first, needed * UNIT / HUGE_PAGE * HUGE_PAGE);
        }
        AlignedSlice { units, start, len, marker: PhantomData }
    }

    /// A copy of `values`.
    pub fn from_slice(values: &[T]) -> Self {
        let mut slice = Self::zeroed(values.len());
        slice.copy_from_slice(values);
        slice
    }
}

impl<T: Plain> Deref for AlignedSlice<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: from unit `start` on, the units hold at least
        // `len * size_of::<T>()` initialised bytes, start at a 64-byte (or
        // 2 MiB) boundary, a multiple of `T`'s alignment, and any bytes are a
        // valid `T` (`Plain`); the borrow of `self` covers the returned slice.
        unsafe { core::slice::from_raw_parts(self.units.as_ptr().add(self.start).cast::<T>(), self.len) }
    }
}

impl<T: Plain> DerefMut for AlignedSlice<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`; the unique borrow of `self` makes the slice
        // unique, and any `T` written keeps the bytes valid.
        unsafe { core::slice::from_raw_parts_mut(self.units.as_mut_ptr().add(self.start).cast::<T>(), self.len) }
    }
}

impl<T: Plain> Clone for AlignedSlice<T> {
    fn clone(&self) -> Self {
        AlignedSlice::from_slice(self)
    }
}

impl<T: Plain + fmt::Debug> fmt::Debug for AlignedSlice<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Plain + PartialEq> PartialEq for AlignedSlice<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

// What the kernels writing a layer's bytes into `MaybeUninit` buffers
// return.
/// `out` as the bytes it now holds.
///
/// # Safety
/// Every element of `out` has been written.
#[inline(always)]
pub(crate) unsafe fn assume_init_bytes(out: &mut [core::mem::MaybeUninit<u8>]) -> &mut [u8] {
    // SAFETY: `MaybeUninit<u8>` has the layout of `u8`, and the caller
    // guarantees that every element is initialised.
    unsafe { &mut *(out as *mut [core::mem::MaybeUninit<u8>] as *mut [u8]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_start_on_a_cache_line_and_hold_their_values() {
        for len in [0, 1, 31, 32, 33, 1000, 100_000] {
            let values: Vec<i16> = (0..len).map(|i| i as i16).collect();
            let slice = AlignedSlice::from_slice(&values);
            assert_eq!(slice.as_ptr() as usize % ALIGN, 0);
            assert_eq!(&*slice, &values[..]);
            assert_eq!(slice.clone(), slice);
        }
        let mut bytes = AlignedSlice::<i8>::zeroed(65);
        bytes[64] = -1;
        assert_eq!(bytes.iter().map(|&b| i32::from(b)).sum::<i32>(), -1);
    }

    #[test]
    fn large_slices_start_on_a_huge_page() {
        let len = HUGE_PAGE + HUGE_PAGE / 2 + 3;
        let mut slice = AlignedSlice::<i8>::zeroed(len);
        assert_eq!(slice.as_ptr() as usize % HUGE_PAGE, 0);
        assert_eq!(slice.len(), len);
        assert!(slice.iter().all(|&b| b == 0));
        slice[len - 1] = 7;
        slice[0] = -7;
        let copy = slice.clone();
        assert_eq!(copy.as_ptr() as usize % HUGE_PAGE, 0);
        assert_eq!((copy[0], copy[len - 1], copy.iter().map(|&b| i32::from(b)).sum::<i32>()), (-7, 7, 0));
    }

    #[test]
    fn aligned_values_start_on_a_cache_line() {
        let boxed = Box::new(Aligned([0u8; 3]));
        assert_eq!(&boxed.0 as *const u8 as usize % ALIGN, 0);
        let local = Aligned([0i16; 7]);
        assert_eq!(local.as_ptr() as usize % ALIGN, 0);
    }
}
