//! The features one update removes (or adds) when a transformer sums
//! several feature sets: one list per set, each feature numbered within its
//! set, so that the update takes each set's rows from its own list.
//!
//! The lists are filled set by set as the features are found (the per-piece
//! set's by [`FeatureSink::push`], a board set's through [`SetLists::set_mut`]).
//! One list numbered across the sets, split by set before each update, cost
//! Stockfish 19's net about 750 instructions per move (valgrind, AVX2: the
//! split writing every feature to every list), and the rows' requests found
//! each feature's set again.

use super::{FeatureBuffer, FeatureChanges, FeatureSink};

/// `K` lists of at most `C` features, one per feature set in the
/// transformer's order; [`FeatureSink::push`] appends to list `PIECES`,
/// the per-piece set's (none when `PIECES >= K`: the transformer has no
/// per-piece set and nothing is pushed).
#[derive(Debug, Clone)]
pub struct SetLists<const K: usize, const C: usize, const PIECES: usize> {
    lists: [FeatureBuffer<C>; K],
}

impl<const K: usize, const C: usize, const PIECES: usize> Default for SetLists<K, C, PIECES> {
    #[inline]
    fn default() -> Self {
        // Only the lengths written: made by a closure per list
        // (`array::from_fn`), the lists were copied whole (about 13,000
        // instructions of `memcpy` per move on Stockfish 19's net); as
        // copies of a constant, set to zero whole.
        SetLists { lists: FeatureBuffer::empty_array() }
    }
}

impl<const K: usize, const C: usize, const PIECES: usize> SetLists<K, C, PIECES> {
    /// The features of set `i`, numbered within it.
    #[inline]
    pub fn set(&self, i: usize) -> &[u32] {
        self.lists[i].as_slice()
    }

    /// The list of set `i`, to push its features to.
    #[inline]
    pub fn set_mut(&mut self, i: usize) -> &mut FeatureBuffer<C> {
        &mut self.lists[i]
    }
}

impl<const K: usize, const C: usize, const PIECES: usize> FeatureSink for SetLists<K, C, PIECES> {
    /// Appends a feature of the per-piece set.
    #[inline]
    fn push(&mut self, index: usize) {
        if let Some(list) = self.lists.get_mut(PIECES) {
            list.push(index);
        }
    }

    #[inline]
    fn push_if(&mut self, index: usize, keep: bool) {
        if let Some(list) = self.lists.get_mut(PIECES) {
            list.push_if(index, keep);
        }
    }

    /// The per-piece set's features.
    #[inline]
    fn as_slice(&self) -> &[u32] {
        self.lists.get(PIECES).map_or(&[], |list| list.as_slice())
    }
}

impl<const K: usize, const C: usize, const PIECES: usize> FeatureChanges for SetLists<K, C, PIECES> {
    #[inline]
    fn rows(&self) -> usize {
        self.lists.iter().map(FeatureChanges::rows).sum()
    }

    #[inline]
    fn append(&mut self, other: &Self) {
        for (list, more) in self.lists.iter_mut().zip(&other.lists) {
            list.append(more);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushes_go_to_the_per_piece_set_and_lists_append_set_by_set() {
        let mut a = SetLists::<3, 8, 2>::default();
        a.push(7);
        a.push_if(8, false);
        a.set_mut(0).push(1);
        assert_eq!((a.set(0), a.set(1), a.set(2), a.as_slice()), (&[1][..], &[][..], &[7][..], &[7][..]));
        let mut b = SetLists::<3, 8, 2>::default();
        b.set_mut(1).push(4);
        b.push(9);
        a.append(&b);
        assert_eq!((a.set(0), a.set(1), a.set(2), a.rows()), (&[1][..], &[4][..], &[7, 9][..], 4));
        // Beyond capacity a list drops what does not fit: `rows` counts
        // what it holds.
        let mut full = SetLists::<1, 2, 0>::default();
        (0..3).for_each(|f| full.push(f));
        assert_eq!(full.rows(), 2);
        // Without a per-piece set nothing is pushed.
        let mut none = SetLists::<2, 4, 2>::default();
        none.push(3);
        assert_eq!((none.rows(), none.as_slice()), (0, &[][..]));
    }
}
