//! The accumulator stack of one search thread.
//!
//! The engine pushes each move's piece changes when it makes the move and
//! pops when it unmakes it; nothing is computed then. Only when a position is
//! evaluated does the stack compute its accumulators, per perspective: it
//! walks back to the nearest node whose accumulator is known and applies the
//! pending changes one move at a time (so sibling nodes find their parent
//! computed), or, when a move on the way moved that perspective's king to
//! where it sees the board otherwise ([`Network::same_view`] false: its
//! features may all change), refreshes the current position through the
//! [`RefreshCache`], then fills the nodes below it, down to that move's,
//! by undoing each move's changes (so their other children update from
//! them instead of refreshing again).
//!
//! For networks whose features depend on more than one piece
//! ([`Network::BOARD_FEATURES`]: threats), a king move that changes the
//! per-piece features' view but not the board features'
//! ([`Network::same_board_view`]) is no refresh: the walk computes it from
//! the node below ([`RefreshCache::rebase`]). Every node also keeps its board,
//! the root's from the position and each child's from its parent's and the
//! move's piece changes, so that an update can compare the boards before and
//! after the move. The engine's [`Position`] need provide nothing more.
//! The usual case for them, both perspectives some moves from computed
//! ones and no move on the way changing how either sees the board, is done
//! for both at once, move by move: black's changed features are listed
//! while white's rows load.

use crate::chess::placement::Placement;
use crate::chess::position::{Color, PieceKind, Position, Square};
use crate::engine::changes::MoveChanges;
use crate::engine::evaluation::Evaluation;
use crate::engine::network::Network;
use crate::engine::refresh_cache::RefreshCache;

struct Node<N: Network> {
    accumulator: N::Accumulator,
    /// Whether `accumulator` holds each perspective's values.
    computed: [bool; 2],
    /// The move that led here from the node below (empty at the root).
    changes: MoveChanges,
    /// Both kings' squares here.
    kings: [Square; 2],
    /// The board here (kept only for networks with
    /// [`Network::BOARD_FEATURES`]; unspecified otherwise).
    board: Placement,
    /// What the move did to the board features (both perspectives share
    /// it), once `board_changes_found`.
    board_changes: N::BoardChanges,
    board_changes_found: bool,
}

impl<N: Network> Node<N> {
    /// Finds what the move into this node did to the board features, from
    /// `below`, the node it was made from; once per node, both perspectives
    /// read it.
    #[inline(always)]
    fn find_board_changes(&mut self, below: &Node<N>) {
        if N::BOARD_FEATURES && !self.board_changes_found {
            N::board_changes(&below.board, &self.board, &mut self.board_changes);
            self.board_changes_found = true;
        }
    }

    /// Whether the move into this node changes how `perspective` sees the
    /// board so that it must be refreshed: its king moved to where the
    /// per-piece features differ ([`Network::same_view`] false), and, for
    /// networks with board features, the board features too (else the node
    /// is computed from the one below by [`RefreshCache::rebase`]).
    #[inline]
    fn needs_refresh(&self, perspective: Color) -> bool {
        self.changes.changes_view(perspective, N::same_view)
            && (!N::BOARD_FEATURES || self.changes.changes_view(perspective, N::same_board_view))
    }
}

/// Accumulators at least this large (rows of about 1024 lanes or more) have
/// black's rows of a move requested before white's update: interleaved
/// A/B of `nnue bench --ops move` on a Zen 5, the SFNNv8 stand-in
/// 0.94-0.95 with AVX2 and 0.96-0.98 with AVX-512 VNNI, the 17.1 big net
/// 0.95-0.98, Stockfish 18's 0.99, 19's 0.98 with AVX2 and 1.01 with
/// AVX-512 VNNI; the small net 1.02-1.04 (its rows are summed before a
/// request would help). Networks with board features have them requested
/// whatever their size: a move changes some 15 to 30 rows of threats and
/// pieces per perspective. Reckless v60's generated net (768 lanes, 3 KB
/// accumulators), interleaved A/B on an Intel Xeon (family 6 model 207):
/// move + eval 0.964 and 0.968 with AVX-512 VNNI (12 of 15 and 7 of 11
/// rounds faster), 0.939 with AVX2 (9 of 11); its walk 1.019 and 1.008.
const LONG_ROWS_ACCUMULATOR_BYTES: usize = 4096;

/// Accumulators along the current line of a search, computed lazily, with
/// the thread's refresh cache. One per search thread; the network itself is
/// shared.
pub struct AccumulatorStack<N: Network> {
    nodes: Vec<Node<N>>,
    /// Nodes in use: the root and one per pushed move.
    len: usize,
    cache: RefreshCache<N>,
}

/// The line's length and which perspectives are computed at each node (the
/// accumulators themselves are kilobytes each).
impl<N: Network> std::fmt::Debug for AccumulatorStack<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let computed: Vec<[bool; 2]> = self.nodes[..self.len].iter().map(|n| n.computed).collect();
        f.debug_struct("AccumulatorStack").field("len", &self.len).field("computed", &computed).finish_non_exhaustive()
    }
}

impl<N: Network> AccumulatorStack<N> {
    /// An empty stack for networks of type `N`; call [`Self::reset`] with
    /// the root position before use.
    pub fn new(net: &N) -> Self {
        AccumulatorStack { nodes: Vec::new(), len: 0, cache: RefreshCache::new(net) }
    }

    /// Starts over at the root position `pos` (its accumulators are
    /// computed when it is first evaluated).
    pub fn reset(&mut self, pos: &impl Position) {
        self.len = 0;
        let board = if N::BOARD_FEATURES { Placement::new(&pos.bitboards()) } else { Placement::default() };
        self.push_node(MoveChanges::default(), [pos.king_square(Color::White), pos.king_square(Color::Black)], board);
    }

    /// Makes a move: `changes` are the pieces it moved, captured, promoted.
    ///
    /// # Panics
    /// If [`Self::reset`] was never called.
    pub fn push(&mut self, changes: &MoveChanges) {
        let len = self.len;
        assert!(len > 0, "AccumulatorStack used before reset");
        if self.nodes.len() == len {
            self.grow();
        }
        // The new node's fields written in place: the board built on this
        // function's frame and then copied into the node went through
        // memory twice (Stockfish 18's search with the library, callgrind:
        // the pushes' instructions 40.7 M -> 28.9 M written in place, with
        // the squares' codes added to the board).
        let (below, rest) = self.nodes.split_at_mut(len);
        let (top, node) = (&below[len - 1], &mut rest[0]);
        node.kings = top.kings;
        for change in changes.iter() {
            if let (PieceKind::King, Some(to)) = (change.piece.kind, change.to) {
                node.kings[change.piece.color.index()] = to;
            }
        }
        if N::BOARD_FEATURES {
            node.board = top.board;
            changes.apply_to(&mut node.board);
        }
        node.computed = [false; 2];
        node.board_changes_found = false;
        node.changes = changes.clone();
        self.len += 1;
    }

    /// Unmakes the last pushed move.
    ///
    /// # Panics
    /// At the root: there is no move to unmake.
    pub fn pop(&mut self) {
        assert!(self.len > 1, "AccumulatorStack::pop at the root");
        self.len -= 1;
    }

    /// Moves pushed since the root.
    pub fn ply(&self) -> usize {
        self.len.saturating_sub(1)
    }

    /// The refresh cache.
    pub fn cache_mut(&mut self) -> &mut RefreshCache<N> {
        &mut self.cache
    }

    /// Both accumulators of the current position `pos` (the root with every
    /// pushed move made), computing what is missing.
    ///
    /// # Panics
    /// If [`Self::reset`] was never called.
    pub fn accumulator(&mut self, net: &N, pos: &impl Position) -> &N::Accumulator {
        // Computed already (a second evaluation of a node): nothing to walk.
        // Without this test the evaluation of a computed node ran the
        // update and refresh checks first: interleaved A/B of `nnue bench
        // --ops eval` on an Intel Xeon with AVX-512 VNNI, 7 rounds, 1.10 on
        // Stockfish 19's net and 1.08 on 18's against the version before
        // refresh_both.
        if self.top().computed != [true, true] {
            self.update_both(net, pos);
            // The usual case, both updated at once, needs nothing more.
            if self.top().computed != [true, true] {
                self.refresh_both(net, pos);
                for perspective in [Color::White, Color::Black] {
                    self.compute(net, pos, perspective);
                }
            }
        }
        &self.top().accumulator
    }

    /// Evaluates the current position `pos`.
    pub fn evaluate(&mut self, net: &N, pos: &impl Position) -> Evaluation {
        let accumulator = self.accumulator(net, pos);
        net.evaluate_accumulator(accumulator, pos.side_to_move(), pos.piece_count())
    }

    fn top(&self) -> &Node<N> {
        assert!(self.len > 0, "AccumulatorStack used before reset");
        &self.nodes[self.len - 1]
    }

    fn push_node(&mut self, changes: MoveChanges, kings: [Square; 2], board: Placement) {
        if self.nodes.len() == self.len {
            self.grow();
        }
        let node = &mut self.nodes[self.len];
        node.computed = [false; 2];
        node.board_changes_found = false;
        node.changes = changes;
        node.kings = kings;
        node.board = board;
        self.len += 1;
    }

    /// A new node at the top of `nodes`, the first time the line is this
    /// long. Apart from [`Self::push_node`]: a node is built on the stack
    /// (kilobytes), and a frame that large made every push probe its pages
    /// (`sub $0x1000, %rsp` and a store per page, seen in a profile of
    /// Stockfish 18's search with the library).
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        self.nodes.push(Node {
            accumulator: N::Accumulator::default(),
            computed: [false; 2],
            changes: MoveChanges::default(),
            kings: [Square::new(0).expect("a1"); 2],
            board: Placement::default(),
            board_changes: N::BoardChanges::default(),
            board_changes_found: false,
        });
    }

    /// The common case of a search: both perspectives of the top node
    /// pending, both computed some moves below (one, or more where a parent
    /// was not evaluated, its static evaluation found elsewhere), and no
    /// move on the way changes either view: each move of the walk done for
    /// both perspectives at once ([`Self::update_both_at`]). In any other
    /// case it does nothing, and the perspectives are computed one by one.
    ///
    /// Walks of several moves are about half of a search's updates (in
    /// Stockfish 18's `bench`, 1.34 M of 2.5 M perspectives' updates; the
    /// walks per perspective: 216 K of one move, 250 K of two, 91 K of
    /// three, 98 K longer). Done here rather than by `compute`, Stockfish
    /// 18 searching with the library ran at these ratios of nodes per
    /// second, interleaved on an Intel Xeon (AVX-512 VNNI): x86-64-avx2
    /// 1.054 (7 of 11 rounds faster), 1.005 (6 of 11), 1.016 (15 of 21);
    /// x86-64-vnni512 1.008 (6 of 11), 1.011 (12 of 21); on a quieter
    /// machine (`tools/stockfish-search/relink_ab.py`) 1.016 (14 of 21) and
    /// 1.020 (15 of 21).
    fn update_both(&mut self, net: &N, pos: &impl Position) {
        let len = self.len;
        debug_assert_eq!(
            self.top().kings,
            [pos.king_square(Color::White), pos.king_square(Color::Black)],
            "the position is not the stack's"
        );
        debug_assert!(
            !N::BOARD_FEATURES || *self.top().board.bitboards() == pos.bitboards(),
            "the position is not the stack's"
        );
        let keeps_views = |node: &Node<N>| {
            !node.changes.changes_view(Color::White, N::same_view)
                && !node.changes.changes_view(Color::Black, N::same_view)
        };
        let mut start = len - 1;
        while self.nodes[start].computed != [true, true] {
            let node = &self.nodes[start];
            if start == 0 || node.computed != [false, false] || !keeps_views(node) {
                return;
            }
            start -= 1;
        }
        for j in start + 1..len {
            self.update_both_at(net, j);
        }
    }

    /// Node `j`'s accumulator from node `j - 1`'s, both perspectives, the
    /// move keeping both views. White's changed features are listed and
    /// their rows requested ([`Network::prefetch_update`]) before black's
    /// are listed, so that black's listing (with threat features, hundreds
    /// of instructions) runs while white's rows come in from memory; where
    /// rows are long or the network has board features, black's are
    /// requested too before white's update; then both updates.
    #[inline(always)]
    fn update_both_at(&mut self, net: &N, j: usize) {
        let (below, rest) = self.nodes.split_at_mut(j);
        let (from, to) = (&below[j - 1], &mut rest[0]);
        let [white, black] = [Color::White, Color::Black];
        to.find_board_changes(from);
        // One list per `let` (see `FeatureBuffer`).
        let mut white_removed = N::Changes::default();
        let mut white_added = N::Changes::default();
        Self::changed_features(to, white, &mut white_removed, &mut white_added);
        net.prefetch_update(&white_removed, &white_added);
        let mut black_removed = N::Changes::default();
        let mut black_added = N::Changes::default();
        Self::changed_features(to, black, &mut black_removed, &mut black_added);
        if N::BOARD_FEATURES || core::mem::size_of::<N::Accumulator>() >= LONG_ROWS_ACCUMULATOR_BYTES {
            net.prefetch_update(&black_removed, &black_added);
        }
        net.update(&from.accumulator, &mut to.accumulator, white, &white_removed, &white_added);
        net.update(&from.accumulator, &mut to.accumulator, black, &black_removed, &black_added);
        to.computed = [true, true];
    }

    /// The features the move into `node` removes and adds from
    /// `perspective`, which it does not make look at the board otherwise,
    /// once the node's board changes are found.
    #[inline(always)]
    fn changed_features(node: &Node<N>, perspective: Color, removed: &mut N::Changes, added: &mut N::Changes) {
        let king = node.kings[perspective.index()];
        let incremental = node.changes.features(perspective, king, N::same_view, N::feature, removed, added);
        debug_assert!(incremental, "a move that changes the view is refreshed");
        N::board_features(perspective, king, &node.board_changes, removed, added);
    }

    /// Where both perspectives of the top node need a refresh (a new root;
    /// a move of each king since their computed nodes), refreshes both at
    /// once ([`RefreshCache::refresh_both`]: the board read once, black's
    /// features listed while white's rows come in), then fills the nodes
    /// below as [`Self::compute`] does. In any other case it does nothing.
    fn refresh_both(&mut self, net: &N, pos: &impl Position) {
        let [Some(white), Some(black)] = [Color::White, Color::Black].map(|c| self.refresh_from(c)) else {
            return;
        };
        let top = &mut self.nodes[self.len - 1];
        self.cache.refresh_both(net, pos, &mut top.accumulator);
        top.computed = [true, true];
        self.fill_below(net, Color::White, white);
        self.fill_below(net, Color::Black, black);
    }

    /// If `perspective` of the top node must be refreshed, the node whose
    /// move changed its view (or the root) on the way down to the nearest
    /// node computed for it; `None` if the top is computed or can be
    /// updated from one below.
    fn refresh_from(&self, perspective: Color) -> Option<usize> {
        let p = perspective.index();
        let mut i = self.len.checked_sub(1).expect("AccumulatorStack used before reset");
        loop {
            let node = &self.nodes[i];
            if node.computed[p] {
                return None;
            }
            if i == 0 || node.needs_refresh(perspective) {
                return Some(i);
            }
            i -= 1;
        }
    }

    /// After a refresh of the top node's `perspective`: node `i` is the one
    /// whose move changed the view (or the root), so it and every node above
    /// it see the board features as the top does, and none is computed for
    /// `perspective`: fills them from the top down, undoing each move (its
    /// removed features added back, its added ones removed; a king move
    /// between them rebased back, see `compute`), so that siblings met
    /// later update from them instead of refreshing again (Stockfish's
    /// backward update).
    fn fill_below(&mut self, net: &N, perspective: Color, i: usize) {
        let p = perspective.index();
        for j in (i + 1..self.len).rev() {
            let (below, rest) = self.nodes.split_at_mut(j);
            let (to, from) = (&mut below[j - 1], &mut rest[0]);
            // The same board changes the forward walk would find.
            from.find_board_changes(to);
            // One list per `let` (see `FeatureBuffer`).
            let mut removed = N::Changes::default();
            let mut added = N::Changes::default();
            if from.changes.changes_view(perspective, N::same_view) {
                // A king move the board features see as before (see
                // `compute`), undone.
                N::board_features(perspective, from.kings[p], &from.board_changes, &mut removed, &mut added);
                Self::rebase(&mut self.cache, net, perspective, from, to, &added, &removed);
                continue;
            }
            Self::changed_features(from, perspective, &mut removed, &mut added);
            net.update(&from.accumulator, &mut to.accumulator, perspective, &added, &removed);
            to.computed[p] = true;
        }
    }

    /// `to`'s `perspective` from `from`'s across a king move of that
    /// perspective that keeps the board features' view, made or undone
    /// (`from` the node below or above): the per-piece part at `from`'s king
    /// square swapped for the part at `to`'s ([`RefreshCache::rebase`]),
    /// `removed` and `added` the board features the step removes and adds.
    fn rebase(
        cache: &mut RefreshCache<N>,
        net: &N,
        perspective: Color,
        from: &Node<N>,
        to: &mut Node<N>,
        removed: &N::Changes,
        added: &N::Changes,
    ) {
        let p = perspective.index();
        let (old, new) = ((from.board.bitboards(), from.kings[p]), (to.board.bitboards(), to.kings[p]));
        cache.rebase(net, perspective, old, new, &from.accumulator, &mut to.accumulator, removed, added);
        to.computed[p] = true;
    }

    fn compute(&mut self, net: &N, pos: &impl Position, perspective: Color) {
        let p = perspective.index();
        let top = self.top();
        if top.computed[p] {
            return;
        }
        debug_assert_eq!(
            top.kings,
            [pos.king_square(Color::White), pos.king_square(Color::Black)],
            "the position is not the stack's"
        );
        debug_assert!(
            !N::BOARD_FEATURES || *top.board.bitboards() == pos.bitboards(),
            "the position is not the stack's"
        );
        // The nearest computed node, unless a move on the way needs a refresh.
        let mut i = self.len - 1;
        let start = loop {
            let node = &self.nodes[i];
            if node.computed[p] {
                break Some(i);
            }
            if i == 0 || node.needs_refresh(perspective) {
                break None;
            }
            i -= 1;
        };
        match start {
            Some(start) => {
                for j in start + 1..self.len {
                    let (below, rest) = self.nodes.split_at_mut(j);
                    let (from, to) = (&below[j - 1], &mut rest[0]);
                    to.find_board_changes(from);
                    // One list per `let` (see `FeatureBuffer`).
                    let mut removed = N::Changes::default();
                    let mut added = N::Changes::default();
                    if to.changes.changes_view(perspective, N::same_view) {
                        // A king move the board features see as before (the
                        // walk stops at the others).
                        N::board_features(perspective, to.kings[p], &to.board_changes, &mut removed, &mut added);
                        Self::rebase(&mut self.cache, net, perspective, from, to, &removed, &added);
                        continue;
                    }
                    Self::changed_features(to, perspective, &mut removed, &mut added);
                    net.update(&from.accumulator, &mut to.accumulator, perspective, &removed, &added);
                    to.computed[p] = true;
                }
            }
            None => {
                let top = &mut self.nodes[self.len - 1];
                self.cache.refresh(net, pos, perspective, &mut top.accumulator);
                top.computed[p] = true;
                self.fill_below(net, perspective, i);
            }
        }
    }
}
