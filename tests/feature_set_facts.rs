//! The generator's facts about each feature set (`nnue-spec/src/
//! feature_sets.rs`: dimensions, most active features, hash word) are the
//! runtime's.

use nnue::runtime::features::{FullThreats, HalfKAv2, HalfKAv2Hm, HalfKP};
use nnue::runtime::FeatureSet;
use nnue_spec::ir::{Encoding, FeatureSetKind, IntType};

fn spec(kind: FeatureSetKind) -> (usize, usize, u32) {
    let f = nnue_spec::feature_sets::describe(kind, IntType::I16, Encoding::Raw);
    (f.dimensions, f.max_active, f.hash)
}

fn runtime<F: FeatureSet>() -> (usize, usize, u32) {
    (F::DIMENSIONS, F::MAX_ACTIVE, F::HASH)
}

#[test]
fn spec_and_runtime_agree() {
    assert_eq!(spec(FeatureSetKind::HalfKP), runtime::<HalfKP>());
    assert_eq!(spec(FeatureSetKind::HalfKAv2), runtime::<HalfKAv2>());
    assert_eq!(spec(FeatureSetKind::HalfKAv2_hm), runtime::<HalfKAv2Hm>());
    assert_eq!(spec(FeatureSetKind::FullThreats), (FullThreats::DIMENSIONS, FullThreats::MAX_ACTIVE, FullThreats::HASH));
    for kind in [FeatureSetKind::HalfKP, FeatureSetKind::HalfKAv2, FeatureSetKind::HalfKAv2_hm] {
        assert!(nnue_spec::feature_sets::per_piece(kind));
    }
    assert!(!nnue_spec::feature_sets::per_piece(FeatureSetKind::FullThreats));
}
