//! HalfKAv2 (Stockfish 14): own king square x every piece, kings included.

use super::{relative_plane, FeatureSet};
use crate::position::{Color, Piece, PieceKind, Square};

/// HalfKAv2: 64 king squares x 11 planes of 64 squares; both kings share the
/// last plane. Black's view flips the ranks.
pub struct HalfKAv2;

/// Piece-square entries per king square.
pub(super) const PLANES: usize = 11 * 64;

/// The plane of `piece` from `perspective`: ten piece planes, one king plane.
#[inline]
pub(super) fn plane(perspective: Color, piece: Piece) -> usize {
    if piece.kind == PieceKind::King { 10 * 64 } else { relative_plane(perspective, piece) * 64 }
}

impl FeatureSet for HalfKAv2 {
    const NAME: &'static str = "HalfKAv2(Friend)";
    const DIMENSIONS: usize = 64 * PLANES;
    const MAX_ACTIVE: usize = 32;
    const HASH: u32 = 0x5F23_4CB8;

    #[inline]
    fn index(perspective: Color, king: Square, square: Square, piece: Piece) -> Option<usize> {
        let flip = if perspective == Color::Black { 56 } else { 0 };
        Some(plane(perspective, piece) + square.xor(flip).index() + PLANES * king.xor(flip).index())
    }
}
