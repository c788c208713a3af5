//! Facts about the feature sets the runtime implements, as the generator
//! needs them (sizes and hash words). The runtime's feature sets carry the same
//! numbers; `tests/feature_set_facts.rs` checks that they agree.

use crate::ir::FeatureSet;
use crate::schema::{Encoding, FeatureSetKind, IntType};

/// The catalogue entry of a feature set.
pub fn describe(kind: FeatureSetKind, weight: IntType, encoding: Encoding) -> FeatureSet {
    let (dimensions, max_active, hash) = match kind {
        // 64 king squares x (10 piece kinds x 64 squares + 1).
        FeatureSetKind::HalfKP => (64 * 641, 30, 0x5D69_D5B9 ^ 1),
        // 64 king squares x 11 x 64 piece-squares (both kings share one plane).
        FeatureSetKind::HalfKAv2 => (64 * 704, 32, 0x5F23_4CB8),
        // 32 king buckets (king mirrored onto files e-h) x 11 x 64.
        FeatureSetKind::HalfKAv2_hm => (32 * 704, 32, 0x7F23_4CB8),
        // Every (attacker, attacked) pair of pieces the set encodes; at most
        // 256 at once (the runtime's `FullThreats::MAX_ACTIVE`).
        FeatureSetKind::FullThreats => (79_856, 256, 0x8F23_4CB8),
    };
    FeatureSet { kind, dimensions, max_active, hash, weight, encoding }
}

/// The name used in the file, messages and docs.
pub fn name(kind: FeatureSetKind) -> &'static str {
    match kind {
        FeatureSetKind::HalfKP => "HalfKP",
        FeatureSetKind::HalfKAv2 => "HalfKAv2",
        FeatureSetKind::HalfKAv2_hm => "HalfKAv2_hm",
        FeatureSetKind::FullThreats => "FullThreats",
    }
}

/// Whether a set has one feature per piece (a function of the perspective,
/// its king square and the piece's square and kind), so that a move changes
/// a few features. FullThreats depends on pairs of pieces.
pub fn per_piece(kind: FeatureSetKind) -> bool {
    !matches!(kind, FeatureSetKind::FullThreats)
}

/// The weight types a set's rows may have: i16, or i8 (sign-extended when
/// added into the i16 lanes).
pub fn weight_allowed(weight: IntType) -> bool {
    matches!(weight, IntType::I8 | IntType::I16)
}
