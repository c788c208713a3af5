//! Feature sets whose features depend on more than one piece (FullThreats:
//! a piece attacking another; PP_3Wide: two pawns near each other). A move
//! changes such features of pieces it did not touch, so they are not found
//! piece by piece ([`super::FeatureSet`]) but from the whole board: the
//! board's change is worked out once per move, then turned into each
//! perspective's features.

use super::FeatureSink;
use crate::chess::placement::Placement;
use crate::chess::position::{Bitboards, Color, Position, Square};

/// A feature set read from the whole board; see the module documentation.
pub trait BoardFeatures {
    /// The name Stockfish gives it.
    const NAME: &'static str;
    /// Number of features (weight-matrix rows).
    const DIMENSIONS: usize;
    /// Most features active at once, per perspective.
    const MAX_ACTIVE: usize;

    /// What a change of the board does to the set, the same from both
    /// perspectives: found once per move by [`Self::board_changes`].
    type Changes: Default + Clone + core::fmt::Debug;

    /// Whether `perspective`'s king on `a` and on `b` gives every feature
    /// the same index (then a move of that king is an update, not a
    /// refresh).
    fn same_view(perspective: Color, a: Square, b: Square) -> bool;

    /// Calls `f(perspective, feature)` with both perspectives' active
    /// features of `pos`, in no particular order.
    fn for_each_active_both(pos: &impl Position, f: impl FnMut(Color, usize));

    /// Pushes every feature of `board` from `perspective`, its king on
    /// `king`, to `active` (numbered within the set), in no particular
    /// order: what a refresh adds to the per-piece part a refresh-cache
    /// entry holds.
    fn active_on(board: &Bitboards, perspective: Color, king: Square, active: &mut impl FeatureSink);

    /// Sets `changes` to what the set sees change from `before` to `after`.
    fn board_changes(before: &Placement, after: &Placement, changes: &mut Self::Changes);

    /// Pushes each feature `changes` removes to `removed` and each it adds
    /// to `added` (numbered within the set), from `perspective` with its
    /// king on `king` on both boards.
    fn features_of(
        perspective: Color,
        king: Square,
        changes: &Self::Changes,
        removed: &mut impl FeatureSink,
        added: &mut impl FeatureSink,
    );

    /// [`Self::board_changes`] then [`Self::features_of`]: the features
    /// active on `before` only (to `removed`) and on `after` only (to
    /// `added`).
    fn changes(
        perspective: Color,
        king: Square,
        before: &Bitboards,
        after: &Bitboards,
        removed: &mut impl FeatureSink,
        added: &mut impl FeatureSink,
    ) {
        let mut changes = Self::Changes::default();
        Self::board_changes(&Placement::new(before), &Placement::new(after), &mut changes);
        Self::features_of(perspective, king, &changes, removed, added);
    }
}
