//! Facts about the feature sets the runtime implements, as the generator
//! needs them (sizes and hash words). The runtime's feature sets carry the same
//! numbers; `tests/feature_set_facts.rs` checks that they agree.

use crate::ir::FeatureSet;
use crate::schema::{FeatureSetKind, IntType};

/// The catalogue entry of a feature set.
pub fn describe(kind: FeatureSetKind, weight: IntType) -> FeatureSet {
    let (dimensions, max_active, hash) = match kind {
        // 64 king squares x (10 piece kinds x 64 squares + 1).
        FeatureSetKind::HalfKP => (64 * 641, 30, 0x5D69_D5B9 ^ 1),
        // 64 king squares x 11 x 64 piece-squares (both kings share one plane).
        FeatureSetKind::HalfKAv2 => (64 * 704, 32, 0x5F23_4CB8),
        // 32 king buckets (king mirrored onto files e-h) x 11 x 64.
        FeatureSetKind::HalfKAv2_hm => (32 * 704, 32, 0x7F23_4CB8),
    };
    FeatureSet { kind, dimensions, max_active, hash, weight }
}

/// The name used in the file, messages and docs.
pub fn name(kind: FeatureSetKind) -> &'static str {
    match kind {
        FeatureSetKind::HalfKP => "HalfKP",
        FeatureSetKind::HalfKAv2 => "HalfKAv2",
        FeatureSetKind::HalfKAv2_hm => "HalfKAv2_hm",
    }
}
