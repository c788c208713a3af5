//! Which squares a piece attacks, as bitboards (bit `i` for the square of
//! index `i`), computed from the pieces alone. The threat inputs
//! ([`crate::features::FullThreats`]) need them; engines keep their own.
//!
//! Leapers (pawns, knights, kings) read tables built at compile time; sliders
//! read each direction's ray from a table and cut it behind the first
//! occupied square, which they attack.

use crate::chess::position::{Color, Piece, PieceKind, Square};

/// A bitboard: bit `i` set for the square of index `i`.
pub type Bitboard = u64;

/// The number of squares of `bitboard`. The library is compiled for any
/// x86-64, whose baseline has no `popcnt`, so `count_ones` becomes a dozen
/// shifts, masks and adds; where the CPU has the instruction (detected once,
/// the answer cached by the standard library) it is used instead. A
/// threat net's feature index needs one per threat, a refresh hundreds.
#[inline]
pub fn popcount(bitboard: Bitboard) -> u32 {
    Popcount::detect().count(bitboard)
}

/// [`popcount`] with the CPU asked once, before a loop of counts: the
/// standard library's check may call its detection, and a loop around a
/// possible call keeps its values in memory across it (in a profile,
/// `FullThreats::features_of` stored and reloaded three per threat).
#[derive(Debug, Clone, Copy)]
pub struct Popcount {
    native: bool,
}

impl Popcount {
    /// Whether this CPU has `popcnt`.
    #[inline]
    pub fn detect() -> Popcount {
        #[cfg(target_arch = "x86_64")]
        let native = std::arch::is_x86_feature_detected!("popcnt");
        #[cfg(not(target_arch = "x86_64"))]
        let native = false;
        Popcount { native }
    }

    /// The number of squares of `bitboard`.
    #[inline]
    pub fn count(self, bitboard: Bitboard) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if self.native {
            let count: u64;
            // SAFETY: the CPU has `popcnt` (`native` is only set where it
            // does); the instruction reads a register and writes one,
            // nothing else (it sets flags, which the asm block does not
            // promise to preserve).
            unsafe {
                core::arch::asm!("popcnt {0}, {1}", out(reg) count, in(reg) bitboard, options(pure, nomem, nostack))
            };
            return count as u32;
        }
        // Elsewhere `native` is always false.
        #[cfg(not(target_arch = "x86_64"))]
        let _ = self.native;
        bitboard.count_ones()
    }
}

/// `(file, rank)` steps of a knight.
const KNIGHT_STEPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
/// `(file, rank)` steps of a king, and the directions of a queen.
const KING_STEPS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
/// A white pawn's captures (towards rank 8).
const WHITE_PAWN_STEPS: [(i8, i8); 2] = [(-1, 1), (1, 1)];
/// A black pawn's captures (towards rank 1).
const BLACK_PAWN_STEPS: [(i8, i8); 2] = [(-1, -1), (1, -1)];

/// The square `step` away from `square`, if it is on the board.
const fn step(square: u8, (df, dr): (i8, i8)) -> Option<u8> {
    let file = (square & 7) as i8 + df;
    let rank = (square >> 3) as i8 + dr;
    if 0 <= file && file < 8 && 0 <= rank && rank < 8 { Some((rank * 8 + file) as u8) } else { None }
}

/// The squares one of `steps` away from `square`.
const fn leaper(square: u8, steps: &[(i8, i8)]) -> Bitboard {
    let mut attacks = 0;
    let mut i = 0;
    while i < steps.len() {
        if let Some(to) = step(square, steps[i]) {
            attacks |= 1 << to;
        }
        i += 1;
    }
    attacks
}

/// For every square, the squares one of `steps` away.
const fn leaper_table(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [0; 64];
    let mut square = 0;
    while square < 64 {
        table[square] = leaper(square as u8, steps);
        square += 1;
    }
    table
}

static KNIGHT: [Bitboard; 64] = leaper_table(&KNIGHT_STEPS);
static KING: [Bitboard; 64] = leaper_table(&KING_STEPS);
static PAWN: [[Bitboard; 64]; 2] = [leaper_table(&WHITE_PAWN_STEPS), leaper_table(&BLACK_PAWN_STEPS)];

/// The squares a slider on `square` attacks along `directions`: each ray up
/// to the edge or up to and including the first square in `occupied`.
const fn slider(square: Square, directions: &[(i8, i8)], occupied: Bitboard) -> Bitboard {
    let mut attacks = 0;
    let mut i = 0;
    while i < directions.len() {
        let mut at = square.index() as u8;
        while let Some(to) = step(at, directions[i]) {
            attacks |= 1 << to;
            if occupied & (1 << to) != 0 {
                break;
            }
            at = to;
        }
        i += 1;
    }
    attacks
}

/// The squares a pawn of `color` on `square` captures on.
#[inline]
pub fn pawn_attacks(color: Color, square: Square) -> Bitboard {
    PAWN[color.index()][square.index()]
}

/// The squares a knight on `square` attacks.
#[inline]
pub fn knight_attacks(square: Square) -> Bitboard {
    KNIGHT[square.index()]
}

/// The squares a king on `square` attacks.
#[inline]
pub fn king_attacks(square: Square) -> Bitboard {
    KING[square.index()]
}

/// Every square from each square to the board's edge, per direction of
/// [`KING_STEPS`] (the square itself excluded).
const RAYS: [[Bitboard; 64]; 8] = {
    let mut rays = [[0; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut square = 0;
        while square < 64 {
            let Some(from) = Square::new(square as u8) else { unreachable!() };
            rays[d][square] = slider(from, &[KING_STEPS[d]], 0);
            square += 1;
        }
        d += 1;
    }
    rays
};

/// The squares attacked along direction `d` of [`KING_STEPS`] from `square`:
/// the ray up to and including its first occupied square. The first four
/// directions go to higher square indices, the last four to lower ones.
///
/// Without a branch: the search for the first occupied square also finds
/// the last square of the board that way (h8 going up, a1 going down) when
/// the ray is empty, and the ray cut behind that square is the whole ray.
/// Against a branch on an empty ray (unpredictable, and a slider's attacks
/// take four or eight), interleaved A/B on a Zen 5: move + eval 0.96 on
/// Stockfish 19's net (AVX-512 VNNI) and 18's (AVX2), faster in each of 9
/// rounds; a refresh 0.99.
#[inline]
const fn ray(d: usize, square: Square, occupied: Bitboard) -> Bitboard {
    const {
        assert!(
            RAYS[0][63] | RAYS[1][63] | RAYS[2][63] | RAYS[3][63] | RAYS[4][0] | RAYS[5][0] | RAYS[6][0] | RAYS[7][0]
                == 0
        )
    };
    let ray = RAYS[d][square.index()];
    let blockers = ray & occupied;
    let first = if d < 4 { (blockers | 1 << 63).trailing_zeros() } else { 63 - (blockers | 1).leading_zeros() };
    ray ^ RAYS[d][first as usize]
}

/// The first square of `occupied` from `square` along direction `d` of a
/// queen (`0..8`: east, north-east, north, north-west, west, south-west,
/// south, south-east; `d` and `(d + 4) % 8` are opposite), if any: the
/// piece a slider on `square` attacks that way, or that attacks it.
#[inline]
pub const fn first_on_ray(d: usize, square: Square, occupied: Bitboard) -> Option<Square> {
    let blockers = RAYS[d][square.index()] & occupied;
    if blockers == 0 {
        return None;
    }
    let first = if d < 4 { blockers.trailing_zeros() } else { 63 - blockers.leading_zeros() };
    Square::new(first as u8)
}

/// The squares a bishop on `square` attacks, given the occupied squares.
#[inline]
pub const fn bishop_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    ray(1, square, occupied) | ray(3, square, occupied) | ray(5, square, occupied) | ray(7, square, occupied)
}

/// The squares a rook on `square` attacks, given the occupied squares.
#[inline]
pub const fn rook_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    ray(0, square, occupied) | ray(2, square, occupied) | ray(4, square, occupied) | ray(6, square, occupied)
}

/// The squares a queen on `square` attacks, given the occupied squares.
#[inline]
pub const fn queen_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    bishop_attacks(square, occupied) | rook_attacks(square, occupied)
}

/// The squares `piece` on `square` attacks, given the occupied squares (an
/// empty board gives the piece's full reach).
#[inline]
pub fn attacks(piece: Piece, square: Square, occupied: Bitboard) -> Bitboard {
    match piece.kind {
        PieceKind::Pawn => pawn_attacks(piece.color, square),
        PieceKind::Knight => knight_attacks(square),
        PieceKind::Bishop => bishop_attacks(square, occupied),
        PieceKind::Rook => rook_attacks(square, occupied),
        PieceKind::Queen => queen_attacks(square, occupied),
        PieceKind::King => king_attacks(square),
    }
}

/// The squares a piece of `color` and `kind` on `square` attacks on an empty
/// board: its full reach (for tables built at compile time).
pub const fn reach(color: Color, kind: PieceKind, square: Square) -> Bitboard {
    let at = square.index() as u8;
    match kind {
        PieceKind::Pawn => match color {
            Color::White => leaper(at, &WHITE_PAWN_STEPS),
            Color::Black => leaper(at, &BLACK_PAWN_STEPS),
        },
        PieceKind::Knight => leaper(at, &KNIGHT_STEPS),
        PieceKind::Bishop => bishop_attacks(square, 0),
        PieceKind::Rook => rook_attacks(square, 0),
        PieceKind::Queen => queen_attacks(square, 0),
        PieceKind::King => leaper(at, &KING_STEPS),
    }
}

/// The squares of `bitboard`, from a1 to h8.
#[inline]
pub fn squares(mut bitboard: Bitboard) -> impl Iterator<Item = Square> {
    core::iter::from_fn(move || {
        let index = bitboard.trailing_zeros();
        bitboard &= bitboard.wrapping_sub(1);
        Square::new(index as u8)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn popcount_counts_the_squares() {
        let mut rng = crate::Rng::new(0x90C0_0417);
        for bitboard in
            [0, 1, u64::MAX, 1 << 63, 0x8000_0000_0000_0001].into_iter().chain((0..1000).map(|_| rng.next_u64()))
        {
            assert_eq!(popcount(bitboard), bitboard.count_ones(), "{bitboard:#x}");
        }
    }

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        Square::from_file_rank(b[0] - b'a', b[1] - b'1').unwrap()
    }

    fn bb(names: &[&str]) -> Bitboard {
        names.iter().fold(0, |acc, n| acc | 1 << sq(n).index())
    }

    #[test]
    fn leapers() {
        assert_eq!(knight_attacks(sq("a1")), bb(&["b3", "c2"]));
        assert_eq!(king_attacks(sq("h8")), bb(&["g8", "g7", "h7"]));
        assert_eq!(pawn_attacks(Color::White, sq("a2")), bb(&["b3"]));
        assert_eq!(pawn_attacks(Color::Black, sq("e7")), bb(&["d6", "f6"]));
        assert_eq!(pawn_attacks(Color::White, sq("e8")), 0);
    }

    #[test]
    fn sliders_stop_at_the_first_piece() {
        let occupied = bb(&["d6", "f4"]);
        assert_eq!(rook_attacks(sq("d4"), occupied), bb(&["d5", "d6", "d3", "d2", "d1", "e4", "f4", "c4", "b4", "a4"]));
        assert_eq!(bishop_attacks(sq("a1"), bb(&["c3"])), bb(&["b2", "c3"]));
        assert_eq!(queen_attacks(sq("d4"), 0).count_ones(), 27);
        assert_eq!(rook_attacks(sq("a1"), 0).count_ones(), 14);
    }

    /// Diagonal directions.
    const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];
    /// Orthogonal directions.
    const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

    #[test]
    fn ray_tables_equal_walking_the_rays() {
        let mut rng = crate::format::writer::Rng::new(7);
        for _ in 0..2000 {
            let occupied = rng.next_u64() & rng.next_u64();
            for index in 0..64 {
                let square = Square::new(index).unwrap();
                assert_eq!(bishop_attacks(square, occupied), slider(square, &BISHOP_DIRECTIONS, occupied));
                assert_eq!(rook_attacks(square, occupied), slider(square, &ROOK_DIRECTIONS, occupied));
                assert_eq!(queen_attacks(square, occupied), slider(square, &KING_STEPS, occupied));
            }
        }
    }

    #[test]
    fn reach_is_attacks_on_an_empty_board() {
        for index in 0..64 {
            let square = Square::new(index).unwrap();
            for color in [Color::White, Color::Black] {
                for kind in PieceKind::ALL {
                    assert_eq!(reach(color, kind, square), attacks(Piece { color, kind }, square, 0));
                }
            }
        }
    }

    #[test]
    fn squares_iterates_in_order() {
        let found: Vec<Square> = squares(bb(&["h8", "a1", "e4"])).collect();
        assert_eq!(found, vec![sq("a1"), sq("e4"), sq("h8")]);
        assert_eq!(squares(0).count(), 0);
    }
}
