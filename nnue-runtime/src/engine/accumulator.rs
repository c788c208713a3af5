//! Accumulators: the transformer's state for one position, both perspectives.

/// The accumulated transformer lanes (`L1` i16 per perspective) and PSQT
/// values (`B` i32 per perspective), indexed by [`crate::Color::index`].
#[derive(Clone, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator<const L1: usize, const B: usize> {
    pub values: [[i16; L1]; 2],
    pub psqt: [[i32; B]; 2],
}

impl<const L1: usize, const B: usize> Default for Accumulator<L1, B> {
    fn default() -> Self {
        Accumulator { values: [[0; L1]; 2], psqt: [[0; B]; 2] }
    }
}

/// One perspective's accumulator: what a refresh-cache entry keeps.
#[derive(Clone, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct HalfAccumulator<const L1: usize, const B: usize> {
    pub values: [i16; L1],
    pub psqt: [i32; B],
}

impl<const L1: usize, const B: usize> Default for HalfAccumulator<L1, B> {
    fn default() -> Self {
        HalfAccumulator { values: [0; L1], psqt: [0; B] }
    }
}
