//! The refresh cache ("Finny table"): for every king square and
//! perspective, the last accumulator computed there and the board it was
//! computed for. A refresh then applies only the difference between that
//! board and the current one instead of adding every piece's features.
//!
//! Keyed by the king square, the finest key any feature set needs: king
//! buckets and mirroring are functions of it, so a cached accumulator is
//! valid for its key whatever the feature set.

use crate::features::FeatureList;
use crate::network::Network;
use crate::position::{Color, Piece, Position, Square};

/// A board as 64 piece codes (0 for an empty square).
type Pieces = [u8; 64];

fn code(piece: Piece) -> u8 {
    1 + piece.color.index() as u8 * 6 + piece.kind as u8
}

fn piece(code: u8) -> Piece {
    let color = if code > 6 { Color::Black } else { Color::White };
    Piece { color, kind: crate::position::PieceKind::ALL[usize::from((code - 1) % 6)] }
}

fn pieces(pos: &impl Position) -> Pieces {
    let mut board = [0; 64];
    pos.for_each_piece(|square, piece| board[square.index()] = code(piece));
    board
}

struct Entry<N: Network> {
    half: N::Half,
    board: Pieces,
}

/// One search thread's refresh cache for networks of type `N`.
pub struct RefreshCache<N: Network> {
    /// `[king square][perspective]`.
    entries: Box<[[Entry<N>; 2]]>,
}

impl<N: Network> RefreshCache<N> {
    /// A cache whose entries hold the empty board (the biases) of `net`.
    pub fn new(net: &N) -> Self {
        let entries = (0..64).map(|_| core::array::from_fn(|_| Entry { half: net.empty_half(), board: [0; 64] })).collect();
        RefreshCache { entries }
    }

    /// Forgets every cached board (needed after switching to another
    /// network of the same type).
    pub fn clear(&mut self, net: &N) {
        *self = Self::new(net);
    }

    /// Computes `perspective`'s accumulator of `pos` into `accumulator` from
    /// the cache entry of its king square, and stores the result back there.
    pub fn refresh(&mut self, net: &N, pos: &impl Position, perspective: Color, accumulator: &mut N::Accumulator) {
        let board = pieces(pos);
        self.refresh_board(net, &board, pos.king_square(perspective), perspective, accumulator);
    }

    /// Both perspectives of `pos`.
    pub fn refresh_both(&mut self, net: &N, pos: &impl Position, accumulator: &mut N::Accumulator) {
        let board = pieces(pos);
        for perspective in [Color::White, Color::Black] {
            self.refresh_board(net, &board, pos.king_square(perspective), perspective, accumulator);
        }
    }

    fn refresh_board(&mut self, net: &N, board: &Pieces, king: Square, perspective: Color, accumulator: &mut N::Accumulator) {
        let entry = &mut self.entries[king.index()][perspective.index()];
        let (mut removed, mut added) = (FeatureList::default(), FeatureList::default());
        for (index, (&old, &new)) in entry.board.iter().zip(board).enumerate() {
            if old == new {
                continue;
            }
            let square = Square::new(index as u8).expect("64 squares");
            if old != 0 {
                if let Some(f) = N::feature(perspective, king, square, piece(old)) {
                    removed.push(f);
                }
            }
            if new != 0 {
                if let Some(f) = N::feature(perspective, king, square, piece(new)) {
                    added.push(f);
                }
            }
        }
        net.update_from_half(&entry.half, accumulator, perspective, removed.as_slice(), added.as_slice());
        N::store_half(accumulator, perspective, &mut entry.half);
        entry.board = *board;
    }
}
