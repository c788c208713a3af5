//! Cache-line aligned storage for weights and buffers.
//!
//! The system allocator returns large blocks 16 bytes past a page boundary,
//! so a plain `Box<[i16]>` of weights puts every 32-byte AVX2 load across
//! two halves of a line and every 64-byte AVX-512 load across two lines.
//! Weights live in an [`AlignedSlice`], fixed-size buffers in [`Aligned`].

use core::fmt;
use core::marker::PhantomData;
use core::ops::{Deref, DerefMut};

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

/// One line of storage.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u8; ALIGN]);

/// A heap slice of `T` starting on a cache line; dereferences to `[T]`.
pub struct AlignedSlice<T: Plain> {
    lines: Box<[Line]>,
    len: usize,
    marker: PhantomData<T>,
}

impl<T: Plain> AlignedSlice<T> {
    /// `len` zeros.
    ///
    /// # Panics
    /// If `len` elements do not fit in the address space.
    pub fn zeroed(len: usize) -> Self {
        let bytes = len.checked_mul(size_of::<T>()).expect("slice length overflows usize");
        let lines = vec![Line([0; ALIGN]); bytes.div_ceil(ALIGN)].into_boxed_slice();
        AlignedSlice { lines, len, marker: PhantomData }
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
        // SAFETY: the lines hold at least `len * size_of::<T>()` initialised
        // bytes, start at a 64-byte boundary (a multiple of `T`'s alignment)
        // and any bytes are a valid `T` (`Plain`); the borrow of `self`
        // covers the returned slice.
        unsafe { core::slice::from_raw_parts(self.lines.as_ptr().cast::<T>(), self.len) }
    }
}

impl<T: Plain> DerefMut for AlignedSlice<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`; the unique borrow of `self` makes the slice
        // unique, and any `T` written keeps the bytes valid.
        unsafe { core::slice::from_raw_parts_mut(self.lines.as_mut_ptr().cast::<T>(), self.len) }
    }
}

impl<T: Plain> Clone for AlignedSlice<T> {
    fn clone(&self) -> Self {
        AlignedSlice { lines: self.lines.clone(), len: self.len, marker: PhantomData }
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
    fn aligned_values_start_on_a_cache_line() {
        let boxed = Box::new(Aligned([0u8; 3]));
        assert_eq!(&boxed.0 as *const u8 as usize % ALIGN, 0);
        let local = Aligned([0i16; 7]);
        assert_eq!(local.as_ptr() as usize % ALIGN, 0);
    }
}
