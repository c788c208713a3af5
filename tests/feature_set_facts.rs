//! The generator's facts about each feature set (`nnue-spec/src/
//! feature_sets.rs`: dimensions, most active features, hash word) are the
//! runtime's.

use nnue::runtime::features::{
    BoardFeatures, FullThreats, HalfKAv2, HalfKAv2Hm, HalfKP, PawnPairs, STOCKFISH_18_TARGETS, threat_targets,
};
use nnue::runtime::{FeatureSet, PieceKind};
use nnue_spec::ir::{Encoding, FeatureSetKind, IntType};
use nnue_spec::schema::{FeatureSpec, ThreatTargets};

fn spec_with(set: FeatureSetKind, targets: Option<ThreatTargets>) -> (usize, usize, u32) {
    let spec = FeatureSpec { set, weight: IntType::I16, encoding: None, hash: None, targets, layout: None };
    let f = nnue_spec::feature_sets::describe(&spec, Encoding::Raw);
    (f.dimensions, f.max_active, f.hash)
}

fn spec(set: FeatureSetKind) -> (usize, usize, u32) {
    spec_with(set, None)
}

fn runtime<F: FeatureSet>() -> (usize, usize, u32) {
    (F::DIMENSIONS, F::MAX_ACTIVE, F::HASH)
}

/// Stockfish 19's targets in the spec's terms.
fn stockfish_19() -> ThreatTargets {
    use nnue_spec::schema::PieceKind::*;
    ThreatTargets {
        pawn: vec![Knight, Rook],
        knight: vec![Pawn, Knight, Bishop, Rook, Queen],
        bishop: vec![Pawn, Knight, Bishop, Rook],
        rook: vec![Pawn, Knight, Bishop, Rook],
        queen: vec![Pawn, Knight, Bishop, Rook, Queen],
        king: vec![],
    }
}

#[test]
fn spec_and_runtime_agree() {
    assert_eq!(spec(FeatureSetKind::HalfKP), runtime::<HalfKP>());
    assert_eq!(spec(FeatureSetKind::HalfKAv2), runtime::<HalfKAv2>());
    assert_eq!(spec(FeatureSetKind::HalfKAv2_hm), runtime::<HalfKAv2Hm>());
    type Sf18 = FullThreats<STOCKFISH_18_TARGETS>;
    assert_eq!(spec(FeatureSetKind::FullThreats), (Sf18::DIMENSIONS, Sf18::MAX_ACTIVE, 0x8F23_4CB8));
    assert_eq!(Sf18::DIMENSIONS, 79_856);
    assert_eq!(spec(FeatureSetKind::PP_3Wide), (PawnPairs::DIMENSIONS, PawnPairs::MAX_ACTIVE, PawnPairs::HASH));
    for kind in [FeatureSetKind::HalfKP, FeatureSetKind::HalfKAv2, FeatureSetKind::HalfKAv2_hm] {
        assert!(nnue_spec::feature_sets::per_piece(kind));
    }
    assert!(!nnue_spec::feature_sets::per_piece(FeatureSetKind::FullThreats));
    assert!(!nnue_spec::feature_sets::per_piece(FeatureSetKind::PP_3Wide));
}

/// Stockfish 19's FullThreats: 59,808 features in the spec and the runtime.
#[test]
fn stockfish_19_threats() {
    const fn sf19() -> u64 {
        let minor = [PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook];
        let wide = [PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen];
        threat_targets([&[PieceKind::Knight, PieceKind::Rook], &wide, &minor, &minor, &wide, &[]])
    }
    const SF19: u64 = sf19();
    let (dimensions, max_active, _) = spec_with(FeatureSetKind::FullThreats, Some(stockfish_19()));
    assert_eq!((dimensions, max_active), (FullThreats::<SF19>::DIMENSIONS, FullThreats::<SF19>::MAX_ACTIVE));
    assert_eq!(dimensions, 59_808);
}

/// A PieceSquare layout: buckets x planes x 64 in the spec, as in the
/// runtime; Stockfish's HalfKAv2_hm written as a layout has its size.
#[test]
fn piece_square_layouts() {
    use nnue_spec::schema::{Mirror, PieceSquareSpec, PlaneOrder};
    let spec = |layout: PieceSquareSpec| {
        let spec = FeatureSpec {
            set: FeatureSetKind::PieceSquare,
            weight: IntType::I16,
            encoding: None,
            hash: None,
            targets: None,
            layout: Some(layout),
        };
        nnue_spec::feature_sets::describe(&spec, Encoding::Raw)
    };
    let hm = spec(PieceSquareSpec {
        king_buckets: (0..32).rev().collect(),
        mirror: Mirror::KingOnAToD,
        planes: PlaneOrder::Interleaved,
        merged_kings: true,
    });
    assert_eq!(hm.dimensions, HalfKAv2Hm::DIMENSIONS);
    let layout = hm.layout.expect("a valid layout");
    for square in 0..64 {
        let king = nnue::runtime::Square::new(square as u8).unwrap();
        // The runtime's bucket base of a white king on `square` (the board as
        // white sees it, mirrored as HalfKAv2_hm does).
        let oriented = if square % 8 < 4 { square ^ 7 } else { square };
        assert_eq!(
            usize::from(layout.king_buckets[oriented]) * 704,
            nnue::runtime::features::PieceSquare::<nnue::runtime::features::StockfishHalfKAv2Hm>::bucket_base(
                nnue::runtime::Color::White,
                king
            )
        );
    }
    // Obsidian's 4 buckets by the own king's square: 12 planes of 64.
    let obsidian = spec(PieceSquareSpec {
        king_buckets: [0, 0, 1, 1, 1, 1, 0, 0].into_iter().chain([2; 8]).chain([3; 48]).collect(),
        mirror: Mirror::KingOnEToH,
        planes: PlaneOrder::SideMajor,
        merged_kings: false,
    });
    assert_eq!(obsidian.dimensions, 4 * 768);
}
