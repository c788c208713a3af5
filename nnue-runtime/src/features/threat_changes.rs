//! The FullThreats features a change of the board removes and adds, from one
//! perspective. This holds for any change (a move, several moves, or the way
//! from a refresh-cache entry's board to the current one), as long as the
//! perspective's king square, which orients the board, is the same on both
//! boards. Two ways to find them, chosen by how many squares changed.
//!
//! **Piece by piece** (a move: two to four squares). The pieces on changed
//! squares are lifted from the board one by one, then the new ones put down.
//! A piece on a square takes part in three kinds of threats: its own attacks,
//! the attacks on it, and the attacks of sliders that it stops, which pass
//! through its square when it is gone (from the first piece on one side of
//! it to the first on the other). Lifting it removes the first two and adds
//! the third; putting it down does the opposite. Summed over the steps this
//! gives every threat that differs, with those that a later step undoes
//! (lifted then put back, opened then closed) once in each list: such pairs
//! are cancelled (each key looked up in the other list, or, for long lists,
//! both sorted and merged), so what remains is exact. A piece replaced by
//! another (a capture) is lifted and the new one put down in turn, and the
//! attacks through its square, the same before and after, are not listed.
//!
//! **By attackers** (any change). Only attacks by some pieces can differ:
//! those of the pieces on the squares whose content changed, and those of
//! the pieces attacking such a square (empty or not). Every other piece
//! stands on an unchanged square and attacks no changed square, so its rays
//! (stopped by the same pieces) and the pieces they hit are the same on both
//! boards. The changes are the difference between those pieces' features
//! before and after. A piece on an unchanged square attacks a changed square
//! on one board if and only if it does on the other: on the way to the
//! nearest changed square in that direction every square is unchanged, so
//! empty on both boards. The attackers are therefore looked up on one board.
//! Both boards' threats of those pieces are listed as keys ordered by the
//! attacker's square, then the attacked square (the order they are found
//! in), so one merge finds the threats on one board only; only those are
//! turned into features.

use super::FeatureBuffer;
use crate::chess::attacks::{
    Bitboard, attacks, bishop_attacks, first_on_ray, king_attacks, knight_attacks, pawn_attacks, rook_attacks, squares,
};
use crate::chess::placement::{EMPTY, Placement};
use crate::chess::position::{Bitboards, Color, Piece, PieceCodes, PieceKind, Square, occupied};

/// Most features active at once, per perspective, in a position of at most
/// 32 pieces, whatever the targets: see `FullThreats::MAX_ACTIVE`.
pub const MAX_THREATS: usize = 256;

/// The threats a change of the board removes and adds, the same from both
/// perspectives, as keys: found once per move
/// ([`super::BoardFeatures::board_changes`]), then turned into each
/// perspective's features ([`super::BoardFeatures::features_of`]).
#[derive(Debug, Clone, Default)]
pub struct ThreatChanges {
    removed: FeatureBuffer<MAX_THREATS>,
    added: FeatureBuffer<MAX_THREATS>,
}

impl ThreatChanges {
    /// Sets these to the threats on `before` only (removed) and on `after`
    /// only (added), for the targets `TARGETS` of [`super::FullThreats`].
    pub(super) fn find<const TARGETS: u64>(&mut self, before: &Placement, after: &Placement) {
        self.removed.clear();
        self.added.clear();
        let (old, new) = (before.bitboards(), after.bitboards());
        let changed = old.iter().flatten().zip(new.iter().flatten()).fold(0, |changed, (b, a)| changed | (b ^ a));
        if changed == 0 {
            return;
        }
        if crate::chess::attacks::popcount(changed) <= PIECE_BY_PIECE_SQUARES {
            self.find_piece_by_piece::<TARGETS>(before, after, changed);
        } else {
            self.find_by_attackers::<TARGETS>(before, after, changed);
        }
    }

    /// [`Self::find`] piece by piece (see the module documentation), for
    /// at most [`PIECE_BY_PIECE_SQUARES`] `changed` squares.
    fn find_piece_by_piece<const TARGETS: u64>(&mut self, before: &Placement, after: &Placement, changed: Bitboard) {
        let mut board = Planes::new(before);
        let (mut gone, mut came) = (Found::default(), Found::default());
        let (was, is) = (board.occupied, occupied(after.bitboards()));
        // A piece replaced by another (a capture, a capturing promotion):
        // the old one lifted and the new one put down in turn, without the
        // attacks through the square, which the square stops on both
        // boards around the replacement (the same sliders and the same
        // first pieces beyond it): as lists they would cancel exactly,
        // every slider aiming at a capture's square listed twice.
        for square in squares(changed & was & is) {
            threats_at::<TARGETS, false>(&board, square, &mut gone, &mut came);
            board.toggle(square, board.code(square));
            board.toggle(square, after.codes()[square.index()]);
            threats_at::<TARGETS, false>(&board, square, &mut came, &mut gone);
        }
        for square in squares(changed & was & !is) {
            threats_at::<TARGETS, true>(&board, square, &mut gone, &mut came);
            board.toggle(square, board.code(square));
        }
        for square in squares(changed & is & !was) {
            board.toggle(square, after.codes()[square.index()]);
            threats_at::<TARGETS, true>(&board, square, &mut came, &mut gone);
        }
        debug_assert_eq!(gone.dropped() + came.dropped(), 0, "more threats than the steps can find");
        if gone.as_slice().len() * came.as_slice().len() <= CANCEL_BY_SEARCH {
            self.cancel(gone.as_mut_slice(), came.as_slice());
        } else {
            gone.sort_unstable();
            came.sort_unstable();
            self.merge(gone.as_slice(), came.as_slice());
        }
    }

    /// Appends the keys of `gone` not in `came` to the removed threats and
    /// those of `came` not in `gone` to the added ones, a key of one list
    /// cancelling at most one equal key of the other (as [`Self::merge`],
    /// in another order): each key of `came` looked for among the keys of
    /// `gone` not cancelled yet, which are kept at its front.
    fn cancel(&mut self, gone: &mut [u32], came: &[u32]) {
        // A bit per key of `gone`, chosen by a hash of the key: a key of
        // `came` whose bit is clear has no equal in `gone` and is added
        // without a search (most keys: a pair needs a piece moving along a
        // slider's line, or castling).
        let bit = |key: u32| 1u64 << (key.wrapping_mul(0x9E37_79B1) >> 26);
        let gone_bits = gone.iter().fold(0, |bits, &key| bits | bit(key));
        let mut live = gone.len();
        for &key in came {
            if gone_bits & bit(key) == 0 {
                self.added.push(key as usize);
                continue;
            }
            match gone[..live].iter().position(|&g| g == key) {
                Some(i) => {
                    live -= 1;
                    gone.swap(i, live);
                }
                None => self.added.push(key as usize),
            }
        }
        gone[..live].iter().for_each(|&key| self.removed.push(key as usize));
    }

    /// [`Self::find`] by the attackers of the `changed` squares (see the
    /// module documentation), for any change.
    fn find_by_attackers<const TARGETS: u64>(&mut self, before: &Placement, after: &Placement, changed: Bitboard) {
        let (old_board, new_board) = (before.bitboards(), after.bitboards());
        let (old_occupied, new_occupied) = (occupied(old_board), occupied(new_board));
        let attackers = changed | attackers_of(changed, old_board, old_occupied);
        let old = threat_keys(before.codes(), old_occupied, attackers, &targetable(TARGETS, old_board));
        let new = threat_keys(after.codes(), new_occupied, attackers, &targetable(TARGETS, new_board));
        self.merge(old.as_slice(), new.as_slice());
    }

    /// Appends the keys of `old` not in `new` to the removed threats and
    /// those of `new` not in `old` to the added ones: both sorted, a key
    /// matched at most once.
    fn merge(&mut self, old: &[u32], new: &[u32]) {
        let (mut i, mut j) = (0, 0);
        while i < old.len() && j < new.len() {
            if old[i] == new[j] {
                i += 1;
                j += 1;
            } else if old[i] < new[j] {
                self.removed.push(old[i] as usize);
                i += 1;
            } else {
                self.added.push(new[j] as usize);
                j += 1;
            }
        }
        old[i..].iter().for_each(|&key| self.removed.push(key as usize));
        new[j..].iter().for_each(|&key| self.added.push(key as usize));
    }

    /// The threats removed, as keys (see [`Self::parts`]).
    pub(super) fn removed_keys(&self) -> &[u32] {
        self.removed.as_slice()
    }

    /// The threats added, as keys.
    pub(super) fn added_keys(&self) -> &[u32] {
        self.added.as_slice()
    }

    /// The attacker's code (`6 * colour + kind`), its square's index, the
    /// attacked piece's code and its square's index, of a key.
    #[inline]
    pub(super) fn parts(key: u32) -> (usize, usize, usize, usize) {
        let key = key as usize;
        (key >> 4 & 15, key >> 14 & 63, key & 15, key >> 8 & 63)
    }
}

/// Most changed squares [`ThreatChanges::find`] takes piece by piece.
const PIECE_BY_PIECE_SQUARES: u32 = 8;

/// Up to this many pairs of keys (a move's: a few threats gone and a few
/// come), the threats found piece by piece are cancelled by looking each up
/// ([`ThreatChanges::cancel`]) rather than by sorting both lists and merging
/// them. Interleaved A/B of move + eval on a Zen 5: Stockfish 19's net 0.95
/// (AVX2) and 0.97 (AVX-512 VNNI), 18's 0.98 and 0.95; a hot-cache refresh
/// of 19's net 0.95. Beyond the bound (a refresh-cache entry eight squares
/// away) the search would cost more than the sort.
const CANCEL_BY_SEARCH: usize = 256;

/// Threats found piece by piece, before cancelling: at most 32 a step (a
/// piece's 8 attacks, the attacks on it from 8 directions and 8 knight
/// squares, 8 through it), two steps per changed square.
type Found = FeatureBuffer<{ 32 * 2 * PIECE_BY_PIECE_SQUARES as usize }>;

/// A board changed piece by piece: the pieces by colour and kind, the
/// occupied squares, and the code of the piece on each square (a copy of a
/// [`Placement`]'s, one load a piece; kept in bit planes and built from
/// the bitboards at each call instead, a move took about 100 instructions
/// more and a code 12 instructions, some 25 codes a move).
struct Planes {
    pieces: Bitboards,
    occupied: Bitboard,
    codes: [u8; 64],
}

impl Planes {
    fn new(board: &Placement) -> Planes {
        Planes { pieces: *board.bitboards(), occupied: occupied(board.bitboards()), codes: *board.codes() }
    }

    /// The code of the piece on the occupied `square`.
    #[inline]
    fn code(&self, square: Square) -> u8 {
        self.codes[square.index()]
    }

    /// The pieces of `kind`, both colours.
    #[inline]
    fn of(&self, kind: usize) -> Bitboard {
        self.pieces[0][kind] | self.pieces[1][kind]
    }

    /// The pieces of the kinds whose bits are set in `kinds` (bit `kind`).
    #[inline]
    fn of_kinds(&self, kinds: u64) -> Bitboard {
        (0..6).fold(0, |squares, kind| squares | self.of(kind) & 0u64.wrapping_sub(kinds >> kind & 1))
    }

    /// Sets or clears the piece of `code` on `square`: puts it there if the
    /// square is empty, else lifts it.
    #[inline]
    fn toggle(&mut self, square: Square, code: u8) {
        let bit = 1 << square.index();
        self.pieces[code as usize / 6][code as usize % 6] ^= bit;
        self.occupied ^= bit;
        self.codes[square.index()] = if self.occupied & bit != 0 { code } else { EMPTY };
    }
}

/// The key of a threat, as [`threat_keys`] makes them.
#[inline]
fn key(from: Square, to: Square, attacker: u8, attacked: u8) -> usize {
    (from.index() << 14) | (to.index() << 8) | (usize::from(attacker) << 4) | usize::from(attacked)
}

/// The direction of [`first_on_ray`] from `from` to `to`, on one line.
#[inline]
fn direction(from: Square, to: Square) -> usize {
    /// By `(file step + 1) * 3 + rank step + 1`; the middle is unused.
    const BY_STEP: [u8; 9] = [5, 4, 3, 6, 0, 2, 7, 0, 1];
    let step = |a: u8, b: u8| (i32::from(b > a) - i32::from(b < a) + 1) as usize;
    usize::from(BY_STEP[step(from.file(), to.file()) * 3 + step(from.rank(), to.rank())])
}

/// The threats of the piece on `square` of `board` (occupied): its own
/// attacks and those on it, to `with_piece`; and the attacks that pass
/// through its square when it is gone, to `through`, if `THROUGH`
/// (`TARGETS` as [`super::FullThreats`]'s).
///
/// One path for every kind, without a branch on it: the leapers' tables and
/// both sliders' attacks from the square serve to find its attackers anyway,
/// and its own attacks are picked from them by masks. (A copy of this
/// function per kind, chosen by a jump, was 8 KB of code, and the jump was
/// the hottest instruction in a profile of Stockfish's search.)
fn threats_at<const TARGETS: u64, const THROUGH: bool>(
    board: &Planes,
    square: Square,
    with_piece: &mut Found,
    through: &mut Found,
) {
    // By kind, the kinds attacking it as a feature.
    const fn attacked_by(targets: u64) -> [u64; 6] {
        let mut by = [0; 6];
        let mut kind = 0;
        while kind < 6 {
            let mut a = 0;
            while a < 6 {
                by[kind] |= (targets >> (6 * a + kind) & 1) << a;
                a += 1;
            }
            kind += 1;
        }
        by
    }
    let occupied = board.occupied;
    let code = board.code(square);
    let kind = usize::from(code) % 6;
    let is = |k: PieceKind| 0u64.wrapping_sub(u64::from(kind == k as usize));
    let [white, black] = &board.pieces;
    // A white pawn's captures from here, a black one's, a knight's, a king's.
    let (up, down) = (pawn_attacks(Color::White, square), pawn_attacks(Color::Black, square));
    let (knight, king) = (knight_attacks(square), king_attacks(square));
    let (diagonal_rays, straight_rays) = (bishop_attacks(square, occupied), rook_attacks(square, occupied));
    // Its own attacks, on the kinds it attacks as a feature.
    let pawn = if code < 6 { up } else { down };
    let own = pawn & is(PieceKind::Pawn)
        | knight & is(PieceKind::Knight)
        | king & is(PieceKind::King)
        | diagonal_rays & (is(PieceKind::Bishop) | is(PieceKind::Queen))
        | straight_rays & (is(PieceKind::Rook) | is(PieceKind::Queen));
    for to in squares(own & board.of_kinds(TARGETS >> (6 * kind) & 0x3F)) {
        with_piece.push(key(square, to, code, board.code(to)));
    }
    // Its attackers: a pawn of one colour from where a pawn of the other
    // on this square would attack.
    let sliders = diagonal_rays & (board.of(PieceKind::Bishop as usize) | board.of(PieceKind::Queen as usize))
        | straight_rays & (board.of(PieceKind::Rook as usize) | board.of(PieceKind::Queen as usize));
    let attackers = down & white[PieceKind::Pawn as usize]
        | up & black[PieceKind::Pawn as usize]
        | knight & board.of(PieceKind::Knight as usize)
        | king & board.of(PieceKind::King as usize)
        | sliders;
    for from in squares(attackers & board.of_kinds(const { attacked_by(TARGETS) }[kind])) {
        with_piece.push(key(from, square, board.code(from), code));
    }
    // What each slider attacking it attacks through its square: the first
    // piece on the other side.
    if !THROUGH {
        return;
    }
    for from in squares(sliders) {
        if let Some(to) = first_on_ray(direction(from, square), square, occupied) {
            let (attacker, attacked) = (board.code(from), board.code(to));
            if TARGETS >> (6 * (attacker as usize % 6) + attacked as usize % 6) & 1 != 0 {
                through.push(key(from, to, attacker, attacked));
            }
        }
    }
}

/// For each attacking kind, the squares of `board` holding a piece of a kind
/// it attacks as a feature (`targets` as [`super::FullThreats`]'s `TARGETS`).
#[inline]
fn targetable(targets: u64, board: &Bitboards) -> [Bitboard; 6] {
    let [white, black] = board;
    core::array::from_fn(|attacker| {
        (0..6)
            .filter(|&attacked| targets >> (6 * attacker + attacked) & 1 != 0)
            .fold(0, |squares, attacked| squares | white[attacked] | black[attacked])
    })
}

/// The threats of the pieces on `attackers` of a board given as the code of
/// the piece on each square ([`Placement::codes`]) and the occupied squares, on the
/// pieces of kinds they may attack as a feature (`targetable`, by attacker
/// kind), as keys `from << 14 | to << 8 | attacker << 4 | attacked` (square
/// indices and piece codes), in ascending order. A board of at most 32
/// pieces has at most [`MAX_THREATS`] threats.
fn threat_keys(
    board: &[u8; 64],
    occupied: Bitboard,
    attackers: Bitboard,
    targetable: &[Bitboard; 6],
) -> FeatureBuffer<MAX_THREATS> {
    let mut keys = FeatureBuffer::default();
    for from in squares(occupied & attackers) {
        let attacker = u32::from(board[from.index()]);
        let targets = targetable[attacker as usize % 6];
        if targets == 0 {
            continue;
        }
        let base = (from.index() as u32) << 14 | attacker << 4;
        for to in squares(attacks(PieceCodes::piece(attacker as usize), from, occupied) & targets) {
            keys.push((base | (to.index() as u32) << 8 | u32::from(board[to.index()])) as usize);
        }
    }
    debug_assert_eq!(keys.dropped(), 0, "more threats than a board of 32 pieces has");
    keys
}

/// Calls `f(code, from, attacked, codes)` for every piece of `board` (its
/// code and square) with the squares of the pieces it attacks as a feature
/// (`TARGETS` as [`super::FullThreats`]'s), non-empty, and the code of the
/// piece on each square ([`Placement::codes`]): every threat of a board, attacker by
/// attacker, a loop per kind of piece with its own attacks, as Stockfish
/// lists a position's threats: what a refresh adds
/// ([`super::BoardFeatures::active_on`]). Found as the change from an empty
/// board instead ([`ThreatChanges::find`]: the attackers of every square
/// looked up, both boards' keys listed and merged), a cache-hot refresh on
/// Stockfish 18's net took about 400 ns more of its 1600.
#[inline(always)]
pub(super) fn for_each_attacker<const TARGETS: u64>(
    board: &Bitboards,
    mut f: impl FnMut(u8, Square, Bitboard, &[u8; 64]),
) {
    /// The pieces of one kind and colour, `code`, attacking from `pieces`.
    #[inline(always)]
    fn each(
        pieces: Bitboard,
        code: u8,
        targets: Bitboard,
        codes: &[u8; 64],
        attacks: impl Fn(Square) -> Bitboard,
        f: &mut impl FnMut(u8, Square, Bitboard, &[u8; 64]),
    ) {
        if targets == 0 {
            return;
        }
        for from in squares(pieces) {
            let attacked = attacks(from) & targets;
            if attacked != 0 {
                f(code, from, attacked, codes);
            }
        }
    }
    let codes = *Placement::new(board).codes();
    let occupied = occupied(board);
    let targetable = targetable(TARGETS, board);
    for (color, pieces) in [Color::White, Color::Black].into_iter().zip(board) {
        let code = |kind: PieceKind| Piece { color, kind }.code() as u8;
        let of = |kind: PieceKind| (pieces[kind as usize], code(kind), targetable[kind as usize]);
        let (p, c, t) = of(PieceKind::Pawn);
        each(p, c, t, &codes, |from| pawn_attacks(color, from), &mut f);
        let (p, c, t) = of(PieceKind::Knight);
        each(p, c, t, &codes, knight_attacks, &mut f);
        let (p, c, t) = of(PieceKind::Bishop);
        each(p, c, t, &codes, |from| bishop_attacks(from, occupied), &mut f);
        let (p, c, t) = of(PieceKind::Rook);
        each(p, c, t, &codes, |from| rook_attacks(from, occupied), &mut f);
        let (p, c, t) = of(PieceKind::Queen);
        each(p, c, t, &codes, |from| bishop_attacks(from, occupied) | rook_attacks(from, occupied), &mut f);
        let (p, c, t) = of(PieceKind::King);
        each(p, c, t, &codes, king_attacks, &mut f);
    }
}

/// The pieces of `board` (with `occupied` its occupied squares) attacking
/// some square of `targets`.
fn attackers_of(targets: Bitboard, board: &Bitboards, occupied: Bitboard) -> Bitboard {
    let [white, black] = board;
    let of = |kind: PieceKind| white[kind as usize] | black[kind as usize];
    let (diagonal, straight) =
        (of(PieceKind::Bishop) | of(PieceKind::Queen), of(PieceKind::Rook) | of(PieceKind::Queen));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::board::Board;
    use crate::chess::position::{Piece, Position};
    use crate::features::{BoardFeatures, FullThreats};
    use crate::format::writer::Rng;
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
        let occupied = crate::chess::position::occupied(&board);
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

    /// Stockfish 19's targets: no pawn on pawn, nothing by or on a king.
    const STOCKFISH_19_TARGETS: u64 = crate::features::threat_targets([
        &[PieceKind::Knight, PieceKind::Rook],
        &[PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen],
        &[PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook],
        &[PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook],
        &[PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen],
        &[],
    ]);

    fn active<const T: u64>(board: &Bitboards, perspective: Color, king: Square) -> BTreeSet<usize> {
        let mut set = BTreeSet::new();
        FullThreats::<T>::for_each_active_on(board, perspective, king, |f| assert!(set.insert(f)));
        set
    }

    /// Removing the changes from the features before and adding them gives
    /// the features after, each change once, for unrelated boards, from and
    /// to an empty one, and for boards a move or so apart.
    #[test]
    fn changes_turn_one_board_into_another() {
        changes_turn_one_board_into_another_with::<{ crate::features::STOCKFISH_18_TARGETS }>();
        changes_turn_one_board_into_another_with::<STOCKFISH_19_TARGETS>();
    }

    fn changes_turn_one_board_into_another_with<const T: u64>() {
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
                    FullThreats::<T>::changes(perspective, king, &before, &after, &mut removed, &mut added);
                    let mut features = active::<T>(&before, perspective, king);
                    for f in removed.as_slice() {
                        assert!(features.remove(&(*f as usize)), "removed {f}, not active before");
                    }
                    for f in added.as_slice() {
                        assert!(features.insert(*f as usize), "added {f}, active before");
                    }
                    assert_eq!(features, active::<T>(&after, perspective, king));
                }
            }
        }
    }

    /// On a real position the board's own king orients it as
    /// [`FullThreats::for_each_active`] does.
    #[test]
    fn bitboards_give_the_positions_features() {
        bitboards_give_the_positions_features_with::<{ crate::features::STOCKFISH_18_TARGETS }>();
        bitboards_give_the_positions_features_with::<STOCKFISH_19_TARGETS>();
    }

    /// A refresh's direct listing (`active_on`) gives each feature of the
    /// board once, the same as the walk over every threat, with the king
    /// anywhere (its square only orients the board) and on boards of up to
    /// 32 pieces.
    #[test]
    fn listing_from_the_board_gives_every_feature_once() {
        listing_from_the_board_gives_every_feature_once_with::<{ crate::features::STOCKFISH_18_TARGETS }>();
        listing_from_the_board_gives_every_feature_once_with::<STOCKFISH_19_TARGETS>();
    }

    fn listing_from_the_board_gives_every_feature_once_with<const T: u64>() {
        let mut rng = Rng::new(1416);
        for _ in 0..300 {
            let n = rng.range(2, 32) as usize;
            let board = random_board(&mut rng, n).bitboards();
            let king = Square::new(rng.range(0, 63) as u8).unwrap();
            for perspective in [Color::White, Color::Black] {
                let mut listed = FeatureBuffer::<MAX_THREATS>::default();
                FullThreats::<T>::active_on(&board, perspective, king, &mut listed);
                assert_eq!(listed.dropped(), 0);
                let mut set = BTreeSet::new();
                for &f in listed.as_slice() {
                    assert!(set.insert(f as usize), "feature {f} listed twice");
                }
                assert_eq!(set, active::<T>(&board, perspective, king));
            }
        }
    }

    fn bitboards_give_the_positions_features_with<const T: u64>() {
        let mut rng = Rng::new(1415);
        for _ in 0..100 {
            let n = rng.range(2, 32) as usize;
            let pos = random_board(&mut rng, n);
            for perspective in [Color::White, Color::Black] {
                let mut from_pos = BTreeSet::new();
                FullThreats::<T>::for_each_active(&pos, perspective, |f| assert!(from_pos.insert(f)));
                assert_eq!(from_pos, active::<T>(&pos.bitboards(), perspective, pos.king_square(perspective)));
            }
        }
    }
}
