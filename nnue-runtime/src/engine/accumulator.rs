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

impl<const L1: usize, const B: usize> Accumulator<L1, B> {
    /// `perspective`'s PSQT value of `bucket` (as
    /// [`SplitAccumulator::psqt_sum`] names it for an accumulator in parts).
    #[inline(always)]
    pub fn psqt_sum(&self, perspective: usize, bucket: usize) -> i32 {
        self.psqt[perspective][bucket]
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

/// The accumulator of a network with both per-piece feature sets and board
/// feature sets (threats, pawn pairs), kept in two parts as Stockfish keeps
/// them: `values` and `psqt` hold the biases and the per-piece sets' rows,
/// `board_values` and `board_psqt` the board sets' rows. The transformer
/// reads their lane-wise sum (wrapping, as every backend adds i16 lanes).
/// A move of a king that keeps the board sets' view (for FullThreats: the
/// king stays on its half of the board) then refreshes the per-piece part
/// through the refresh cache and updates the board part from the move's
/// board changes, instead of refreshing both.
#[derive(Clone, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct SplitAccumulator<const L1: usize, const B: usize> {
    pub values: [[i16; L1]; 2],
    pub psqt: [[i32; B]; 2],
    pub board_values: [[i16; L1]; 2],
    pub board_psqt: [[i32; B]; 2],
}

impl<const L1: usize, const B: usize> Default for SplitAccumulator<L1, B> {
    fn default() -> Self {
        SplitAccumulator {
            values: [[0; L1]; 2],
            psqt: [[0; B]; 2],
            board_values: [[0; L1]; 2],
            board_psqt: [[0; B]; 2],
        }
    }
}

impl<const L1: usize, const B: usize> SplitAccumulator<L1, B> {
    /// The lanes both parts sum to, per perspective (what the scalar
    /// transformer reads; the SIMD kernels add the parts as they load them).
    pub fn summed_values(&self) -> [[i16; L1]; 2] {
        core::array::from_fn(|p| core::array::from_fn(|j| self.values[p][j].wrapping_add(self.board_values[p][j])))
    }

    /// `perspective`'s PSQT value of `bucket`, both parts summed (wrapping).
    #[inline(always)]
    pub fn psqt_sum(&self, perspective: usize, bucket: usize) -> i32 {
        self.psqt[perspective][bucket].wrapping_add(self.board_psqt[perspective][bucket])
    }
}

/// An update of one part of a [`SplitAccumulator`] for one perspective:
/// the base lanes and PSQT values, then the lanes and PSQT values written.
pub type PartUpdate<'a, const L1: usize, const B: usize> =
    (&'a [i16; L1], &'a [i32; B], &'a mut [i16; L1], &'a mut [i32; B]);
