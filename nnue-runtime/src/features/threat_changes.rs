//! The FullThreats features a change of the board removes and adds, from one
//! perspective: the difference between the features active before and those
//! active after. This holds for any change (a move, several moves, or the
//! way from a refresh-cache entry's board to the current one), as long as
//! the perspective's king square, which orients the board, is the same on
//! both boards.

use super::{FeatureBuffer, FeatureSink, FullThreats};
use crate::position::{Bitboards, Color, Square};

impl FullThreats {
    /// Pushes `offset +` each feature active on `before` but not on `after`
    /// to `removed`, and each active on `after` but not on `before` to
    /// `added`, from `perspective` with its king on `king` on both boards.
    pub fn changes(
        perspective: Color,
        king: Square,
        before: &Bitboards,
        after: &Bitboards,
        offset: usize,
        removed: &mut impl FeatureSink,
        added: &mut impl FeatureSink,
    ) {
        let active = |board: &Bitboards| {
            let mut features = FeatureBuffer::<{ FullThreats::MAX_ACTIVE }>::default();
            Self::for_each_active_on(board, perspective, king, |f| features.push(f));
            features.sort_unstable();
            features
        };
        let (old, new) = (active(before), active(after));
        let (old, new) = (old.as_slice(), new.as_slice());
        let (mut i, mut j) = (0, 0);
        while i < old.len() || j < new.len() {
            match (old.get(i), new.get(j)) {
                (Some(a), Some(b)) if a == b => {
                    i += 1;
                    j += 1;
                }
                (Some(&a), b) if b.is_none_or(|&b| a < b) => {
                    removed.push(offset + a as usize);
                    i += 1;
                }
                (_, Some(&b)) => {
                    added.push(offset + b as usize);
                    j += 1;
                }
                (Some(_), None) | (None, None) => unreachable!("handled by the arms above"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::position::{Piece, PieceKind, Position};
    use crate::writer::Rng;
    use std::collections::BTreeSet;

    fn random_board(rng: &mut Rng, n: usize) -> Board {
        let mut squares: Vec<u8> = (0..64).collect();
        for i in 0..n {
            let j = rng.range(i as i64, 63) as usize;
            squares.swap(i, j);
        }
        let pieces = squares[..n].iter().enumerate().map(|(i, &s)| {
            let (color, kind) = match i {
                0 => (Color::White, PieceKind::King),
                1 => (Color::Black, PieceKind::King),
                _ => (
                    if rng.range(0, 1) == 0 { Color::White } else { Color::Black },
                    PieceKind::ALL[rng.range(0, 4) as usize],
                ),
            };
            (Square::new(s).unwrap(), Piece { color, kind })
        });
        Board::new(Color::White, pieces.collect::<Vec<_>>()).unwrap()
    }

    fn active(pos: &Board, perspective: Color, king: Square) -> BTreeSet<usize> {
        let mut set = BTreeSet::new();
        FullThreats::for_each_active_on(&pos.bitboards(), perspective, king, |f| assert!(set.insert(f)));
        set
    }

    /// Removing the changes from the features before and adding them gives
    /// the features after, for unrelated boards and for an empty one.
    #[test]
    fn changes_turn_one_board_into_another() {
        let mut rng = Rng::new(1414);
        for _ in 0..300 {
            let (n, m) = (rng.range(2, 32) as usize, rng.range(2, 32) as usize);
            let (a, b) = (random_board(&mut rng, n), random_board(&mut rng, m));
            for perspective in [Color::White, Color::Black] {
                let king = a.king_square(perspective);
                let empty = [[0; 6]; 2];
                for (before, after) in [(a.bitboards(), b.bitboards()), (empty, a.bitboards()), (a.bitboards(), a.bitboards())] {
                    let (mut removed, mut added) = (FeatureBuffer::<600>::default(), FeatureBuffer::<600>::default());
                    FullThreats::changes(perspective, king, &before, &after, 10, &mut removed, &mut added);
                    let mut features = BTreeSet::new();
                    FullThreats::for_each_active_on(&before, perspective, king, |f| assert!(features.insert(f + 10)));
                    for f in removed.as_slice() {
                        assert!(features.remove(&(*f as usize)), "removed {f}, not active before");
                    }
                    for f in added.as_slice() {
                        assert!(features.insert(*f as usize), "added {f}, active before");
                    }
                    let mut expected = BTreeSet::new();
                    FullThreats::for_each_active_on(&after, perspective, king, |f| assert!(expected.insert(f + 10)));
                    assert_eq!(features, expected);
                }
                // The position's own king orients it as `for_each_active` does.
                let mut from_pos = BTreeSet::new();
                FullThreats::for_each_active(&a, perspective, |f| assert!(from_pos.insert(f)));
                assert_eq!(from_pos, active(&a, perspective, king));
            }
        }
    }
}
