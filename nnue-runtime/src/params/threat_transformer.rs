//! The feature transformer of a net with threat inputs (Stockfish 18's big
//! net): a threat feature set (i8 weights) and a piece-square feature set
//! (i16 weights) summed into one accumulator of `L1` lanes per perspective,
//! each set with its own `B` PSQT buckets (i32).
//!
//! In the file, after the transformer's hash word: the biases (LEB128 i16),
//! the threat weights (raw i8, one row of `L1` per threat feature), the
//! piece-square weights (LEB128 i16), then one LEB128 block of i32 holding
//! the threat PSQT weights followed by the piece-square PSQT weights. Nothing
//! is scaled on loading. The threat part of the accumulator has no bias.

use crate::aligned::{Aligned, AlignedSlice};
use crate::error::LoadError;
use crate::format::reader::{Encoding, NetReader};

/// A transformer of `L1` i16 lanes over threat and piece-square features,
/// with `B` PSQT buckets.
pub struct ThreatTransformer<const L1: usize, const B: usize> {
    pub biases: Box<Aligned<[i16; L1]>>,
    /// One row of `L1` weights per threat feature.
    pub threat_weights: AlignedSlice<i8>,
    /// One row of `L1` weights per piece-square feature.
    pub weights: AlignedSlice<i16>,
    /// One row of `B` PSQT weights per threat feature.
    pub threat_psqt_weights: AlignedSlice<i32>,
    /// One row of `B` PSQT weights per piece-square feature.
    pub psqt_weights: AlignedSlice<i32>,
}

impl<const L1: usize, const B: usize> ThreatTransformer<L1, B> {
    /// Reads the parameters of `threat_features` threat features and
    /// `features` piece-square features (the hash word already read).
    pub fn read(r: &mut NetReader<'_>, threat_features: usize, features: usize) -> Result<Self, LoadError> {
        let mut biases = Box::new(Aligned([0i16; L1]));
        r.ints("transformer biases", Encoding::Leb128, 1, &mut biases[..])?;
        let mut threat_weights = AlignedSlice::zeroed(threat_features * L1);
        r.ints("transformer threat weights", Encoding::Raw, 1, &mut threat_weights)?;
        let mut weights = AlignedSlice::zeroed(features * L1);
        r.ints("transformer weights", Encoding::Leb128, 1, &mut weights)?;
        let mut threat_psqt_weights = AlignedSlice::zeroed(threat_features * B);
        let mut psqt_weights = AlignedSlice::zeroed(features * B);
        r.leb128_parts(
            "transformer threat and piece-square PSQT weights",
            &mut [&mut threat_psqt_weights, &mut psqt_weights],
        )?;
        Ok(ThreatTransformer { biases, threat_weights, weights, threat_psqt_weights, psqt_weights })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::writer::NetWriter;

    #[test]
    fn reads_the_parts_in_file_order() {
        let (threats, features) = (3, 2);
        let mut w = NetWriter::new();
        w.ints(Encoding::Leb128, &[1i16, -2]);
        w.ints(Encoding::Raw, &[10i8, 11, 12, 13, 14, -15]);
        w.ints(Encoding::Leb128, &[300i16, 301, -302, 303]);
        w.ints(Encoding::Leb128, &[1i32, 2, 3, 4, 5, 6, 100_000, 200_000, -7, -8]);
        let bytes = w.finish();
        let mut r = NetReader::new(&bytes, "test");
        let t = ThreatTransformer::<2, 2>::read(&mut r, threats, features).unwrap();
        r.finish().unwrap();
        assert_eq!(t.biases.0, [1, -2]);
        assert_eq!(&t.threat_weights[..], &[10, 11, 12, 13, 14, -15]);
        assert_eq!(&t.weights[..], &[300, 301, -302, 303]);
        assert_eq!(t.threat_psqt([0, 2]), [6, 8]);
        assert_eq!(t.psqt([0, 1]), [99_993, 199_992]);
    }
}
