//! The accumulator's form, which the transformer, the constants, the
//! evaluation and the backends' kernel calls all follow: whether the
//! network is incremental (implements `runtime::Network`), whether it keeps
//! its board feature sets' rows in a part of their own, and how the
//! kernels read its lanes.

use nnue_spec::ir::Arch;
use proc_macro2::TokenStream;
use quote::quote;

/// Whether the network implements `runtime::Network`: a piece has at most
/// one per-piece feature (the trait's `feature`), so at most one per-piece
/// set; FullThreats sets come through `board_features`.
pub(crate) fn is_incremental(arch: &Arch) -> bool {
    arch.features.iter().filter(|f| f.kind.per_piece()).count() <= 1
}

/// Whether the accumulator keeps the board feature sets' rows apart from
/// the per-piece sets' (`runtime::SplitAccumulator`), as Stockfish keeps
/// its threat accumulator apart from its piece-square one: where a network
/// implementing `runtime::Network` has both kinds of sets. A king move that
/// keeps the board sets' view then updates their part, and only the
/// per-piece part is refreshed.
pub(crate) fn board_apart(arch: &Arch) -> bool {
    is_incremental(arch)
        && arch.features.iter().any(|f| f.kind.per_piece())
        && arch.features.iter().any(|f| !f.kind.per_piece())
}

/// The accumulator's lanes as the transformer's output kernels take them:
/// `(values, board)`, `board` the board sets' part where it is kept apart
/// ([`board_apart`]), summed as the kernel loads them.
pub(crate) fn kernel_lanes(arch: &Arch) -> (TokenStream, TokenStream) {
    if board_apart(arch) {
        (quote!(&accumulator.values), quote!(::core::option::Option::Some(&accumulator.board_values)))
    } else {
        (quote!(&accumulator.values), quote!(::core::option::Option::None))
    }
}

/// The accumulator's lanes, both parts summed, as the scalar code reads
/// them: an expression of type `[[i16; L1]; 2]` (a place where it is one
/// array).
pub(crate) fn summed_lanes(arch: &Arch) -> TokenStream {
    if board_apart(arch) { quote!(accumulator.summed_values()) } else { quote!(accumulator.values) }
}
