//! What an evaluation returns.

/// The result for the selected bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Evaluation {
    /// The layer stack and PSQT bucket chosen for the position.
    pub bucket: usize,
    /// `(psqt[stm] - psqt[other]) / 2` for the bucket (0 without PSQT).
    pub psqt: i32,
    /// The layer stack's raw output, skip term included.
    pub positional: i32,
    /// What Stockfish's NNUE entry point returns for this architecture.
    pub value: i32,
}

/// The raw values of every bucket, and the value of the selected one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BucketValues {
    pub bucket: usize,
    pub psqt: Vec<i32>,
    pub positional: Vec<i32>,
    pub value: i32,
}
