//! The PSQT sums of the threat transformer's two feature sets, in plain
//! Rust.

use crate::params::ThreatTransformer;

impl<const L1: usize, const B: usize> ThreatTransformer<L1, B> {
    /// The threat part of a perspective's PSQT accumulator: the sum of the
    /// threat PSQT rows of its active threat `features` (wrapping, as
    /// Stockfish's i32 sums).
    pub fn threat_psqt(&self, features: impl IntoIterator<Item = usize>) -> [i32; B] {
        psqt_sum(&self.threat_psqt_weights, features)
    }

    /// The piece-square part of a perspective's PSQT accumulator.
    pub fn psqt(&self, features: impl IntoIterator<Item = usize>) -> [i32; B] {
        psqt_sum(&self.psqt_weights, features)
    }
}

/// The sum of the `B`-wide rows `features` of `rows`.
fn psqt_sum<const B: usize>(rows: &[i32], features: impl IntoIterator<Item = usize>) -> [i32; B] {
    let mut sum = [0i32; B];
    for feature in features {
        for (s, &w) in sum.iter_mut().zip(&rows[feature * B..][..B]) {
            *s = s.wrapping_add(w);
        }
    }
    sum
}
