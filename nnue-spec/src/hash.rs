//! Stockfish's hash words, computed from the architecture.
//!
//! A net file carries three kinds of hash word: one in the header, one before
//! the transformer and one before every layer stack. They depend only on the
//! shapes, so a file written for another architecture is rejected on load.

use crate::ir::{FeatureSet, Hashes, Layer, LayerKind};
use crate::schema::HashScheme;

/// Start of the layer-stack chain (Stockfish's input slice).
const INPUT_SLICE: u32 = 0xEC42_E90D;
/// Affine layers: `(AFFINE + outputs) ^ rotate-ish(previous)`.
const AFFINE: u32 = 0xCC03_DAE4;
/// Clipped ReLU: `CLIPPED_RELU + previous`.
const CLIPPED_RELU: u32 = 0x538D_24C7;

/// Computes all hash words. `dimensions` is L1 (per perspective).
///
/// With [`HashScheme::Stockfish`] the transformer's word mixes in the first
/// feature set's word only (Stockfish 18 with threat inputs uses FullThreats'
/// word alone); with [`HashScheme::StockfishAllSets`] every set's word, each
/// after the running word is rotated left by one bit (Stockfish 19).
pub fn compute(scheme: HashScheme, features: &[FeatureSet], dimensions: usize, layers: &[Layer]) -> Hashes {
    let width = (dimensions as u32).wrapping_mul(2);
    let sets = match scheme {
        HashScheme::Stockfish => features.first().map_or(0, |f| f.hash),
        HashScheme::StockfishAllSets => features.iter().fold(0, |word: u32, f| word.rotate_left(1) ^ f.hash),
    };
    let transformer = sets ^ width;
    let layer_stack = layers.iter().fold(INPUT_SLICE ^ width, |prev, layer| match layer.kind {
        LayerKind::Affine { .. } | LayerKind::WideAffine { .. } => {
            AFFINE.wrapping_add(layer.output_dimensions as u32) ^ (prev >> 1) ^ (prev << 31)
        }
        LayerKind::ClippedReLU { .. } => CLIPPED_RELU.wrapping_add(prev),
        // Stockfish leaves its squared activation and the concatenation out
        // of the chain.
        LayerKind::SqrClippedReLU { .. } | LayerKind::Concat => prev,
        // Not a Stockfish layer; bullet files carry no hash words.
        LayerKind::SCReLU { .. }
        | LayerKind::FloatAffine { .. }
        | LayerKind::CReLU { .. }
        | LayerKind::ToFloat { .. }
        | LayerKind::ToInt { .. }
        | LayerKind::Dequantize { .. }
        | LayerKind::HardSwish
        | LayerKind::Elementwise { .. }
        | LayerKind::Integer { .. }
        | LayerKind::Bias
        | LayerKind::I32Affine => prev,
    });
    Hashes { header: transformer ^ layer_stack, transformer, layer_stack }
}
