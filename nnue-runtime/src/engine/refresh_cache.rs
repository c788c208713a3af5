//! The refresh cache ("Finny table"): for every king square and
//! perspective, the last accumulator computed there and the board it was
//! computed for. A refresh then applies only the difference between that
//! board and the current one instead of adding every piece's features.
//!
//! Keyed by the king square, the finest key any feature set needs: king
//! buckets and mirroring are functions of it, so a cached accumulator is
//! valid for its key whatever the feature set.

use crate::chess::position::{Bitboards, Color, Piece, PieceKind, Position, Square};
use crate::engine::network::Network;
use crate::features::FeatureSink;

struct Entry<N: Network> {
    half: N::Half,
    board: Bitboards,
}

/// One search thread's refresh cache for networks of type `N`.
pub struct RefreshCache<N: Network> {
    /// `[king square][perspective]`.
    entries: Box<[[Entry<N>; 2]]>,
}

/// The number of entries (each holds an accumulator half of kilobytes).
impl<N: Network> std::fmt::Debug for RefreshCache<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RefreshCache").field("entries", &(self.entries.len() * 2)).finish_non_exhaustive()
    }
}

impl<N: Network> RefreshCache<N> {
    /// A cache whose entries hold the empty board (the biases) of `net`.
    pub fn new(net: &N) -> Self {
        let entries =
            (0..64).map(|_| core::array::from_fn(|_| Entry { half: net.empty_half(), board: [[0; 6]; 2] })).collect();
        RefreshCache { entries }
    }

    /// Forgets every cached board (needed after switching to another
    /// network of the same type).
    pub fn clear(&mut self, net: &N) {
        *self = Self::new(net);
    }

    /// Forgets the entries of `pos`'s two kings (`[king(c)][c]` for both
    /// colours): they hold the empty board again, as [`Self::new`] makes
    /// them, so the next refresh there adds every feature, as Stockfish's
    /// harness empties them before a cold refresh (`nnue bench`'s
    /// `refresh`).
    pub fn forget(&mut self, net: &N, pos: &impl Position) {
        for perspective in [Color::White, Color::Black] {
            let entry = &mut self.entries[pos.king_square(perspective).index()][perspective.index()];
            *entry = Entry { half: net.empty_half(), board: [[0; 6]; 2] };
        }
    }

    /// Computes `perspective`'s accumulator of `pos` into `accumulator` from
    /// the cache entry of its king square, and stores the result back there.
    pub fn refresh(&mut self, net: &N, pos: &impl Position, perspective: Color, accumulator: &mut N::Accumulator) {
        let board = pos.bitboards();
        self.refresh_board(net, &board, pos.king_square(perspective), perspective, accumulator);
    }

    /// Both perspectives of `pos`.
    pub fn refresh_both(&mut self, net: &N, pos: &impl Position, accumulator: &mut N::Accumulator) {
        let board = pos.bitboards();
        for perspective in [Color::White, Color::Black] {
            self.refresh_board(net, &board, pos.king_square(perspective), perspective, accumulator);
        }
    }

    fn refresh_board(
        &mut self,
        net: &N,
        board: &Bitboards,
        king: Square,
        perspective: Color,
        accumulator: &mut N::Accumulator,
    ) {
        let entry = &mut self.entries[king.index()][perspective.index()];
        if entry.board == *board {
            // The entry holds this very position (as after a null move, or
            // when a search returns to a king square with the same pieces).
            N::load_half(&entry.half, accumulator, perspective);
            return;
        }
        let (mut removed, mut added) = (N::Changes::default(), N::Changes::default());
        for (color, (old_side, new_side)) in [Color::White, Color::Black].into_iter().zip(entry.board.iter().zip(board))
        {
            for (kind, (&old, &new)) in PieceKind::ALL.into_iter().zip(old_side.iter().zip(new_side)) {
                let piece = Piece { color, kind };
                for (mut squares, list) in [(old & !new, &mut removed), (new & !old, &mut added)] {
                    while squares != 0 {
                        let square = Square::new(squares.trailing_zeros() as u8).expect("bit index below 64");
                        squares &= squares - 1;
                        if let Some(f) = N::feature(perspective, king, square, piece) {
                            list.push(f);
                        }
                    }
                }
            }
        }
        if N::BOARD_FEATURES {
            let mut changes = N::BoardChanges::default();
            N::board_changes(&entry.board, board, &mut changes);
            N::board_features(perspective, king, &changes, &mut removed, &mut added);
        }
        net.update_from_half(&entry.half, accumulator, perspective, removed.as_slice(), added.as_slice());
        N::store_half(accumulator, perspective, &mut entry.half);
        entry.board = *board;
    }
}
