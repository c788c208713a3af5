//! Piece-square feature sets described by a layout: one feature per piece,
//! from its kind, colour and square seen from a perspective, in a bucket of
//! the perspective's king square. Stockfish's HalfKAv2_hm and the king-bucket
//! sets of bullet-trained nets are instances ([`PieceSquareLayout`]).
//!
//! A perspective sees the board with the ranks flipped for black, and, when
//! the layout mirrors, with the files flipped when its king stands on the
//! files the layout mirrors away from. The feature of a piece is then
//! `bucket * planes * 64 + plane * 64 + square`, where `bucket` is the
//! layout's bucket of the oriented king square and `plane` the piece's
//! plane in the layout's order.

use core::marker::PhantomData;

use super::{FeatureList, FeatureSet};
use crate::chess::position::{Color, Piece, PieceCodes, PieceKind, Position, Square};

/// When the board is mirrored (files flipped) for a perspective.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mirror {
    /// Never.
    None,
    /// When its king stands on files a-d, so that it stands on e-h
    /// (Stockfish's HalfKAv2_hm).
    KingOnAToD,
    /// When its king stands on files e-h, so that it stands on a-d (bullet
    /// nets' usual choice).
    KingOnEToH,
}

/// The order of the 64-square planes of the pieces, seen from a perspective.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaneOrder {
    /// By kind, own piece then the opponent's: own pawn, their pawn, own
    /// knight, ... (Stockfish).
    Interleaved,
    /// By side, then kind: own pawn .. own king, their pawn .. their king
    /// (bullet: `384 * (colour != perspective) + 64 * kind`).
    SideMajor,
}

/// What a [`PieceSquare`] set's indices depend on.
pub trait PieceSquareLayout: 'static {
    /// The name shown for the set.
    const NAME: &'static str;
    /// The hash word of the set.
    const HASH: u32;
    /// The bucket of each square of the perspective's king on the oriented
    /// board (ranks flipped for black, files mirrored as [`Self::MIRROR`]
    /// says), a1 to h8.
    const KING_BUCKETS: [u8; 64];
    /// Number of buckets: one more than the largest of `KING_BUCKETS`.
    const BUCKETS: usize;
    const MIRROR: Mirror;
    const PLANE_ORDER: PlaneOrder;
    /// Whether both kings share one plane, leaving 11 planes: with
    /// [`PlaneOrder::Interleaved`] the last (Stockfish's HalfKAv2), with
    /// [`PlaneOrder::SideMajor`] the own king's, between the own pieces and
    /// the opponent's pawn .. queen (Viridithas's and Stormphrax's nets).
    const MERGED_KINGS: bool;
}

/// The feature set of a [`PieceSquareLayout`].
pub struct PieceSquare<L: PieceSquareLayout>(PhantomData<L>);

impl<L: PieceSquareLayout> PieceSquare<L> {
    /// Planes per bucket.
    pub const PLANES: usize = if L::MERGED_KINGS { 11 } else { 12 };

    /// The XOR mask orienting squares for `perspective` with its king on
    /// `king`.
    #[inline]
    pub fn orientation(perspective: Color, king: Square) -> u8 {
        let flip_ranks = if perspective == Color::Black { 56 } else { 0 };
        let mirror = match L::MIRROR {
            Mirror::None => false,
            Mirror::KingOnAToD => king.file() < 4,
            Mirror::KingOnEToH => king.file() >= 4,
        };
        flip_ranks ^ if mirror { 7 } else { 0 }
    }

    /// The first feature of `perspective`'s bucket with its king on `king`.
    #[inline]
    pub fn bucket_base(perspective: Color, king: Square) -> usize {
        let oriented = king.xor(Self::orientation(perspective, king));
        usize::from(L::KING_BUCKETS[oriented.index()]) * Self::PLANES * 64
    }

    /// The plane of `piece` seen from `perspective`, times 64.
    #[inline]
    fn plane(perspective: Color, piece: Piece) -> usize {
        let theirs = usize::from(piece.color != perspective);
        let plane = match (L::PLANE_ORDER, L::MERGED_KINGS && piece.kind == PieceKind::King) {
            (PlaneOrder::Interleaved, true) => 10,
            (PlaneOrder::SideMajor, true) => 5,
            (PlaneOrder::Interleaved, false) => 2 * piece.kind as usize + theirs,
            (PlaneOrder::SideMajor, false) => 6 * theirs + piece.kind as usize,
        };
        plane * 64
    }
}

impl<L: PieceSquareLayout> FeatureSet for PieceSquare<L> {
    const NAME: &'static str = L::NAME;
    const DIMENSIONS: usize = L::BUCKETS * Self::PLANES * 64;
    const MAX_ACTIVE: usize = 32;
    const HASH: u32 = L::HASH;

    /// The same orientation and bucket: a king move within a bucket, on one
    /// side of the mirror, changes only the king's feature.
    #[inline]
    fn same_view(perspective: Color, a: Square, b: Square) -> bool {
        Self::orientation(perspective, a) == Self::orientation(perspective, b)
            && Self::bucket_base(perspective, a) == Self::bucket_base(perspective, b)
    }

    #[inline]
    fn index(perspective: Color, king: Square, square: Square, piece: Piece) -> Option<usize> {
        let orientation = Self::orientation(perspective, king);
        Some(Self::bucket_base(perspective, king) + Self::plane(perspective, piece) + square.xor(orientation).index())
    }

    /// As the default, with the orientation and bucket computed once, by
    /// bitboard: each piece kind's squares at its plane.
    fn active_features(pos: &impl Position, perspective: Color, out: &mut FeatureList) {
        let king = pos.king_square(perspective);
        let (orientation, base) = (Self::orientation(perspective, king), Self::bucket_base(perspective, king));
        let bitboards = pos.bitboards();
        for color in [Color::White, Color::Black] {
            for kind in PieceKind::ALL {
                let plane = Self::plane(perspective, Piece { color, kind });
                out.push_squares(bitboards[color.index()][kind as usize], base + plane, orientation);
            }
        }
    }

    /// As [`active_features`](Self::active_features), both perspectives
    /// from one read of the bitboards, in one loop over the occupied
    /// squares (each piece's code read from bit planes), where a loop per
    /// piece kind left the loop at a mispredicted branch up to twelve times.
    /// Interleaved A/B of the small net's refresh on a Zen 5: against the
    /// loop per kind 0.95 with AVX2 and 0.96 with AVX-512 VNNI, which was
    /// itself 0.97 and 0.93 of a walk over the pieces with a push per
    /// feature.
    fn active_features_both_with(pos: &impl Position, out: &mut [FeatureList; 2], listed: impl Fn(u32)) {
        let [white, black] = [Color::White, Color::Black].map(|p| {
            let king = pos.king_square(p);
            (Self::orientation(p, king), Self::bucket_base(p, king))
        });
        let bitboards = pos.bitboards();
        // Each piece's first feature from each perspective, by its code
        // `6 * colour + kind`.
        let first = |perspective: Color, base: usize| -> [u32; 12] {
            core::array::from_fn(|code| (base + Self::plane(perspective, PieceCodes::piece(code))) as u32)
        };
        let firsts = [first(Color::White, white.1), first(Color::Black, black.1)];
        let (codes, occupied) = (PieceCodes::new(&bitboards), crate::chess::position::occupied(&bitboards));
        let orientations = [u32::from(white.0), u32::from(black.0)];
        FeatureList::push_squares_pair_with(out.each_mut(), occupied, |square| {
            let code = codes.code(square as usize);
            let features = [firsts[0][code] + (square ^ orientations[0]), firsts[1][code] + (square ^ orientations[1])];
            listed(features[0]);
            listed(features[1]);
            features
        });
    }
}

/// Stockfish's HalfKAv2_hm (14.1 and later): the board mirrored so that the
/// perspective's king stands on files e-h, 32 king buckets (rank 8 of the
/// oriented board first, file h before file e), both kings in one plane.
pub struct StockfishHalfKAv2Hm;

impl PieceSquareLayout for StockfishHalfKAv2Hm {
    const NAME: &'static str = "HalfKAv2_hm(Friend)";
    const HASH: u32 = 0x7F23_4CB8;
    const KING_BUCKETS: [u8; 64] = {
        let mut buckets = [0; 64];
        let mut square = 0;
        while square < 64 {
            let (rank, file) = (square / 8, square % 8);
            // Files a-d never hold the oriented king; they mirror e-h.
            let file = if file < 4 { 7 - file } else { file };
            buckets[square] = ((7 - rank) * 4 + (7 - file)) as u8;
            square += 1;
        }
        buckets
    };
    const BUCKETS: usize = 32;
    const MIRROR: Mirror = Mirror::KingOnAToD;
    const PLANE_ORDER: PlaneOrder = PlaneOrder::Interleaved;
    const MERGED_KINGS: bool = true;
}

/// Stockfish 14's HalfKAv2: 64 king buckets (the king's square, ranks
/// flipped for black), no mirroring, both kings in one plane.
pub struct StockfishHalfKAv2;

impl PieceSquareLayout for StockfishHalfKAv2 {
    const NAME: &'static str = "HalfKAv2(Friend)";
    const HASH: u32 = 0x5F23_4CB8;
    const KING_BUCKETS: [u8; 64] = {
        let mut buckets = [0; 64];
        let mut square = 0;
        while square < 64 {
            buckets[square] = square as u8;
            square += 1;
        }
        buckets
    };
    const BUCKETS: usize = 64;
    const MIRROR: Mirror = Mirror::None;
    const PLANE_ORDER: PlaneOrder = PlaneOrder::Interleaved;
    const MERGED_KINGS: bool = true;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Obsidian's layout (its net512_buckets): 4 buckets by the own king's
    /// square, mirrored when the king stands on files e-h, 12 planes by side.
    struct Obsidian;

    impl PieceSquareLayout for Obsidian {
        const NAME: &'static str = "obsidian";
        const HASH: u32 = 0;
        const KING_BUCKETS: [u8; 64] = {
            let mut buckets = [3; 64];
            let first = [0, 0, 1, 1, 1, 1, 0, 0];
            let mut file = 0;
            while file < 8 {
                buckets[file] = first[file];
                buckets[8 + file] = 2;
                file += 1;
            }
            buckets
        };
        const BUCKETS: usize = 4;
        const MIRROR: Mirror = Mirror::KingOnEToH;
        const PLANE_ORDER: PlaneOrder = PlaneOrder::SideMajor;
        const MERGED_KINGS: bool = false;
    }

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        Square::from_file_rank(b[0] - b'a', b[1] - b'1').unwrap()
    }

    /// The layout gives HalfKAv2_hm's indices as Stockfish defines them:
    /// `orient(square) + plane + 704 * KingBuckets[orient(king)]`.
    #[test]
    fn stockfish_half_ka_v2_hm() {
        type Set = PieceSquare<StockfishHalfKAv2Hm>;
        assert_eq!(Set::DIMENSIONS, 22_528);
        for perspective in [Color::White, Color::Black] {
            for king in (0..64).map(|s| Square::new(s).unwrap()) {
                let orientation =
                    (if perspective == Color::Black { 56 } else { 0 }) ^ if king.file() < 4 { 7 } else { 0 };
                let k = king.xor(orientation);
                let bucket = (7 - k.rank() as usize) * 4 + (7 - k.file() as usize);
                for square in (0..64).map(|s| Square::new(s).unwrap()) {
                    for color in [Color::White, Color::Black] {
                        for kind in PieceKind::ALL {
                            let plane = if kind == PieceKind::King {
                                10
                            } else {
                                2 * kind as usize + usize::from(color != perspective)
                            };
                            let expected = square.xor(orientation).index() + 64 * plane + 704 * bucket;
                            assert_eq!(Set::index(perspective, king, square, Piece { color, kind }), Some(expected));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn obsidian_indices() {
        type Set = PieceSquare<Obsidian>;
        assert_eq!(Set::DIMENSIONS, 4 * 768);
        let (w, b) = (Color::White, Color::Black);
        let white_knight = Piece { color: w, kind: PieceKind::Knight };
        // King on c1 (bucket 1, files a-d: no mirror): 768 + 64 + b1.
        assert_eq!(Set::index(w, sq("c1"), sq("b1"), white_knight), Some(768 + 64 + 1));
        // King on g1 (bucket 0 after mirroring to b1): b1 becomes g1.
        assert_eq!(Set::index(w, sq("g1"), sq("b1"), white_knight), Some(64 + 6));
        // Black's view of the same knight: the opponent's, ranks flipped;
        // king e8 -> e1 oriented, mirrored to d1 (bucket 1): b1 -> b8 -> g8.
        assert_eq!(Set::index(b, sq("e8"), sq("b1"), white_knight), Some(768 + 384 + 64 + 62));
        // King on a5 (bucket 3).
        assert_eq!(
            Set::index(w, sq("a5"), sq("a1"), Piece { color: b, kind: PieceKind::King }),
            Some(3 * 768 + 384 + 5 * 64)
        );
    }

    /// Viridithas's and Stormphrax's planes: by side, both kings on the own
    /// king's plane (`320 + square`), the opponent's pawn .. queen after it
    /// (`384 + 64 * kind + square`); 704 features, each piece on its own.
    #[test]
    fn side_major_merged_kings() {
        struct Merged;
        impl PieceSquareLayout for Merged {
            const NAME: &'static str = "merged";
            const HASH: u32 = 0;
            const KING_BUCKETS: [u8; 64] = [0; 64];
            const BUCKETS: usize = 1;
            const MIRROR: Mirror = Mirror::KingOnEToH;
            const PLANE_ORDER: PlaneOrder = PlaneOrder::SideMajor;
            const MERGED_KINGS: bool = true;
        }
        type Set = PieceSquare<Merged>;
        assert_eq!(Set::DIMENSIONS, 704);
        let (w, b) = (Color::White, Color::Black);
        let index = |color, kind, square| Set::index(w, sq("e1"), sq(square), Piece { color, kind }).unwrap();
        // King on e1: mirrored, so a2 -> h2 (15), c3 -> f3 (21).
        assert_eq!(index(w, PieceKind::King, "a2"), 320 + 15);
        assert_eq!(index(b, PieceKind::King, "a2"), 320 + 15);
        assert_eq!(index(w, PieceKind::Queen, "c3"), 4 * 64 + 21);
        assert_eq!(index(b, PieceKind::Queen, "c3"), 384 + 4 * 64 + 21);
        assert_eq!(index(b, PieceKind::Pawn, "c3"), 384 + 21);
        let mut seen = vec![false; 704];
        for color in [w, b] {
            for kind in PieceKind::ALL {
                for square in (0..64).map(|s| Square::new(s).unwrap()) {
                    let i = Set::index(w, sq("b1"), square, Piece { color, kind }).unwrap();
                    let king = kind == PieceKind::King;
                    assert!(i < 704 && (king || !seen[i]), "{color:?} {kind:?} on {square:?}: {i}");
                    seen[i] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }
}
