//! HalfKAv2_hm (Stockfish 14.1 and later): HalfKAv2 with horizontal mirroring.

use super::half_ka_v2::{plane, PLANES};
use super::{FeatureList, FeatureSet};
use crate::position::{Color, Piece, Position, Square};

/// HalfKAv2_hm: the board is mirrored so that the perspective's king stands on
/// files e-h, leaving 32 king buckets x 11 planes of 64 squares. Black's view
/// flips the ranks.
pub struct HalfKAv2Hm;

impl HalfKAv2Hm {
    /// The XOR mask orienting squares for `perspective` with its king on `king`.
    #[inline]
    pub fn orientation(perspective: Color, king: Square) -> u8 {
        let flip_ranks = if perspective == Color::Black { 56 } else { 0 };
        let mirror_files = if king.file() < 4 { 7 } else { 0 };
        flip_ranks ^ mirror_files
    }

    /// The king bucket (0..32) of `perspective`'s king on `king`: rank 8 of the
    /// oriented board first, file h before file e.
    #[inline]
    pub fn king_bucket(perspective: Color, king: Square) -> usize {
        let k = king.xor(Self::orientation(perspective, king));
        (7 - k.rank() as usize) * 4 + (7 - k.file() as usize)
    }
}

impl FeatureSet for HalfKAv2Hm {
    const NAME: &'static str = "HalfKAv2_hm(Friend)";
    const DIMENSIONS: usize = 32 * PLANES;
    const MAX_ACTIVE: usize = 32;
    const HASH: u32 = 0x7F23_4CB8;

    #[inline]
    fn index(perspective: Color, king: Square, square: Square, piece: Piece) -> Option<usize> {
        let orientation = Self::orientation(perspective, king);
        Some(plane(perspective, piece) + square.xor(orientation).index() + PLANES * Self::king_bucket(perspective, king))
    }

    /// As the default, with the orientation and king bucket computed once.
    fn active_features(pos: &impl Position, perspective: Color, out: &mut FeatureList) {
        let king = pos.king_square(perspective);
        let orientation = Self::orientation(perspective, king);
        let bucket = PLANES * Self::king_bucket(perspective, king);
        pos.for_each_piece(|square, piece| out.push(plane(perspective, piece) + square.xor(orientation).index() + bucket));
    }

    /// As the default, with orientations and king buckets computed once.
    fn active_features_both(pos: &impl Position, out: &mut [FeatureList; 2]) {
        let [white, black] = [Color::White, Color::Black].map(|p| {
            let king = pos.king_square(p);
            (Self::orientation(p, king), PLANES * Self::king_bucket(p, king))
        });
        let [white_out, black_out] = out;
        pos.for_each_piece(|square, piece| {
            white_out.push(plane(Color::White, piece) + square.xor(white.0).index() + white.1);
            black_out.push(plane(Color::Black, piece) + square.xor(black.0).index() + black.1);
        });
    }
}
