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
