//! The FullThreats features a change of the board removes and adds, from one
//! perspective. This holds for any change (a move, several moves, or the way
//! from a refresh-cache entry's board to the current one), as long as the
//! perspective's king square, which orients the board, is the same on both
//! boards.
//!
//! Only attacks by some pieces can differ: those of the pieces on the
//! squares whose content changed, and those of the pieces attacking such a
//! square (empty or not). Every other piece stands on an unchanged square
//! and attacks no changed square, so its rays (stopped by the same pieces)
//! and the pieces they hit are the same on both boards. The changes are the
//! difference between those pieces' features before and after.
//!
//! A piece on an unchanged square attacks a changed square on one board if
//! and only if it does on the other: on the way to the nearest changed
//! square in that direction every square is unchanged, so empty on both
//! boards. The attackers are therefore looked up on one board.

use super::full_threats::mailbox;
use super::{FeatureBuffer, FeatureSink, FullThreats};
use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks, squares, Bitboard};
use crate::position::{Bitboards, Color, PieceKind, Square};

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
        let changed = before.iter().flatten().zip(after.iter().flatten()).fold(0, |changed, (b, a)| changed | (b ^ a));
        let (old_board, old_occupied) = mailbox(before);
        let (new_board, new_occupied) = mailbox(after);
        let attackers = changed | attackers_of(changed, before, old_occupied);
        let orientation = Self::orientation(perspective, king);
        let active = |board, occupied| {
            let mut features = FeatureBuffer::<{ FullThreats::MAX_ACTIVE }>::default();
            Self::for_each_active_of(board, occupied, attackers, perspective, orientation, |f| features.push(f));
            features.sort_unstable();
            features
        };
        let (old, new) = (active(&old_board, old_occupied), active(&new_board, new_occupied));
        difference(old.as_slice(), new.as_slice(), offset, removed, added);
    }
}

/// The pieces of `board` (with `occupied` its occupied squares) attacking
/// some square of `targets`.
fn attackers_of(targets: Bitboard, board: &Bitboards, occupied: Bitboard) -> Bitboard {
    let [white, black] = board;
    let of = |kind: PieceKind| white[kind as usize] | black[kind as usize];
    let (diagonal, straight) = (of(PieceKind::Bishop) | of(PieceKind::Queen), of(PieceKind::Rook) | of(PieceKind::Queen));
    let mut attackers = 0;
    for target in squares(targets) {
        // A pawn of one colour attacks the target from where a pawn of the
        // other colour on the target would attack.
        attackers |= pawn_attacks(Color::Black, target) & white[PieceKind::Pawn as usize];
        attackers |= pawn_attacks(Color::White, target) & black[PieceKind::Pawn as usize];
        attackers |= knight_attacks(target) & of(PieceKind::Knight);
        attackers |= king_attacks(target) & of(PieceKind::King);
        attackers |= bishop_attacks(target, occupied) & diagonal;
        attackers |= rook_attacks(target, occupied) & straight;
    }
    attackers
}

/// Pushes `offset +` the features of sorted `old` missing from sorted `new`
/// to `removed`, and those of `new` missing from `old` to `added`.
fn difference(old: &[u32], new: &[u32], offset: usize, removed: &mut impl FeatureSink, added: &mut impl FeatureSink) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::position::{Piece, Position};
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

    /// `board` with one non-king piece moved to a random square (capturing
    /// what stands there, unless a king), or removed, or a piece added on an
    /// empty square: the changes of one move or so.
    fn nearby(rng: &mut Rng, board: &Bitboards) -> Bitboards {
        let mut board = *board;
        let occupied = board.iter().flatten().fold(0, |o, b| o | b);
        let kings = board[0][PieceKind::King as usize] | board[1][PieceKind::King as usize];
        let color = rng.range(0, 1) as usize;
        let kind = rng.range(0, 4) as usize;
        let to = rng.range(0, 63) as u32;
        if kings & (1 << to) != 0 {
            return board;
        }
        for side in board.iter_mut() {
            for pieces in side.iter_mut() {
                *pieces &= !(1 << to);
            }
        }
        if let Some(from) = squares(board[color][kind]).nth(rng.range(0, 3) as usize) {
            board[color][kind] &= !(1 << from.index());
        }
        if rng.range(0, 3) != 0 || occupied & (1 << to) == 0 {
            board[color][kind] |= 1 << to;
        }
        board
    }

    fn active(board: &Bitboards, perspective: Color, king: Square, offset: usize) -> BTreeSet<usize> {
        let mut set = BTreeSet::new();
        FullThreats::for_each_active_on(board, perspective, king, |f| assert!(set.insert(f + offset)));
        set
    }

    /// Removing the changes from the features before and adding them gives
    /// the features after, each change once, for unrelated boards, from and
    /// to an empty one, and for boards a move or so apart.
    #[test]
    fn changes_turn_one_board_into_another() {
        let mut rng = Rng::new(1414);
        for _ in 0..300 {
            let (n, m) = (rng.range(2, 32) as usize, rng.range(2, 32) as usize);
            let (a, b) = (random_board(&mut rng, n).bitboards(), random_board(&mut rng, m).bitboards());
            let near: Vec<Bitboards> = (0..20).map(|_| nearby(&mut rng, &a)).collect();
            for perspective in [Color::White, Color::Black] {
                let king = squares(a[perspective.index()][PieceKind::King as usize]).next().unwrap();
                let empty = [[0; 6]; 2];
                let mut pairs = vec![(a, b), (empty, a), (a, empty), (a, a)];
                pairs.extend(near.iter().flat_map(|&c| [(a, c), (c, a)]));
                for (before, after) in pairs {
                    let (mut removed, mut added) = (FeatureBuffer::<600>::default(), FeatureBuffer::<600>::default());
                    FullThreats::changes(perspective, king, &before, &after, 10, &mut removed, &mut added);
                    let mut features = active(&before, perspective, king, 10);
                    for f in removed.as_slice() {
                        assert!(features.remove(&(*f as usize)), "removed {f}, not active before");
                    }
                    for f in added.as_slice() {
                        assert!(features.insert(*f as usize), "added {f}, active before");
                    }
                    assert_eq!(features, active(&after, perspective, king, 10));
                }
            }
        }
    }

    /// On a real position the board's own king orients it as
    /// [`FullThreats::for_each_active`] does.
    #[test]
    fn bitboards_give_the_positions_features() {
        let mut rng = Rng::new(1415);
        for _ in 0..100 {
            let n = rng.range(2, 32) as usize;
            let pos = random_board(&mut rng, n);
            for perspective in [Color::White, Color::Black] {
                let mut from_pos = BTreeSet::new();
                FullThreats::for_each_active(&pos, perspective, |f| assert!(from_pos.insert(f)));
                assert_eq!(from_pos, active(&pos.bitboards(), perspective, pos.king_square(perspective), 0));
            }
        }
    }
}
