//! Code generation by kind of feature transformer: the plain one (a single
//! set of i16 weights, one feature per piece) and the composed one (every
//! set's rows summed into one accumulator), each in its module
//! implementing [`TransformerGen`].

mod common;
mod composed;
mod plain;

pub(crate) use common::TransformerGen;
use nnue_spec::ir::Arch;

/// The generator of `arch`'s transformer.
pub(crate) fn of(arch: &Arch) -> &'static dyn TransformerGen {
    if arch.is_plain() { &plain::Plain } else { &composed::Composed }
}

/// Whether the network implements `runtime::Network`: a piece has at most
/// one per-piece feature (the trait's `feature`), so at most one per-piece
/// set; FullThreats sets come through `board_features`.
pub(crate) fn implements_network(arch: &Arch) -> bool {
    composed::is_incremental(arch)
}

/// Whether the accumulator keeps the board feature sets' rows apart from
/// the per-piece sets' (`runtime::SplitAccumulator`), as Stockfish keeps
/// its threat accumulator apart from its piece-square one: where a network
/// implementing `runtime::Network` has both kinds of sets. A king move that
/// keeps the board sets' view then updates their part, and only the
/// per-piece part is refreshed.
pub(crate) fn board_apart(arch: &Arch) -> bool {
    implements_network(arch)
        && arch.features.iter().any(|f| f.kind.per_piece())
        && arch.features.iter().any(|f| !f.kind.per_piece())
}

/// The accumulator's lanes as the transformer's output kernels take them:
/// `(values, board)`, `board` the board sets' part where it is kept apart
/// ([`board_apart`]), summed as the kernel loads them.
pub(crate) fn kernel_lanes(arch: &Arch) -> (proc_macro2::TokenStream, proc_macro2::TokenStream) {
    if board_apart(arch) {
        (quote::quote!(&accumulator.values), quote::quote!(::core::option::Option::Some(&accumulator.board_values)))
    } else {
        (quote::quote!(&accumulator.values), quote::quote!(::core::option::Option::None))
    }
}

/// The accumulator's lanes, both parts summed, as the scalar code reads
/// them: an expression of type `[[i16; L1]; 2]` (a place where it is one
/// array).
pub(crate) fn summed_lanes(arch: &Arch) -> proc_macro2::TokenStream {
    if board_apart(arch) { quote::quote!(accumulator.summed_values()) } else { quote::quote!(accumulator.values) }
}
