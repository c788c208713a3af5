//! FullThreats (Stockfish 18's big net and, with fewer targets, Stockfish
//! 19's): one feature for each piece that attacks another piece, seen from a
//! perspective.
//!
//! A feature is an attack of a piece (the attacker) on a square holding
//! another piece (the attacked), whatever their colours: a capture, or the
//! defence of an own piece. Sliders attack the first piece on each ray. The
//! board is seen from the perspective: black's view flips the ranks and swaps
//! the colours, so that "own" pieces play up the board, and the files are
//! mirrored when the perspective's king stands on files e-h, so that it
//! stands on files a-d (the opposite of HalfKAv2_hm's mirroring).
//!
//! Not every attack is a feature:
//! - only the (attacker, attacked) kinds of the set's `TARGETS` are: in
//!   Stockfish 18, not a pawn attacking a bishop, a queen or a king, nor a
//!   bishop or a rook attacking a queen, nor a king attacking a queen or a
//!   king;
//! - two pieces of one kind attacking each other would give two features for
//!   one relation; only the one whose attacker stands on the higher oriented
//!   square counts. This applies to enemy pieces of one kind (pawns
//!   included) and to own pieces of one kind other than pawns.
//!
//! The index of an attack: each relative attacker (own pawn, ..., own king,
//! their pawn, ..., their king, in that order) owns a range; in it one
//! section per relative target (own kinds, then their kinds, each in the
//! order of [`PieceKind`]); in a section the attacks the attacker's reach
//! allows from every square, by square `from`, then by square `to`, in
//! increasing order. "Reach" is the attack set on an empty board; pawns
//! standing on ranks 1 or 8 (never in a legal position) reach nothing here.
//!
//! Unlike the piece-square sets, a threat feature depends on two pieces, so
//! this set does not implement [`super::FeatureSet`] (a feature per piece):
//! [`FullThreats::index`] maps one [`Threat`] to a feature, and
//! [`FullThreats::for_each_active`] lists a position's features.

pub use super::threat_changes::MAX_THREATS;
use super::threat_changes::{ThreatChanges, for_each_attacker};
use super::{BoardFeatures, FeatureSink};
use crate::chess::attacks::{Bitboard, Popcount, attacks, reach, squares};
use crate::chess::placement::Placement;
use crate::chess::position::{Bitboards, Color, Piece, PieceKind, Position, Square};

/// One piece attacking another: what a threat feature encodes, before it is
/// seen from a perspective.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Threat {
    pub attacker: Piece,
    pub from: Square,
    pub attacked: Piece,
    pub to: Square,
}

/// The FullThreats feature set; see the module documentation. `TARGETS`
/// says which kinds of piece each kind attacks as a feature
/// ([`threat_targets`]): Stockfish 18's table is [`STOCKFISH_18_TARGETS`];
/// Stockfish 19 drops pawns attacking pawns (pawn pairs have their own set,
/// [`super::PawnPairs`]) and every attack by or on a king.
pub struct FullThreats<const TARGETS: u64>;

/// Stockfish 18's table, by attacker: a pawn attacks pawns, knights and
/// rooks; a knight or a queen every kind; a bishop or a rook every kind but
/// queens; a king pawns, knights, bishops and rooks.
pub const STOCKFISH_18_TARGETS: u64 = threat_targets([
    &[PieceKind::Pawn, PieceKind::Knight, PieceKind::Rook],
    &PieceKind::ALL,
    &[PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::King],
    &[PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::King],
    &PieceKind::ALL,
    &[PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook],
]);

/// The `TARGETS` of [`FullThreats`] from the kinds each kind attacks, by
/// attacker in [`PieceKind`] order: bit `6 * attacker + attacked`.
pub const fn threat_targets(targets: [&[PieceKind]; 6]) -> u64 {
    let mut mask = 0;
    let mut attacker = 0;
    while attacker < 6 {
        let mut i = 0;
        while i < targets[attacker].len() {
            mask |= 1 << (6 * attacker + targets[attacker][i] as usize);
            i += 1;
        }
        attacker += 1;
    }
    mask
}

/// For an attacker kind (row) and an attacked kind (column), in
/// [`PieceKind`] order, the attacked kind's place among the attacker's
/// targets of one colour; `None`: never a feature.
const fn target_slots(targets: u64) -> [[Option<u8>; 6]; 6] {
    let mut slots = [[None; 6]; 6];
    let mut attacker = 0;
    while attacker < 6 {
        let (mut attacked, mut slot) = (0, 0);
        while attacked < 6 {
            if targets & (1 << (6 * attacker + attacked)) != 0 {
                slots[attacker][attacked] = Some(slot);
                slot += 1;
            }
            attacked += 1;
        }
        attacker += 1;
    }
    slots
}

/// How many kinds of one colour an attacker of each kind can have as target.
const fn targets_per_color(targets: u64) -> [usize; 6] {
    let mut counts = [0; 6];
    let mut attacker = 0;
    while attacker < 6 {
        counts[attacker] = ((targets >> (6 * attacker)) & 0x3F).count_ones() as usize;
        attacker += 1;
    }
    counts
}

/// Relative pieces: own pieces `0..6`, the opponent's `6..12`, each by
/// [`PieceKind`].
const RELATIVE_PIECES: usize = 12;

/// The colour and kind of relative piece `relative` on the oriented board,
/// where own pieces play as white.
const fn oriented_piece(relative: usize) -> (Color, PieceKind) {
    let color = if relative < 6 { Color::White } else { Color::Black };
    (color, PieceKind::ALL[relative % 6])
}

/// Where every feature lies, computed at compile time from the reach of the
/// pieces and the targets of each kind.
struct Layout {
    /// Each relative piece's reach from each square of the oriented board,
    /// with where its attacks start in a section.
    reach: [[Reach; 64]; RELATIVE_PIECES],
    /// The reach summed over all squares: the size of one section.
    section: [u32; RELATIVE_PIECES],
    /// Where each relative attacker's range starts.
    start: [u32; RELATIVE_PIECES],
    /// Each attacker kind's target slot of each attacked kind.
    slots: [[Option<u8>; 6]; 6],
    /// How many kinds of one colour each attacker kind targets.
    targets_per_color: [usize; 6],
    /// By perspective, attacker code and attacked code (`6 * colour +
    /// kind`), what the pair of pieces contributes to the index: everything
    /// but the squares, looked up once per threat.
    pairs: [[[Pair; PIECE_CODES]; PIECE_CODES]; 2],
    /// The number of features.
    dimensions: usize,
}

/// A relative piece's reach from one square, and the reach summed over the
/// squares before it: where the square's attacks start within a section.
/// Together, so that a feature's index reads one cache line for both (the
/// tables are evicted by the weight rows between two moves: the loads of
/// two tables were most of `features_of`'s samples in a profile of
/// `nnue bench --ops walk`).
#[derive(Clone, Copy)]
#[repr(align(16))]
struct Reach {
    squares: Bitboard,
    before: u32,
}

/// Piece codes `6 * colour + kind` ([`Color::index`], [`PieceKind`] order),
/// with room to index by a code masked to four bits.
const PIECE_CODES: usize = 16;

/// An attacker and an attacked piece, seen from one perspective: the start
/// of their section, which relative piece attacks, and whether the two are
/// of one kind that only counts from the higher oriented square.
#[derive(Clone, Copy)]
struct Pair {
    /// The attacker's range start plus the target's section; [`NO_PAIR`]
    /// when the pair is never a feature.
    section: u32,
    relative: u8,
    once: bool,
}

/// [`Pair::section`] of a pair that is never a feature.
const NO_PAIR: u32 = u32::MAX;

const fn layout(targets: u64) -> Layout {
    let mut layout = Layout {
        reach: [[Reach { squares: 0, before: 0 }; 64]; RELATIVE_PIECES],
        section: [0; RELATIVE_PIECES],
        start: [0; RELATIVE_PIECES],
        slots: target_slots(targets),
        targets_per_color: targets_per_color(targets),
        pairs: [[[Pair { section: NO_PAIR, relative: 0, once: false }; PIECE_CODES]; PIECE_CODES]; 2],
        dimensions: 0,
    };
    let mut relative = 0;
    while relative < RELATIVE_PIECES {
        let (color, kind) = oriented_piece(relative);
        let mut count = 0;
        let mut from = 0;
        while from < 64 {
            let square = match Square::new(from as u8) {
                Some(square) => square,
                None => unreachable!(),
            };
            let on_back_rank = square.rank() == 0 || square.rank() == 7;
            let squares = if matches!(kind, PieceKind::Pawn) && on_back_rank { 0 } else { reach(color, kind, square) };
            layout.reach[relative][from] = Reach { squares, before: count };
            count += squares.count_ones();
            from += 1;
        }
        layout.section[relative] = count;
        layout.start[relative] = layout.dimensions as u32;
        layout.dimensions += 2 * layout.targets_per_color[kind as usize] * count as usize;
        relative += 1;
    }
    let mut perspective = 0;
    while perspective < 2 {
        let mut attacker = 0;
        while attacker < 12 {
            let mut attacked = 0;
            while attacked < 12 {
                let (kind, attacked_kind) = (attacker % 6, attacked % 6);
                if let Some(slot) = layout.slots[kind][attacked_kind] {
                    let relative = if attacker / 6 == perspective { kind } else { 6 + kind };
                    let target =
                        if attacked / 6 == perspective { 0 } else { layout.targets_per_color[kind] } + slot as usize;
                    layout.pairs[perspective][attacker][attacked] = Pair {
                        section: layout.start[relative] + target as u32 * layout.section[relative],
                        relative: relative as u8,
                        // Pieces of one kind attacking each other count once;
                        // own pawns cannot attack each other both ways, so
                        // they always count.
                        once: kind == attacked_kind
                            && (attacker / 6 != attacked / 6 || kind != PieceKind::Pawn as usize),
                    };
                }
                attacked += 1;
            }
            attacker += 1;
        }
        perspective += 1;
    }
    layout
}

/// The XOR mask orienting squares for `perspective` with its king on `king`:
/// ranks flipped for black, files mirrored for a king on e-h (FullThreats and
/// PP_3Wide).
#[inline]
pub fn orientation(perspective: Color, king: Square) -> u8 {
    let flip_ranks = if perspective == Color::Black { 56 } else { 0 };
    let mirror_files = if king.file() >= 4 { 7 } else { 0 };
    flip_ranks ^ mirror_files
}

/// The relative piece (`0..12`) of `piece` from `perspective`.
#[inline]
fn relative(perspective: Color, piece: Piece) -> usize {
    6 * usize::from(piece.color != perspective) + piece.kind as usize
}

impl<const TARGETS: u64> FullThreats<TARGETS> {
    const LAYOUT: Layout = layout(TARGETS);

    /// The XOR mask orienting squares for `perspective` with its king on
    /// `king`: ranks flipped for black, files mirrored for a king on e-h.
    #[inline]
    pub fn orientation(perspective: Color, king: Square) -> u8 {
        orientation(perspective, king)
    }

    /// The feature of `threat` from `perspective`, whose king is on `king`;
    /// `None` if the attack is no feature (an excluded pair of kinds, the
    /// lower half of a same-kind pair, or a `to` out of the attacker's reach).
    #[inline]
    pub fn index(perspective: Color, king: Square, threat: Threat) -> Option<usize> {
        Self::oriented_index(perspective, Self::orientation(perspective, king), threat)
    }

    /// [`FullThreats::index`] with the orientation computed.
    #[inline]
    pub(super) fn oriented_index(perspective: Color, orientation: u8, threat: Threat) -> Option<usize> {
        let Threat { attacker, from, attacked, to } = threat;
        Self::coded_index(perspective, orientation, attacker.code(), from.index(), attacked.code(), to.index())
    }

    /// [`FullThreats::oriented_index`] of a threat given as the codes of its
    /// pieces (`6 * colour + kind`, below 12) and the indices of their squares.
    #[inline]
    pub(super) fn coded_index(
        perspective: Color,
        orientation: u8,
        attacker: usize,
        from: usize,
        attacked: usize,
        to: usize,
    ) -> Option<usize> {
        let pop = Popcount::detect();
        let (index, valid) = Self::coded_index_or_not(perspective, orientation, pop, attacker, from, attacked, to);
        valid.then_some(index)
    }

    /// [`FullThreats::coded_index`] without a branch: the index, and
    /// whether the threat is a feature (if not, the index is meaningless);
    /// `pop` counts the squares below the target.
    /// Whether a move's threat is one depends on the orientation and the
    /// squares, which a branch predicts badly: against the branches,
    /// interleaved A/B of move + eval on a Zen 5, Stockfish 18's net 0.95
    /// (AVX2) and 0.94 (AVX-512 VNNI), 19's 0.97 and 0.975.
    #[inline]
    fn coded_index_or_not(
        perspective: Color,
        orientation: u8,
        pop: Popcount,
        attacker: usize,
        from: usize,
        attacked: usize,
        to: usize,
    ) -> (usize, bool) {
        let pair = Self::LAYOUT.pairs[perspective.index()][attacker % PIECE_CODES][attacked % PIECE_CODES];
        let from = (from ^ usize::from(orientation)) % 64;
        let to = (to ^ usize::from(orientation)) % 64;
        let relative = usize::from(pair.relative);
        let Reach { squares: reach, before } = Self::LAYOUT.reach[relative][from];
        let within = before + pop.count(reach & ((1 << to) - 1));
        let valid = (pair.section != NO_PAIR) & !(pair.once & (from < to)) & (reach >> to & 1 != 0);
        (pair.section as usize + within as usize, valid)
    }

    /// Calls `f` for every attack of a piece on another piece in `pos`, in
    /// no particular order.
    pub fn for_each_threat(pos: &impl Position, f: impl FnMut(Threat)) {
        let mut board = [None::<Piece>; 64];
        let mut occupied: Bitboard = 0;
        pos.for_each_piece(|square, piece| {
            board[square.index()] = Some(piece);
            occupied |= 1 << square.index();
        });
        Self::for_each_threat_on(&board, occupied, occupied, f);
    }

    /// [`FullThreats::for_each_threat`] on a board given as the piece on
    /// each square and the occupied squares, for the attackers on
    /// `attackers` only.
    pub(super) fn for_each_threat_on(
        board: &[Option<Piece>; 64],
        occupied: Bitboard,
        attackers: Bitboard,
        mut f: impl FnMut(Threat),
    ) {
        for from in squares(occupied & attackers) {
            let attacker = board[from.index()].expect("an occupied square holds a piece");
            for to in squares(attacks(attacker, from, occupied) & occupied) {
                let attacked = board[to.index()].expect("an occupied square holds a piece");
                f(Threat { attacker, from, attacked, to });
            }
        }
    }

    /// Calls `f` with every active feature of the board `bitboards` from
    /// `perspective`, whose king is on `king` (the board need not hold that
    /// king: an empty board has no features), in no particular order.
    pub fn for_each_active_on(bitboards: &Bitboards, perspective: Color, king: Square, f: impl FnMut(usize)) {
        let (board, occupied) = mailbox(bitboards);
        Self::for_each_active_of(&board, occupied, occupied, perspective, Self::orientation(perspective, king), f);
    }

    /// The active features of the attackers on `attackers` of a board given
    /// as the piece on each square and the occupied squares.
    pub(super) fn for_each_active_of(
        board: &[Option<Piece>; 64],
        occupied: Bitboard,
        attackers: Bitboard,
        perspective: Color,
        orientation: u8,
        mut f: impl FnMut(usize),
    ) {
        Self::for_each_threat_on(board, occupied, attackers, |threat| {
            if let Some(index) = Self::oriented_index(perspective, orientation, threat) {
                f(index);
            }
        });
    }

    /// Calls `f` with every active feature of `pos` from `perspective`, in no
    /// particular order (at most [`FullThreats::MAX_ACTIVE`] for a position
    /// of at most 32 pieces).
    pub fn for_each_active(pos: &impl Position, perspective: Color, mut f: impl FnMut(usize)) {
        let orientation = Self::orientation(perspective, pos.king_square(perspective));
        Self::for_each_threat(pos, |threat| {
            if let Some(index) = Self::oriented_index(perspective, orientation, threat) {
                f(index);
            }
        });
    }

    /// The attacker of `feature`: its relative piece (own pieces `0..6`,
    /// the opponent's `6..12`, each by [`PieceKind`]) and its square on the
    /// oriented board (`0..64`). Panics if `feature` is not below
    /// [`FullThreats::DIMENSIONS`].
    pub fn attacker(feature: usize) -> (usize, usize) {
        assert!(feature < Self::DIMENSIONS, "feature {feature} out of range");
        let relative = (0..RELATIVE_PIECES)
            .rev()
            .find(|&p| Self::LAYOUT.start[p] as usize <= feature)
            .expect("the first range starts at 0");
        let within = (feature - Self::LAYOUT.start[relative] as usize) % Self::LAYOUT.section[relative] as usize;
        let from = (0..64)
            .rev()
            .find(|&s| Self::LAYOUT.reach[relative][s].before as usize <= within)
            .expect("the first square starts at 0");
        (relative, from)
    }

    /// The relative piece (`0..12`, as [`FullThreats::attacker`] names
    /// them) of `piece` seen from `perspective`.
    pub fn relative_piece(perspective: Color, piece: Piece) -> usize {
        relative(perspective, piece)
    }

    /// Most pieces one attacker of relative piece `relative` attacks at
    /// once, so most features it has at once: a pawn 2, a bishop or a rook
    /// 4 (one per ray), a knight, a queen or a king 8.
    pub const fn max_attacked(relative: usize) -> usize {
        match PieceKind::ALL[relative % 6] {
            PieceKind::Pawn => 2,
            PieceKind::Bishop | PieceKind::Rook => 4,
            PieceKind::Knight | PieceKind::Queen | PieceKind::King => 8,
        }
    }
}

impl<const TARGETS: u64> BoardFeatures for FullThreats<TARGETS> {
    /// The name Stockfish gives it.
    const NAME: &'static str = "Full_Threats(Friend)";
    /// Number of features: 79,856 with Stockfish 18's targets, 59,808 with
    /// Stockfish 19's.
    const DIMENSIONS: usize = Self::LAYOUT.dimensions;
    /// Most features active at once, per perspective, in a position of at
    /// most 32 pieces: 256. Every feature is an attack by one piece on an
    /// occupied square, and a piece attacks at most 8 occupied squares (a
    /// knight or a king has 8 target squares; a queen 8 rays, each ending at
    /// its first piece; a rook or a bishop 4; a pawn 2), so at most
    /// `32 * 8 = 256` attacks exist. (Stockfish sizes its list for 128; a
    /// crowded, illegal board of 32 pieces has 134, see the tests; whether a
    /// legal position can pass 128 is not settled here.)
    /// [`FullThreats::for_each_active`] needs no capacity; this bounds
    /// buffers and the overflow proof.
    const MAX_ACTIVE: usize = MAX_THREATS;

    /// The threats found, as keys, once per move.
    type Changes = ThreatChanges;

    /// The board is oriented the same way (then every threat has the same
    /// feature).
    #[inline]
    fn same_view(perspective: Color, a: Square, b: Square) -> bool {
        orientation(perspective, a) == orientation(perspective, b)
    }

    /// One walk over the threats for both perspectives.
    fn for_each_active_both(pos: &impl Position, mut f: impl FnMut(Color, usize)) {
        let perspectives = [Color::White, Color::Black].map(|p| (p, Self::orientation(p, pos.king_square(p))));
        Self::for_each_threat(pos, |threat| {
            for (perspective, orientation) in perspectives {
                if let Some(index) = Self::oriented_index(perspective, orientation, threat) {
                    f(perspective, index);
                }
            }
        });
    }

    /// Attacker by attacker (`threat_changes::for_each_attacker`), each
    /// threat's feature computed as it is found.
    fn active_on(board: &Bitboards, perspective: Color, king: Square, active: &mut impl FeatureSink) {
        let orientation = Self::orientation(perspective, king);
        let pop = Popcount::detect();
        for_each_attacker::<TARGETS>(board, |code, from, attacked, codes| {
            for to in squares(attacked) {
                let (attacker, attacked) = (usize::from(code), usize::from(codes[to.index()]));
                let (f, valid) = Self::coded_index_or_not(
                    perspective,
                    orientation,
                    pop,
                    attacker,
                    from.index(),
                    attacked,
                    to.index(),
                );
                active.push_if(f, valid);
            }
        });
    }

    /// The threats on `before` only (removed) and on `after` only (added):
    /// see `features/threat_changes.rs`.
    fn board_changes(before: &Placement, after: &Placement, changes: &mut ThreatChanges) {
        changes.find::<TARGETS>(before, after);
    }

    fn features_of(
        perspective: Color,
        king: Square,
        changes: &ThreatChanges,
        removed: &mut impl FeatureSink,
        added: &mut impl FeatureSink,
    ) {
        let orientation = Self::orientation(perspective, king);
        let pop = Popcount::detect();
        let feature = |key: u32| {
            let (attacker, from, attacked, to) = ThreatChanges::parts(key);
            Self::coded_index_or_not(perspective, orientation, pop, attacker, from, attacked, to)
        };
        removed.extend_if(changes.removed_keys().iter().map(|&key| feature(key)));
        added.extend_if(changes.added_keys().iter().map(|&key| feature(key)));
    }
}

/// The piece on each square of `bitboards`, and the occupied squares.
pub(super) fn mailbox(bitboards: &Bitboards) -> ([Option<Piece>; 64], Bitboard) {
    let mut board = [None::<Piece>; 64];
    let mut occupied: Bitboard = 0;
    for (color, side) in [Color::White, Color::Black].into_iter().zip(bitboards) {
        for (kind, &pieces) in PieceKind::ALL.into_iter().zip(side) {
            for square in squares(pieces) {
                board[square.index()] = Some(Piece { color, kind });
            }
            occupied |= pieces;
        }
    }
    (board, occupied)
}

#[cfg(test)]
mod tests {
    use super::*;

    type Sf18 = FullThreats<STOCKFISH_18_TARGETS>;
    use crate::chess::board::Board;
    use crate::format::writer::Rng;
    use std::collections::HashSet;

    const KINDS: &str = "pnbrqk";

    /// A board from the placement and side-to-move fields of a FEN.
    fn board(fen: &str) -> Board {
        let mut fields = fen.split(' ');
        let mut pieces = Vec::new();
        for (row, text) in fields.next().unwrap().split('/').enumerate() {
            let mut file = 0;
            for c in text.chars() {
                match c.to_digit(10) {
                    Some(n) => file += n as u8,
                    None => {
                        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
                        let kind = PieceKind::ALL[KINDS.find(c.to_ascii_lowercase()).unwrap()];
                        pieces.push((Square::from_file_rank(file, 7 - row as u8).unwrap(), Piece { color, kind }));
                        file += 1;
                    }
                }
            }
        }
        let side = if fields.next() == Some("b") { Color::Black } else { Color::White };
        Board::new(side, pieces).unwrap()
    }

    /// The board with every piece moved by `square.xor(mask)`, colours swapped
    /// if `swap_colors`.
    fn transformed(pos: &Board, mask: u8, swap_colors: bool) -> Board {
        let mut pieces = Vec::new();
        pos.for_each_piece(|square, piece| {
            let color = if swap_colors { piece.color.flip() } else { piece.color };
            pieces.push((square.xor(mask), Piece { color, ..piece }));
        });
        let side = if swap_colors { pos.side_to_move().flip() } else { pos.side_to_move() };
        Board::new(side, pieces).unwrap()
    }

    fn active(pos: &impl Position, perspective: Color) -> Vec<usize> {
        let mut features = Vec::new();
        Sf18::for_each_active(pos, perspective, |f| features.push(f));
        features.sort_unstable();
        features
    }

    /// A board of `n` pieces (two kings, the rest of random kinds and
    /// colours) on random squares.
    fn random_board(rng: &mut Rng, n: usize, kinds: &[PieceKind]) -> Board {
        let mut squares: Vec<u8> = (0..64).collect();
        for i in 0..n {
            let j = rng.range(i as i64, 63) as usize;
            squares.swap(i, j);
        }
        let pieces = squares[..n].iter().enumerate().map(|(i, &s)| {
            let piece = match i {
                0 => Piece { color: Color::White, kind: PieceKind::King },
                1 => Piece { color: Color::Black, kind: PieceKind::King },
                _ => Piece {
                    color: if rng.range(0, 1) == 0 { Color::White } else { Color::Black },
                    kind: kinds[rng.range(0, kinds.len() as i64 - 1) as usize],
                },
            };
            (Square::new(s).unwrap(), piece)
        });
        Board::new(Color::White, pieces.collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn layout_covers_every_feature_once() {
        // From white's view with the king on a1 the board is not transformed:
        // every attack within reach of a feature kind pair has its own index.
        let king = Square::new(0).unwrap();
        let mut seen = HashSet::new();
        let (mut pairs, mut dropped) = (0, 0);
        for attacker_index in 0..RELATIVE_PIECES {
            let (color, kind) = oriented_piece(attacker_index);
            let attacker = Piece { color, kind };
            for from in (0..64).map(|s| Square::new(s).unwrap()) {
                for to in squares(Sf18::LAYOUT.reach[attacker_index][from.index()].squares) {
                    for attacked_index in 0..RELATIVE_PIECES {
                        let (color, kind) = oriented_piece(attacked_index);
                        let attacked = Piece { color, kind };
                        if Sf18::LAYOUT.slots[attacker.kind as usize][attacked.kind as usize].is_none() {
                            continue;
                        }
                        pairs += 1;
                        match Sf18::index(Color::White, king, Threat { attacker, from, attacked, to }) {
                            Some(index) => {
                                assert!(index < Sf18::DIMENSIONS);
                                assert!(seen.insert(index), "index {index} given twice");
                            }
                            None => {
                                assert!(attacker.kind == attacked.kind && from < to);
                                dropped += 1;
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(pairs, Sf18::DIMENSIONS);
        assert_eq!(seen.len() + dropped, Sf18::DIMENSIONS);
    }

    #[test]
    fn an_index_by_hand() {
        // White's pawn on a2 takes a black knight on b3, white's king on a1:
        // own pawns' range, target "their knight" (3 own targets + slot 1),
        // each section 6 ranks x 14 pawn attacks, a2's first attack.
        let threat = Threat {
            attacker: Piece { color: Color::White, kind: PieceKind::Pawn },
            from: Square::new(8).unwrap(),
            attacked: Piece { color: Color::Black, kind: PieceKind::Knight },
            to: Square::new(17).unwrap(),
        };
        assert_eq!(Sf18::index(Color::White, Square::new(0).unwrap(), threat), Some(4 * 84));
        // A pawn never attacks a queen.
        let on_queen = Threat { attacked: Piece { color: Color::Black, kind: PieceKind::Queen }, ..threat };
        assert_eq!(Sf18::index(Color::White, Square::new(0).unwrap(), on_queen), None);
    }

    #[test]
    fn starting_position() {
        // Per side: knights 1 + 1, bishops 2 + 2, rooks 2 + 2, the queen 5,
        // the king 5 minus its attack on the queen.
        let pos = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w");
        let mut threats = 0;
        Sf18::for_each_threat(&pos, |_| threats += 1);
        assert_eq!(threats, 40);
        assert_eq!(active(&pos, Color::White).len(), 38);
        assert_eq!(active(&pos, Color::White), active(&pos, Color::Black));
    }

    #[test]
    fn mirrored_positions_give_the_same_features() {
        let mut rng = Rng::new(14);
        for n in [2, 8, 20, 32] {
            for _ in 0..50 {
                let pos = random_board(&mut rng, n, &PieceKind::ALL[..5]);
                for perspective in [Color::White, Color::Black] {
                    let features = active(&pos, perspective);
                    // Colours swapped and ranks flipped: the other side sees the same.
                    assert_eq!(features, active(&transformed(&pos, 56, true), perspective.flip()));
                    // Files mirrored: the king's file undoes it.
                    assert_eq!(features, active(&transformed(&pos, 7, false), perspective));
                }
            }
        }
    }

    #[test]
    fn both_perspectives_in_one_walk() {
        let pos = board("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w");
        let mut both = [Vec::new(), Vec::new()];
        Sf18::for_each_active_both(&pos, |p, f| both[p.index()].push(f));
        for perspective in [Color::White, Color::Black] {
            both[perspective.index()].sort_unstable();
            assert_eq!(both[perspective.index()], active(&pos, perspective));
        }
    }

    #[test]
    fn crowded_positions_stay_within_the_bound() {
        let mut rng = Rng::new(18);
        let mut most = 0;
        // Queens and knights attack the most squares.
        let heavy = [PieceKind::Queen, PieceKind::Knight];
        for kinds in [&PieceKind::ALL[..5], &heavy[..]] {
            for _ in 0..2000 {
                let pos = random_board(&mut rng, 32, kinds);
                for perspective in [Color::White, Color::Black] {
                    let n = active(&pos, perspective).len();
                    most = most.max(n);
                    assert!(n <= Sf18::MAX_ACTIVE, "{n} features");
                }
            }
        }
        // Half a board of queens and knights, 32 pieces packed together: more
        // than the 128 Stockfish's list holds (an illegal position).
        let packed = board("nqnqnqnq/qnqnqnqn/nqnqnqnq/qnqkKnqn/8/8/8/8 w");
        for perspective in [Color::White, Color::Black] {
            let n = active(&packed, perspective).len();
            assert_eq!(n, 134);
            most = most.max(n);
        }
        eprintln!("most features seen: {most}");
    }

    #[test]
    fn attacker_names_each_features_attacker() {
        // Every threat seen by White with its king on a1 (no mirroring):
        // the feature's attacker is the threat's, its square unchanged.
        let king = Square::new(0).unwrap();
        let mut seen = vec![false; Sf18::DIMENSIONS];
        for attacker in
            [Color::White, Color::Black].into_iter().flat_map(|c| PieceKind::ALL.map(|k| Piece { color: c, kind: k }))
        {
            for from in (0..64).filter_map(Square::new) {
                for to in squares(reach(attacker.color, attacker.kind, from)) {
                    for attacked in [Color::White, Color::Black]
                        .into_iter()
                        .flat_map(|c| PieceKind::ALL.map(|k| Piece { color: c, kind: k }))
                    {
                        let Some(f) = Sf18::index(Color::White, king, Threat { attacker, from, attacked, to }) else {
                            continue;
                        };
                        assert_eq!(Sf18::attacker(f), (relative(Color::White, attacker), from.index()));
                        seen[f] = true;
                    }
                }
            }
        }
        // The rest are the lower halves of same-kind pairs, which the layout
        // holds but no position activates.
        for f in (0..Sf18::DIMENSIONS).filter(|&f| !seen[f]) {
            let (relative, _) = Sf18::attacker(f);
            let kind = relative % 6;
            let target = (f - Sf18::LAYOUT.start[relative] as usize) / Sf18::LAYOUT.section[relative] as usize;
            assert_eq!(
                Some(target % Sf18::LAYOUT.targets_per_color[kind]),
                Sf18::LAYOUT.slots[kind][kind].map(usize::from),
                "feature {f}"
            );
        }
    }
}
