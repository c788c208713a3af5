//! A fixed-capacity list of active features: [`super::FeatureList`] for the
//! per-piece sets (one per piece), larger for sets with more active features
//! than pieces on a board (FullThreats: up to 256).

use core::fmt;
use core::mem::MaybeUninit;

/// At most `N` feature indices; features beyond `N` (impossible for a set
/// whose `MAX_ACTIVE` is `N`) are counted, not stored. The storage is not
/// initialised (a threat set's buffers hold hundreds of entries and are made
/// per move): only the first `len` entries are ever read.
///
/// Make each buffer with its own `let`: a tuple or closure returning two is
/// built and then copied whole (two calls to `memcpy` of 1168 bytes each on
/// the threat nets, 2.75 % of Stockfish 18's search with the library; a
/// closure variant in the stack's update measured 7 % slower).
pub struct FeatureBuffer<const N: usize> {
    len: usize,
    dropped: usize,
    items: [MaybeUninit<u32>; N],
}

impl<const N: usize> FeatureBuffer<N> {
    /// `K` empty buffers, their storage left unwritten (see
    /// [`super::SetLists`]).
    #[inline(always)]
    pub(super) fn empty_array<const K: usize>() -> [Self; K] {
        let mut buffers = MaybeUninit::<[Self; K]>::uninit();
        let first = buffers.as_mut_ptr().cast::<Self>();
        for i in 0..K {
            // SAFETY: `i < K`, within the array; the fields are written
            // through raw pointers, without reading or referencing the
            // uninitialised buffer.
            unsafe {
                let buffer = first.add(i);
                core::ptr::addr_of_mut!((*buffer).len).write(0);
                core::ptr::addr_of_mut!((*buffer).dropped).write(0);
            }
        }
        // SAFETY: every buffer's `len` and `dropped` are written above, and
        // its `items` (`MaybeUninit`) need no initialisation.
        unsafe { buffers.assume_init() }
    }
}

impl<const N: usize> Default for FeatureBuffer<N> {
    #[inline]
    fn default() -> Self {
        FeatureBuffer { len: 0, dropped: 0, items: [MaybeUninit::uninit(); N] }
    }
}

impl<const N: usize> Clone for FeatureBuffer<N> {
    fn clone(&self) -> Self {
        let mut copy = Self::default();
        copy.items[..self.len].copy_from_slice(&self.items[..self.len]);
        copy.len = self.len;
        copy.dropped = self.dropped;
        copy
    }
}

impl<const N: usize> fmt::Debug for FeatureBuffer<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FeatureBuffer").field("features", &self.as_slice()).field("dropped", &self.dropped).finish()
    }
}

/// Buffers are equal when they hold the same features in the same order and
/// dropped as many.
impl<const N: usize> PartialEq for FeatureBuffer<N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice() && self.dropped == other.dropped
    }
}

impl<const N: usize> Eq for FeatureBuffer<N> {}

impl<const N: usize> FeatureBuffer<N> {
    #[inline]
    pub fn push(&mut self, index: usize) {
        if self.len < N {
            self.items[self.len] = MaybeUninit::new(index as u32);
            self.len += 1;
        } else {
            self.dropped += 1;
        }
    }

    /// Appends `index` if `keep`, with no branch on `keep` (the entry past
    /// the end is written either way).
    #[inline]
    pub fn push_if(&mut self, index: usize, keep: bool) {
        if self.len < N {
            self.items[self.len] = MaybeUninit::new(index as u32);
            self.len += usize::from(keep);
        } else {
            self.dropped += usize::from(keep);
        }
    }

    /// Appends `offset + (square ^ orientation)` for every square of
    /// `bitboard` (bit `i` for the square of index `i`), squares ascending:
    /// one piece kind's features. The length stays in a register while the
    /// squares are written, unlike a [`push`](Self::push) per square.
    #[inline]
    pub fn push_squares(&mut self, mut bitboard: u64, offset: usize, orientation: u8) {
        let (offset, orientation, mut len) = (offset as u32, u32::from(orientation), self.len);
        while bitboard != 0 {
            let Some(item) = self.items.get_mut(len) else {
                // Full: the squares left are counted, not stored.
                self.dropped += bitboard.count_ones() as usize;
                break;
            };
            *item = MaybeUninit::new(offset + (bitboard.trailing_zeros() ^ orientation));
            len += 1;
            bitboard &= bitboard - 1;
        }
        self.len = len;
    }

    /// For every square of `bitboard` (ascending), the two features
    /// `features` gives for the square's index, one appended to each list
    /// (both perspectives' features of the pieces on those squares), the
    /// lengths kept in registers. Once a list is full, the squares left are
    /// pushed one by one, counted where they do not fit.
    #[inline]
    pub fn push_squares_pair_with(lists: [&mut Self; 2], mut bitboard: u64, features: impl Fn(u32) -> [u32; 2]) {
        let [a, b] = lists;
        let mut len = [a.len, b.len];
        while bitboard != 0 {
            let square = bitboard.trailing_zeros();
            let (Some(x), Some(y)) = (a.items.get_mut(len[0]), b.items.get_mut(len[1])) else {
                // A list is full: the squares left are pushed one by one,
                // counted where they do not fit (`count_ones` is not one
                // instruction on x86-64's baseline, so not above).
                (a.len, b.len) = (len[0], len[1]);
                while bitboard != 0 {
                    let [f, g] = features(bitboard.trailing_zeros());
                    a.push(f as usize);
                    b.push(g as usize);
                    bitboard &= bitboard - 1;
                }
                return;
            };
            let [f, g] = features(square);
            *x = MaybeUninit::new(f);
            *y = MaybeUninit::new(g);
            len = [len[0] + 1, len[1] + 1];
            bitboard &= bitboard - 1;
        }
        (a.len, b.len) = (len[0], len[1]);
    }

    /// Empties the buffer.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.dropped = 0;
    }

    /// The features, in the order they were pushed.
    #[inline]
    pub fn as_slice(&self) -> &[u32] {
        // SAFETY: the first `len` entries were written by `push` (or copied
        // from written ones by `clone`), and `MaybeUninit<u32>` has the
        // layout of `u32`.
        unsafe { core::slice::from_raw_parts(self.items.as_ptr().cast::<u32>(), self.len) }
    }

    /// The features, mutable.
    #[inline]
    pub(super) fn as_mut_slice(&mut self) -> &mut [u32] {
        // SAFETY: as for `as_slice`.
        unsafe { core::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast::<u32>(), self.len) }
    }

    /// Sorts the features.
    pub fn sort_unstable(&mut self) {
        self.as_mut_slice().sort_unstable();
    }

    /// How many features did not fit (zero for a legal position and a set
    /// whose `MAX_ACTIVE` is at most `N`).
    pub fn dropped(&self) -> usize {
        self.dropped
    }
}

/// A list that features are collected in: a [`FeatureBuffer`] of some
/// capacity. Code generic over a network collects a move's changed features
/// in the network's own list type ([`crate::Network::Changes`]).
pub trait FeatureSink: Default {
    /// Appends a feature.
    fn push(&mut self, index: usize);
    /// Appends `index` if `keep`.
    #[inline]
    fn push_if(&mut self, index: usize, keep: bool) {
        if keep {
            self.push(index);
        }
    }
    /// Appends each `index` of `items` whose `keep` is set, in order.
    #[inline]
    fn extend_if(&mut self, items: impl Iterator<Item = (usize, bool)>) {
        items.for_each(|(index, keep)| self.push_if(index, keep));
    }
    /// The features, in the order they were pushed.
    fn as_slice(&self) -> &[u32];
}

impl<const N: usize> FeatureSink for FeatureBuffer<N> {
    #[inline]
    fn push(&mut self, index: usize) {
        FeatureBuffer::push(self, index)
    }

    #[inline]
    fn push_if(&mut self, index: usize, keep: bool) {
        FeatureBuffer::push_if(self, index, keep)
    }

    /// The length kept in a register while the items are written (a
    /// [`push_if`](Self::push_if) per item stores and reloads it).
    #[inline]
    fn extend_if(&mut self, items: impl Iterator<Item = (usize, bool)>) {
        let mut len = self.len;
        for (index, keep) in items {
            match self.items.get_mut(len) {
                Some(item) => {
                    *item = MaybeUninit::new(index as u32);
                    len += usize::from(keep);
                }
                None => self.dropped += usize::from(keep),
            }
        }
        self.len = len;
    }

    #[inline]
    fn as_slice(&self) -> &[u32] {
        FeatureBuffer::as_slice(self)
    }
}

/// The features one update removes (or adds), of every feature set of a
/// network ([`crate::Network::Changes`]): one list for a single set, one
/// per set for a composed transformer ([`super::SetLists`]).
/// [`FeatureSink::push`] appends a per-piece feature.
pub trait FeatureChanges: FeatureSink {
    /// How many features the lists hold, every set's.
    fn rows(&self) -> usize;
    /// Appends `other`'s features, set by set (what does not fit is
    /// dropped: [`Self::rows`] then grows by less than `other.rows()`).
    fn append(&mut self, other: &Self);
}

impl<const N: usize> FeatureChanges for FeatureBuffer<N> {
    #[inline]
    fn rows(&self) -> usize {
        self.len
    }

    #[inline]
    fn append(&mut self, other: &Self) {
        other.as_slice().iter().for_each(|&f| self.push(f as usize));
    }
}

#[cfg(test)]
mod tests {
    use super::{FeatureBuffer, FeatureSink};

    #[test]
    fn keeps_n_and_counts_the_rest() {
        let mut b = FeatureBuffer::<2>::default();
        for f in [7, 8, 9] {
            b.push(f);
        }
        assert_eq!((b.as_slice(), b.dropped()), (&[7, 8][..], 1));
    }

    #[test]
    fn pushes_what_is_kept_and_counts_what_does_not_fit() {
        let mut b = FeatureBuffer::<2>::default();
        for (f, keep) in [(1, false), (2, true), (3, false), (4, true), (5, false), (6, true)] {
            b.push_if(f, keep);
        }
        assert_eq!((b.as_slice(), b.dropped()), (&[2, 4][..], 1));
    }

    #[test]
    fn extends_as_pushes_do() {
        let items = [(1, false), (2, true), (3, false), (4, true), (5, false), (6, true), (7, true)];
        let mut by_push = FeatureBuffer::<3>::default();
        items.iter().for_each(|&(f, keep)| by_push.push_if(f, keep));
        let mut b = FeatureBuffer::<3>::default();
        b.push(9);
        FeatureSink::extend_if(&mut b, items[..4].iter().copied());
        FeatureSink::extend_if(&mut b, items[4..].iter().copied());
        assert_eq!((b.as_slice(), b.dropped()), (&[9, 2, 4][..], 2));
        let mut extended = FeatureBuffer::<3>::default();
        FeatureSink::extend_if(&mut extended, items.iter().copied());
        assert_eq!((extended.as_slice(), extended.dropped()), (by_push.as_slice(), by_push.dropped()));
    }

    #[test]
    fn pushes_squares_ascending_and_counts_what_does_not_fit() {
        let mut b = FeatureBuffer::<4>::default();
        b.push_squares(1 << 3 | 1 << 60, 100, 56);
        assert_eq!((b.as_slice(), b.dropped()), (&[100 + (3 ^ 56), 100 + (60 ^ 56)][..], 0));
        b.push_squares(0b1111, 0, 0);
        assert_eq!((b.as_slice(), b.dropped()), (&[159, 104, 0, 1][..], 2));
    }

    #[test]
    fn pushes_square_pairs_until_either_list_is_full() {
        let (mut a, mut b) = (FeatureBuffer::<3>::default(), FeatureBuffer::<3>::default());
        a.push(9);
        FeatureBuffer::push_squares_pair_with([&mut a, &mut b], 0b1011, |square| [10 + square, 20 + (square ^ 7)]);
        assert_eq!((a.as_slice(), a.dropped()), (&[9, 10, 11][..], 1));
        assert_eq!((b.as_slice(), b.dropped()), (&[27, 26, 24][..], 0));
    }
}
