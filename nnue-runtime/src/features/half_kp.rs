//! HalfKP (Stockfish 12): own king square x every non-king piece.

use super::{FeatureSet, relative_plane};
use crate::chess::position::{Color, Piece, PieceKind, Square};

/// HalfKP: 64 king squares x (1 + 10 x 64) piece squares. Black's view is the
/// board rotated by 180 degrees; index 0 of each king block is unused.
pub struct HalfKP;

/// Piece-square entries per king square: one unused slot, 10 planes.
const PER_KING: usize = 1 + 10 * 64;

impl FeatureSet for HalfKP {
    const NAME: &'static str = "HalfKP(Friend)";
    const DIMENSIONS: usize = 64 * PER_KING;
    const MAX_ACTIVE: usize = 30;
    const HASH: u32 = 0x5D69_D5B9 ^ 1;

    #[inline]
    fn index(perspective: Color, king: Square, square: Square, piece: Piece) -> Option<usize> {
        if piece.kind == PieceKind::King {
            return None;
        }
        let rotate = if perspective == Color::Black { 63 } else { 0 };
        Some(
            1 + relative_plane(perspective, piece) * 64
                + square.xor(rotate).index()
                + PER_KING * king.xor(rotate).index(),
        )
    }
}
