//! A fixed-capacity list of active features: [`super::FeatureList`] for the
//! per-piece sets (one per piece), larger for sets with more active features
//! than pieces on a board (FullThreats: up to 256).

use core::fmt;
use core::mem::MaybeUninit;

/// At most `N` feature indices; features beyond `N` (impossible for a set
/// whose `MAX_ACTIVE` is `N`) are counted, not stored. The storage is not
/// initialised (a threat set's buffers hold hundreds of entries and are made
/// per move): only the first `len` entries are ever read.
pub struct FeatureBuffer<const N: usize> {
    len: usize,
    dropped: usize,
    items: [MaybeUninit<u32>; N],
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
    fn as_mut_slice(&mut self) -> &mut [u32] {
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
    /// The features, in the order they were pushed.
    fn as_slice(&self) -> &[u32];
}

impl<const N: usize> FeatureSink for FeatureBuffer<N> {
    #[inline]
    fn push(&mut self, index: usize) {
        FeatureBuffer::push(self, index)
    }

    #[inline]
    fn as_slice(&self) -> &[u32] {
        FeatureBuffer::as_slice(self)
    }
}

#[cfg(test)]
mod tests {
    use super::FeatureBuffer;

    #[test]
    fn keeps_n_and_counts_the_rest() {
        let mut b = FeatureBuffer::<2>::default();
        for f in [7, 8, 9] {
            b.push(f);
        }
        assert_eq!((b.as_slice(), b.dropped()), (&[7, 8][..], 1));
    }
}
