//! A fixed-capacity list of active features: [`super::FeatureList`] for the
//! per-piece sets (one per piece), larger for sets with more active features
//! than pieces on a board (FullThreats: up to 256).

/// At most `N` feature indices; features beyond `N` (impossible for a set
/// whose `MAX_ACTIVE` is `N`) are counted, not stored.
#[derive(Debug, Clone)]
pub struct FeatureBuffer<const N: usize> {
    len: usize,
    dropped: usize,
    items: [u32; N],
}

impl<const N: usize> Default for FeatureBuffer<N> {
    fn default() -> Self {
        FeatureBuffer { len: 0, dropped: 0, items: [0; N] }
    }
}

/// Buffers are equal when they hold the same features in the same order and
/// dropped as many (what lies past the length is not compared).
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
            self.items[self.len] = index as u32;
            self.len += 1;
        } else {
            self.dropped += 1;
        }
    }

    /// The features, in the order they were pushed.
    #[inline]
    pub fn as_slice(&self) -> &[u32] {
        &self.items[..self.len]
    }

    /// Sorts the features.
    pub fn sort_unstable(&mut self) {
        self.items[..self.len].sort_unstable();
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
