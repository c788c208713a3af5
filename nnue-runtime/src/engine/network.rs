//! The architecture as a type: what every generated `Network` implements, so
//! that engines, tools and benchmarks can be written once for all of them.

use crate::features::FeatureChanges;
use crate::{Bitboards, Color, Evaluation, Isa, LoadError, OverflowProof, Position};

/// How a net file is loaded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// The backend; `None`: the one `NNUE_ISA` names, else the best this CPU
    /// runs.
    pub isa: Option<Isa>,
    /// Load the net even if its overflow proof fails: some value can then
    /// wrap around in some position (see [`crate::overflow`]).
    pub allow_overflow: bool,
}

impl LoadOptions {
    /// Backend `isa`, overflow not allowed.
    pub fn isa(isa: Isa) -> LoadOptions {
        LoadOptions { isa: Some(isa), allow_overflow: false }
    }

    /// The backend these options choose (an error if this CPU lacks it).
    pub fn backend_isa(&self) -> Result<Isa, LoadError> {
        Ok(match self.isa {
            Some(isa) => isa.require()?,
            None => Isa::from_env_or_best()?,
        })
    }
}

/// A loaded network of a generated architecture.
pub trait Network: Send + Sync + Sized + 'static {
    /// Accumulator lanes per perspective.
    const L1: usize;
    /// Length of the transformer's output.
    const TRANSFORMED: usize;
    /// Number of layer stacks (and PSQT buckets, when there are any).
    const LAYER_STACKS: usize;
    /// Whether some features depend on more than one piece (FullThreats):
    /// then the features a move changes are the per-piece ones
    /// ([`Network::feature`] of each changed piece) and those of
    /// [`Network::board_changes`] (from the boards before and after), and
    /// the accumulator stack keeps every node's board for it.
    const BOARD_FEATURES: bool = false;
    /// What a change of the board does to the features that depend on more
    /// than one piece, the same from both perspectives (for FullThreats: the
    /// attacks that appear and disappear): [`Network::board_changes`] finds
    /// it once per move, [`Network::board_features`] turns it into each
    /// perspective's features. `()` for networks without such features.
    type BoardChanges: Default + Send + 'static;

    /// The transformer's state for one position, both perspectives.
    type Accumulator: Clone + Default + Send + 'static;
    /// One perspective's accumulator (a refresh-cache entry).
    type Half: Clone + Default + Send + 'static;
    /// The transformer's output buffer (with the list of its non-zero
    /// chunks where the first layer's input is sparse: a
    /// [`crate::SparseTransformed`]).
    type Transformed: AsRef<[u8]> + Clone + Send + 'static;
    /// The features one update removes (or adds), every set's, each
    /// numbered within its set; long enough for any change of the board: a
    /// refresh through the cache may replace every active feature.
    type Changes: FeatureChanges;

    /// Loads a net file for backend `isa` (rejecting it if its overflow
    /// proof fails).
    fn load(bytes: &[u8], isa: Isa) -> Result<Self, LoadError> {
        Self::load_with(bytes, LoadOptions::isa(isa))
    }
    /// Loads a net file as `options` say.
    fn load_with(bytes: &[u8], options: LoadOptions) -> Result<Self, LoadError>;
    /// The bounds on every integer this net computes, proven when it was
    /// loaded.
    fn overflow_proof(&self) -> &OverflowProof;
    /// The backend it runs on.
    fn isa(&self) -> Isa;
    /// An all-zero transformer output buffer.
    fn new_transformed() -> Self::Transformed;
    /// The per-piece feature of `piece` on `square` from `perspective` with
    /// its king on `king` (`None` for pieces the feature sets ignore, and for
    /// networks without a per-piece feature set), numbered within that set.
    fn feature(perspective: Color, king: crate::Square, square: crate::Square, piece: crate::Piece) -> Option<usize>;
    /// Whether every feature but the king's own is the same from
    /// `perspective` with its king on `a` and on `b` (for every feature
    /// set): a move of that king between them is then an incremental update;
    /// otherwise the perspective is refreshed (through the refresh cache).
    fn same_view(perspective: Color, a: crate::Square, b: crate::Square) -> bool;
    /// Whether the board features (those of [`Network::board_changes`]) are
    /// the same from `perspective` with its king on `a` and on `b`: a move
    /// of that king between them, which [`Network::same_view`] refuses (the
    /// per-piece features change), is then computed from the parent's
    /// accumulator by [`Network::update_rebased`]. True for networks
    /// without board features.
    fn same_board_view(_perspective: crate::Color, _a: crate::Square, _b: crate::Square) -> bool {
        true
    }
    /// Sets `changes` to what the change of the board from `before` to
    /// `after` does to the features that depend on more than one piece
    /// (only called when [`Network::BOARD_FEATURES`]).
    fn board_changes(_before: &crate::Placement, _after: &crate::Placement, _changes: &mut Self::BoardChanges) {}
    /// Pushes the features of `changes` (from [`Network::board_changes`])
    /// that it removes and adds, from `perspective` with its king on `king`
    /// on both boards.
    fn board_features(
        _perspective: Color,
        _king: crate::Square,
        _changes: &Self::BoardChanges,
        _removed: &mut Self::Changes,
        _added: &mut Self::Changes,
    ) {
    }
    /// Both accumulators from scratch.
    fn refresh(&self, pos: &impl Position, accumulator: &mut Self::Accumulator);
    /// A hint: starts loading the weight rows of an update made soon after
    /// (`removed` and `added` as for [`Network::update`]), so that other work
    /// can go on meanwhile. Does nothing by default.
    fn prefetch_update(&self, _removed: &Self::Changes, _added: &Self::Changes) {}
    /// [`Network::prefetch_update`] for features of the per-piece set alone
    /// (as [`Network::feature`] numbers them).
    fn prefetch_piece_rows(&self, _removed: &[u32], _added: &[u32]) {}
    /// `to = from - removed + added` for one perspective.
    fn update(
        &self,
        from: &Self::Accumulator,
        to: &mut Self::Accumulator,
        perspective: Color,
        removed: &Self::Changes,
        added: &Self::Changes,
    );
    /// `to[perspective] = from[perspective] - minus + plus - removed +
    /// added`: a king move's accumulator from its parent's, `minus` and
    /// `plus` the per-piece parts (biases included) of the parent's and the
    /// child's positions with the king on its old and new square (from the
    /// refresh cache), `removed` and `added` the move's board features.
    #[allow(clippy::too_many_arguments)]
    fn update_rebased(
        &self,
        from: &Self::Accumulator,
        minus: &Self::Half,
        plus: &Self::Half,
        to: &mut Self::Accumulator,
        perspective: Color,
        removed: &Self::Changes,
        added: &Self::Changes,
    );
    /// A perspective's accumulator with no active feature: the biases.
    fn empty_half(&self) -> Self::Half;
    /// `to[perspective] = from - removed + added`, from one perspective's
    /// accumulator, `removed` and `added` features of the per-piece set (as
    /// [`Network::feature`] numbers them).
    fn update_from_half(
        &self,
        from: &Self::Half,
        to: &mut Self::Accumulator,
        perspective: Color,
        removed: &[u32],
        added: &[u32],
    );
    /// `to[perspective] = from` plus every board feature of `board` (those
    /// of [`Network::board_changes`]) from `perspective`, its king on
    /// `king`: a refresh from the per-piece part a refresh-cache entry
    /// holds. Without board features, a copy.
    fn add_board_features(
        &self,
        from: &Self::Half,
        to: &mut Self::Accumulator,
        perspective: Color,
        king: crate::Square,
        board: &Bitboards,
    ) {
        debug_assert!(!Self::BOARD_FEATURES, "generated for every network with board features");
        let _ = (king, board);
        Self::load_half(from, to, perspective);
    }
    /// Copies `from[perspective]` to `to`.
    fn store_half(from: &Self::Accumulator, perspective: Color, to: &mut Self::Half);
    /// Copies `from` to `to[perspective]`.
    fn load_half(from: &Self::Half, to: &mut Self::Accumulator, perspective: Color);
    /// The transformer's output for side to move `stm`.
    fn transform(&self, accumulator: &Self::Accumulator, stm: Color, output: &mut Self::Transformed);
    /// Layer stack `bucket`'s output for a transformer output.
    fn forward(&self, bucket: usize, transformed: &Self::Transformed) -> i32;
    /// [`Self::forward`] without the transformer's list of non-zero chunks:
    /// the layers search their input themselves, as Stockfish's `propagate`
    /// does (what `nnue bench`'s `forward` times, to compare the same work).
    fn forward_searching(&self, bucket: usize, transformed: &Self::Transformed) -> i32 {
        self.forward(bucket, transformed)
    }
    /// Evaluates from a computed accumulator.
    fn evaluate_accumulator(&self, accumulator: &Self::Accumulator, stm: Color, piece_count: usize) -> Evaluation;
}
