//! A board's pieces kept two ways at once: bitboards by colour and kind
//! (what attack sets are computed from) and the code of the piece on each
//! square (what a threat's attacking and attacked pieces are read from,
//! one load each). The accumulator stack keeps one per node for networks
//! with board features, each made from its parent's by the move's pieces,
//! so that no search step builds the squares' codes from the bitboards.

use super::position::{Bitboards, Piece, Square};

/// The code of an empty square in [`Placement::codes`] (a piece's code is
/// `6 * colour + kind`, 0..=11).
pub const EMPTY: u8 = 12;

/// A board as [`Bitboards`] and as the code of the piece on each square;
/// the two always agree (every change goes through both).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    bitboards: Bitboards,
    codes: [u8; 64],
}

impl Default for Placement {
    /// The empty board.
    fn default() -> Placement {
        Placement { bitboards: Bitboards::default(), codes: [EMPTY; 64] }
    }
}

impl Placement {
    /// The board of `bitboards` (a square in two of them holds the piece of
    /// the later one, in colour-then-kind order).
    pub fn new(bitboards: &Bitboards) -> Placement {
        let mut codes = [EMPTY; 64];
        for (code, &pieces) in bitboards.iter().flatten().enumerate() {
            let mut squares = pieces;
            while squares != 0 {
                codes[squares.trailing_zeros() as usize] = code as u8;
                squares &= squares - 1;
            }
        }
        Placement { bitboards: *bitboards, codes }
    }

    /// The board as bitboards.
    #[inline]
    pub fn bitboards(&self) -> &Bitboards {
        &self.bitboards
    }

    /// The code of the piece on each square, [`EMPTY`] where there is none.
    #[inline]
    pub fn codes(&self) -> &[u8; 64] {
        &self.codes
    }

    /// Takes `piece` off `square`, which holds it.
    #[inline]
    pub fn lift(&mut self, square: Square, piece: Piece) {
        self.bitboards[piece.color.index()][piece.kind as usize] &= !(1 << square.index());
        self.codes[square.index()] = EMPTY;
    }

    /// Puts `piece` on the empty `square`.
    #[inline]
    pub fn put(&mut self, square: Square, piece: Piece) {
        self.bitboards[piece.color.index()][piece.kind as usize] |= 1 << square.index();
        self.codes[square.index()] = piece.code() as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::position::{Color, PieceKind};

    #[test]
    fn codes_follow_the_bitboards_through_lifts_and_puts() {
        let knight = Piece { color: Color::Black, kind: PieceKind::Knight };
        let rook = Piece { color: Color::White, kind: PieceKind::Rook };
        let (a1, c3, h8) = (Square::new(0).unwrap(), Square::new(18).unwrap(), Square::new(63).unwrap());
        let mut bitboards = Bitboards::default();
        bitboards[1][PieceKind::Knight as usize] = 1 << 18;
        bitboards[0][PieceKind::Rook as usize] = 1 << 63;
        let mut placement = Placement::new(&bitboards);
        assert_eq!(placement.codes()[18], 7);
        assert_eq!(placement.codes()[63], 3);
        assert_eq!(placement.codes().iter().filter(|&&c| c == EMPTY).count(), 62);
        placement.lift(c3, knight);
        placement.put(a1, knight);
        placement.lift(h8, rook);
        placement.put(c3, rook);
        let mut moved = Bitboards::default();
        moved[1][PieceKind::Knight as usize] = 1;
        moved[0][PieceKind::Rook as usize] = 1 << 18;
        assert_eq!(placement, Placement::new(&moved));
        assert_eq!(Placement::default(), Placement::new(&Bitboards::default()));
    }
}
