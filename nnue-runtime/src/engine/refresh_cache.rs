//! The refresh cache ("Finny table"): for every king square and
//! perspective, the last accumulator computed there and the board it was
//! computed for. A refresh then applies only the difference between that
//! board and the current one instead of adding every piece's features.
//!
//! Keyed by the king square, the finest key any feature set needs: king
//! buckets and mirroring are functions of it, so a cached accumulator is
//! valid for its key whatever the feature set.
//!
//! For networks with board features (threats, pawn pairs) an entry holds
//! the per-piece part only (the biases and the per-piece sets' rows), as
//! Stockfish 18's cache does: a refresh adds every board feature of the
//! position to it, and a king move that keeps the board features' view
//! takes its parent's accumulator, minus the per-piece part at the old
//! king square, plus the part at the new one ([`RefreshCache::rebase`]),
//! plus the move's board features. The board features then stay
//! incremental across such king moves, as Stockfish's threat accumulator.
//! (With entries holding the board features too, a refresh applied the
//! difference of every threat between the entry's old board and the
//! current one: a king move cost 1.7 to 2.2 times Stockfish's.)

use crate::chess::position::{Bitboards, Color, Piece, PieceKind, Position, Square};
use crate::engine::network::Network;
use crate::features::{FeatureChanges, FeatureSink};
use core::mem::MaybeUninit;

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
        let king = pos.king_square(perspective);
        if N::BOARD_FEATURES {
            self.refresh_board(net, &board, king, perspective, accumulator);
            return;
        }
        if self.load_if_held(&board, king, perspective, accumulator) {
            return;
        }
        let mut listed = Listed::new();
        self.list::<false>(net, &board, king, perspective, &mut listed);
        self.apply(net, &board, king, perspective, &listed, accumulator);
    }

    /// Both perspectives of `pos`: the board is read once, and both
    /// perspectives' changed features are listed (their rows requested)
    /// before either is added, so that black's listing runs while white's
    /// rows come in.
    pub fn refresh_both(&mut self, net: &N, pos: &impl Position, accumulator: &mut N::Accumulator) {
        let board = pos.bitboards();
        let kings = [pos.king_square(Color::White), pos.king_square(Color::Black)];
        if N::BOARD_FEATURES {
            for perspective in [Color::White, Color::Black] {
                self.refresh_board(net, &board, kings[perspective.index()], perspective, accumulator);
            }
            return;
        }
        // The entries held are loaded before the lists are made (making
        // them first, the hot refresh measured 3 to 12 % slower).
        let held = [
            self.load_if_held(&board, kings[0], Color::White, accumulator),
            self.load_if_held(&board, kings[1], Color::Black, accumulator),
        ];
        if held == [true, true] {
            return;
        }
        let mut listed = [Listed::new(), Listed::new()];
        for perspective in [Color::White, Color::Black] {
            let p = perspective.index();
            if !held[p] {
                self.list::<true>(net, &board, kings[p], perspective, &mut listed[p]);
            }
        }
        for perspective in [Color::White, Color::Black] {
            let p = perspective.index();
            if !held[p] {
                self.apply(net, &board, kings[p], perspective, &listed[p], accumulator);
            }
        }
    }

    /// If the entry of `king` holds `board` (as after a null move, or when a
    /// search returns to a king square with the same pieces), loads it into
    /// `accumulator` and returns true.
    #[inline(always)]
    fn load_if_held(
        &self,
        board: &Bitboards,
        king: Square,
        perspective: Color,
        accumulator: &mut N::Accumulator,
    ) -> bool {
        let entry = &self.entries[king.index()][perspective.index()];
        let held = entry.board == *board;
        if held {
            N::load_half(&entry.half, accumulator, perspective);
        }
        held
    }

    /// For a network without board features: lists into `listed` the
    /// features whose pieces differ between the entry of `king` and `board`,
    /// and, if `PREFETCH`, requests their rows (for a single perspective,
    /// whose rows are added right after, the request measured no faster).
    ///
    /// The lists are plain arrays with their lengths in registers: through
    /// `N::Changes` (a `FeatureSink` chosen per square) every push went
    /// through memory, a store-forwarding chain of several cycles per
    /// feature. With the branch-free `push_squares` and both perspectives
    /// listed before either is added (`refresh_both`), interleaved A/B on a
    /// Xeon (AVX-512 VNNI CPU), small net, AVX2: refresh 0.85, king move
    /// 0.86; AVX-512 VNNI: 0.92 and 0.88. Big nets (rows of 1024 lanes and
    /// more): within the noise (0.97-1.01).
    #[inline(always)]
    fn list<const PREFETCH: bool>(
        &self,
        net: &N,
        board: &Bitboards,
        king: Square,
        perspective: Color,
        listed: &mut Listed,
    ) {
        let entry = &self.entries[king.index()][perspective.index()];
        let (mut removed_len, mut added_len) = (0, 0);
        // From an empty entry (a refresh from scratch) nothing is removed:
        // the branch-free first squares of `push_squares` would compute a
        // feature for nothing per piece kind.
        let removes =
            entry.board.as_flattened().iter().zip(board.as_flattened()).fold(0, |any, (o, n)| any | (o & !n)) != 0;
        for (color, (old_side, new_side)) in [Color::White, Color::Black].into_iter().zip(entry.board.iter().zip(board))
        {
            for (kind, (&old, &new)) in PieceKind::ALL.into_iter().zip(old_side.iter().zip(new_side)) {
                let piece = Piece { color, kind };
                let (gone, came) = (old & !new, new & !old);
                // Removed and added features listed side by side (two
                // independent chains; one list, then the other, measured
                // slower on `kingmove`).
                if kind == PieceKind::Pawn {
                    if removes {
                        push_squares::<N, 8>(perspective, king, piece, gone, &mut listed.removed, &mut removed_len);
                    }
                    push_squares::<N, 8>(perspective, king, piece, came, &mut listed.added, &mut added_len);
                } else {
                    if removes {
                        push_squares::<N, 2>(perspective, king, piece, gone, &mut listed.removed, &mut removed_len);
                    }
                    push_squares::<N, 2>(perspective, king, piece, came, &mut listed.added, &mut added_len);
                }
            }
        }
        (listed.removed_len, listed.added_len) = (removed_len, added_len);
        if PREFETCH {
            net.prefetch_piece_rows(listed.removed(), listed.added());
        }
    }

    /// Adds the features [`Self::list`] listed to the entry of `king` into
    /// `accumulator`, and stores the result and `board` back in the entry.
    #[inline(always)]
    fn apply(
        &mut self,
        net: &N,
        board: &Bitboards,
        king: Square,
        perspective: Color,
        listed: &Listed,
        accumulator: &mut N::Accumulator,
    ) {
        let entry = &mut self.entries[king.index()][perspective.index()];
        net.update_from_half(&entry.half, accumulator, perspective, listed.removed(), listed.added());
        N::store_half(accumulator, perspective, &mut entry.half);
        entry.board = *board;
    }

    /// Networks with board features: the entry of `king` (the per-piece
    /// part) brought to `board`, plus every board feature of `board`
    /// ([`Network::add_board_features`]: each set's features listed from
    /// the board directly, in the set's own numbering). Against the threats
    /// found once for both perspectives as keys (the change from an empty
    /// board), then turned into each perspective's features and split by
    /// set, interleaved A/B on a Zen 4, Stockfish 18's net, AVX-512 VNNI, 9
    /// rounds: cache-hot refresh 0.897 (9 of 9 faster), refresh 0.976, king
    /// move 0.984. Keeping the list's length in a register while pushing
    /// (a count of the squares first) measured 1.04 on the hot refresh.
    #[inline(always)]
    fn refresh_board(
        &mut self,
        net: &N,
        board: &Bitboards,
        king: Square,
        perspective: Color,
        accumulator: &mut N::Accumulator,
    ) {
        self.bring(net, board, king, perspective, accumulator);
        let entry = &self.entries[king.index()][perspective.index()];
        net.add_board_features(&entry.half, accumulator, perspective, king, board);
    }

    /// A king move of `perspective` that keeps the board features' view
    /// ([`Network::same_board_view`]), made (or undone) from the position
    /// `old` (its board and `perspective`'s king square) to `new`:
    /// `to = from - part(old) + part(new) - removed + added`, the per-piece
    /// parts from the entries of both king squares, `removed` and `added`
    /// the board features the move (or its undoing) removes and adds.
    /// `from` is `old`'s accumulator, computed for `perspective`.
    ///
    /// One pass over the lanes: each entry's difference from its position
    /// goes in as rows. The entry of the new square is brought to its board
    /// first (a pass of its own) only when that difference is more than
    /// [`FOLDED_ROWS`] rows; the old one never is (the king left it). In
    /// Stockfish 18's search with the library (x86-64-vnni512, 13 to 15
    /// rounds each), against refreshing through entries that held the
    /// threats too: both entries brought to their boards first (two more
    /// passes and copies) 0.951; the old one's difference as rows 1.015,
    /// then 0.983; both as rows up to 8, 1.003. In `nnue bench` a king move
    /// takes 0.63 to 0.68 of the time it took.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn rebase(
        &mut self,
        net: &N,
        perspective: Color,
        old: (&Bitboards, Square),
        new: (&Bitboards, Square),
        from: &N::Accumulator,
        to: &mut N::Accumulator,
        removed: &N::Changes,
        added: &N::Changes,
    ) {
        debug_assert!(N::BOARD_FEATURES && old.1 != new.1, "a king move");
        let p = perspective.index();
        // `+ part(new)` with part(new) = entry - gone + came: `gone` out,
        // `came` in; `- part(old)` the other way round. One list per `let`
        // (see `FeatureBuffer`).
        let mut rows_out = N::Changes::default();
        let mut rows_in = N::Changes::default();
        let entry = &self.entries[new.1.index()][p];
        piece_changes::<N>(&entry.board, new.0, new.1, perspective, &mut rows_out, &mut rows_in);
        if rows_out.rows() + rows_in.rows() > FOLDED_ROWS {
            // `to` serves as scratch until its turn comes.
            self.bring(net, new.0, new.1, perspective, to);
            rows_out = N::Changes::default();
            rows_in = N::Changes::default();
        }
        let entry = &self.entries[old.1.index()][p];
        piece_changes::<N>(&entry.board, old.0, old.1, perspective, &mut rows_in, &mut rows_out);
        let lengths = [rows_out.rows() + removed.rows(), rows_in.rows() + added.rows()];
        rows_out.append(removed);
        rows_in.append(added);
        if lengths != [rows_out.rows(), rows_in.rows()] {
            // More rows than a list holds (no king move of a real game
            // comes near): both entries brought to their boards, and the
            // pass takes the board features alone.
            self.bring(net, new.0, new.1, perspective, to);
            self.bring(net, old.0, old.1, perspective, to);
            let (minus, plus) = (&self.entries[old.1.index()][p].half, &self.entries[new.1.index()][p].half);
            net.update_rebased(from, minus, plus, to, perspective, removed, added);
            return;
        }
        let plus = &self.entries[new.1.index()][p].half;
        net.update_rebased(from, &entry.half, plus, to, perspective, &rows_out, &rows_in);
    }

    /// Networks with board features: brings the entry of `king` (its
    /// per-piece part) to `board`, the features of the pieces that differ
    /// removed and added (through `scratch`'s `perspective`, which it
    /// overwrites), unless it holds `board` already.
    #[inline(always)]
    fn bring(&mut self, net: &N, board: &Bitboards, king: Square, perspective: Color, scratch: &mut N::Accumulator) {
        let entry = &mut self.entries[king.index()][perspective.index()];
        if entry.board == *board {
            return;
        }
        // One list per `let` (see `FeatureBuffer`).
        let mut removed = N::Changes::default();
        let mut added = N::Changes::default();
        piece_changes::<N>(&entry.board, board, king, perspective, &mut removed, &mut added);
        net.update_from_half(&entry.half, scratch, perspective, removed.as_slice(), added.as_slice());
        N::store_half(scratch, perspective, &mut entry.half);
        entry.board = *board;
    }
}

/// At most this many rows of difference between a refresh-cache entry and
/// a king move's new position go into [`RefreshCache::rebase`]'s pass as
/// rows; beyond, the entry is brought to the position first.
const FOLDED_ROWS: usize = 8;

/// Pushes the per-piece features of `perspective` (its king on `king`) on
/// `before` only to `removed` and those on `after` only to `added`.
fn piece_changes<N: Network>(
    before: &Bitboards,
    after: &Bitboards,
    king: Square,
    perspective: Color,
    removed: &mut N::Changes,
    added: &mut N::Changes,
) {
    for (color, (old_side, new_side)) in [Color::White, Color::Black].into_iter().zip(before.iter().zip(after)) {
        for (kind, (&old, &new)) in PieceKind::ALL.into_iter().zip(old_side.iter().zip(new_side)) {
            let piece = Piece { color, kind };
            for (mut squares, list) in [(old & !new, &mut *removed), (new & !old, &mut *added)] {
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
}

/// Appends to `list` (whose first `*len` entries are listed) the features
/// of `piece` on the squares of `squares`, from `perspective` with its king
/// on `king`. The first `K` squares without a branch: `K` features are
/// written whatever the number of squares (those past it are not counted),
/// as the loop's exit, after a number of squares that varies from one
/// piece kind to the next, was mispredicted about once per piece kind; the
/// rest (promoted pieces) in a loop. The list keeps at most
/// [`LISTED`] features (a board no position has may have more).
#[inline(always)]
fn push_squares<N: Network, const K: usize>(
    perspective: Color,
    king: Square,
    piece: Piece,
    mut squares: u64,
    list: &mut [MaybeUninit<u32>; LISTED_CAPACITY],
    len: &mut usize,
) {
    const { assert!(LISTED + K <= LISTED_CAPACITY) };
    let mut n = *len;
    debug_assert!(n <= LISTED);
    for _ in 0..K {
        let square = Square::new((squares.trailing_zeros() & 63) as u8).expect("below 64");
        let feature = N::feature(perspective, king, square, piece);
        // `n <= LISTED + k < LISTED_CAPACITY`.
        list[n] = MaybeUninit::new(feature.unwrap_or(0) as u32);
        n += usize::from(squares != 0 && feature.is_some());
        squares &= squares.wrapping_sub(1);
    }
    n = n.min(LISTED);
    while squares != 0 {
        let square = Square::new(squares.trailing_zeros() as u8).expect("bit index below 64");
        squares &= squares - 1;
        if let Some(f) = N::feature(perspective, king, square, piece)
            && n < LISTED
        {
            list[n] = MaybeUninit::new(f as u32);
            n += 1;
        }
    }
    *len = n;
}

/// At most this many features removed, and as many added, are listed per
/// refresh: one per square.
const LISTED: usize = 64;

/// The lists' room: [`push_squares`] writes up to 8 entries past the
/// features listed.
const LISTED_CAPACITY: usize = LISTED + 8;

/// A refresh's changed features from one perspective: at most one per
/// square removed and one added (beyond that, on boards no position has,
/// they are dropped). Not initialised: a refresh whose entry holds the board
/// lists nothing, and zeroing the lists (half a kilobyte each) cost it 3 to
/// 10 % (`refresh_hot`).
struct Listed {
    removed: [MaybeUninit<u32>; LISTED_CAPACITY],
    added: [MaybeUninit<u32>; LISTED_CAPACITY],
    /// The first `removed_len` entries of `removed` are initialised.
    removed_len: usize,
    /// The first `added_len` entries of `added` are initialised.
    added_len: usize,
}

impl Listed {
    #[inline(always)]
    fn new() -> Self {
        Listed {
            removed: [MaybeUninit::uninit(); LISTED_CAPACITY],
            added: [MaybeUninit::uninit(); LISTED_CAPACITY],
            removed_len: 0,
            added_len: 0,
        }
    }

    #[inline(always)]
    fn removed(&self) -> &[u32] {
        // SAFETY: the first `removed_len` entries are initialised, and
        // `MaybeUninit<u32>` has the layout of `u32`.
        unsafe { core::slice::from_raw_parts(self.removed.as_ptr().cast(), self.removed_len) }
    }

    #[inline(always)]
    fn added(&self) -> &[u32] {
        // SAFETY: as for `removed`.
        unsafe { core::slice::from_raw_parts(self.added.as_ptr().cast(), self.added_len) }
    }
}
