//! Facts about the feature sets the runtime implements, as the generator
//! needs them (sizes and hash words). The runtime's feature sets carry the same
//! numbers; `tests/feature_set_facts.rs` checks that they agree.

use crate::ir::{FeatureSet, PieceSquareLayout};
use crate::schema::{
    Encoding, FeatureSetKind, FeatureSpec, IntType, Mirror, PieceKind, PieceSquareSpec, ThreatTargets,
};

/// The fields of [`ThreatTargets`], by attacker in [`PieceKind`] order.
pub const KIND_FIELDS: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// The squares a piece of each kind attacks on an empty board, summed over
/// its squares (pawns from ranks 2 to 7 only): the size of one section of
/// FullThreats' features per attacker and target.
const REACH: [usize; 6] = [84, 336, 560, 896, 1456, 420];

/// The catalogue entry of a feature set as `spec` describes it, its weights
/// stored with `encoding` unless it names its own.
pub fn describe(spec: &FeatureSpec, encoding: Encoding) -> FeatureSet {
    let kind = spec.set;
    let targets = match (kind, &spec.targets) {
        (FeatureSetKind::FullThreats, Some(targets)) => targets_table(targets),
        (FeatureSetKind::FullThreats, None) => stockfish_18_targets(),
        _ => Vec::new(),
    };
    let layout = match (kind, &spec.layout) {
        (FeatureSetKind::PieceSquare, Some(layout)) => piece_square_layout(layout),
        _ => None,
    };
    let (dimensions, max_active, hash) = match kind {
        // 64 king squares x (10 piece kinds x 64 squares + 1).
        FeatureSetKind::HalfKP => (64 * 641, 30, 0x5D69_D5B9 ^ 1),
        // 64 king squares x 11 x 64 piece-squares (both kings share one plane).
        FeatureSetKind::HalfKAv2 => (64 * 704, 32, 0x5F23_4CB8),
        // 32 king buckets (king mirrored onto files e-h) x 11 x 64.
        FeatureSetKind::HalfKAv2_hm => (32 * 704, 32, 0x7F23_4CB8),
        // For each attacker (own and their kinds) and each target kind of
        // either colour, the attacker's reach; at most 256 at once (the
        // runtime's `MAX_THREATS`).
        FeatureSetKind::FullThreats => {
            let per_color: usize = targets.iter().zip(REACH).map(|(kinds, reach)| kinds.len() * reach).sum();
            (4 * per_color, 256, 0x8F23_4CB8)
        }
        // Unordered pairs of 96 pawn places (48 squares x 2 colours); 16
        // pawns make at most 120 pairs.
        FeatureSetKind::PP_3Wide => (96 * 95 / 2, 120, 0x86F2_B1DD),
        // Buckets x planes x 64 squares; an invalid layout (reported by the
        // validator) counts as none. No hash word unless given.
        FeatureSetKind::PieceSquare => {
            let dimensions = layout.as_ref().map_or(0, |l| l.buckets * if l.merged_kings { 11 } else { 12 } * 64);
            (dimensions, 32, 0)
        }
    };
    let hash = spec.hash.unwrap_or(hash);
    FeatureSet {
        kind,
        dimensions,
        max_active,
        hash,
        weight: spec.weight,
        encoding: spec.encoding.unwrap_or(encoding),
        targets,
        layout,
    }
}

/// The resolved layout of a piece-square set, `None` if its king buckets
/// are not 64 entries (or 32 with mirroring) numbering every bucket from 0.
pub fn piece_square_layout(spec: &PieceSquareSpec) -> Option<PieceSquareLayout> {
    let mut king_buckets = [0u8; 64];
    match (spec.king_buckets.len(), spec.mirror) {
        (64, _) => king_buckets.copy_from_slice(&spec.king_buckets),
        (32, Mirror::KingOnAToD | Mirror::KingOnEToH) => {
            let mirror = spec.mirror;
            // The four files the oriented king stands on, rank by rank; the
            // other four hold their mirror images.
            let first_file = if mirror == Mirror::KingOnAToD { 4 } else { 0 };
            for (i, &bucket) in spec.king_buckets.iter().enumerate() {
                let (rank, file) = (i / 4, first_file + i % 4);
                king_buckets[rank * 8 + file] = bucket;
                king_buckets[rank * 8 + (7 - file)] = bucket;
            }
        }
        _ => return None,
    }
    let buckets = usize::from(*spec.king_buckets.iter().max()?) + 1;
    (0..buckets).all(|b| spec.king_buckets.contains(&(b as u8))).then_some(PieceSquareLayout {
        king_buckets,
        buckets,
        mirror: spec.mirror,
        planes: spec.planes,
        merged_kings: spec.merged_kings,
    })
}

/// The targets of each attacker kind, in [`PieceKind`] order.
pub fn targets_table(targets: &ThreatTargets) -> Vec<Vec<PieceKind>> {
    let ThreatTargets { pawn, knight, bishop, rook, queen, king } = targets;
    [pawn, knight, bishop, rook, queen, king].into_iter().cloned().collect()
}

/// Stockfish 18's FullThreats targets: every kind but a pawn's bishops,
/// queens and kings, a bishop's or a rook's queens, a king's queens and kings.
pub fn stockfish_18_targets() -> Vec<Vec<PieceKind>> {
    use PieceKind::*;
    vec![
        vec![Pawn, Knight, Rook],
        vec![Pawn, Knight, Bishop, Rook, Queen, King],
        vec![Pawn, Knight, Bishop, Rook, King],
        vec![Pawn, Knight, Bishop, Rook, King],
        vec![Pawn, Knight, Bishop, Rook, Queen, King],
        vec![Pawn, Knight, Bishop, Rook],
    ]
}

/// The name used in the file, messages and docs.
pub fn name(kind: FeatureSetKind) -> &'static str {
    match kind {
        FeatureSetKind::HalfKP => "HalfKP",
        FeatureSetKind::HalfKAv2 => "HalfKAv2",
        FeatureSetKind::HalfKAv2_hm => "HalfKAv2_hm",
        FeatureSetKind::FullThreats => "FullThreats",
        FeatureSetKind::PP_3Wide => "PP_3Wide",
        FeatureSetKind::PieceSquare => "PieceSquare",
    }
}

/// Whether a set has one feature per piece ([`FeatureSetKind::per_piece`]).
pub fn per_piece(kind: FeatureSetKind) -> bool {
    kind.per_piece()
}

/// The weight types a set's rows may have: i16, or i8 (sign-extended when
/// added into the i16 lanes).
pub fn weight_allowed(weight: IntType) -> bool {
    matches!(weight, IntType::I8 | IntType::I16)
}
