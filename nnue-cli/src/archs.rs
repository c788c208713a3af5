//! Every architecture shipped in `archs/`, compiled: what `nnue` knows
//! without building anything. The list is `nnue::for_each_shipped_arch!`'s:
//! a file added under `archs/` is compiled in with no other edit.

use crate::registry::Compiled;

/// The modules `nnue!` makes of the shipped files, and [`SHIPPED`].
macro_rules! shipped {
    ($($module:ident { file: $file:literal, source: $source:literal, network: $network:tt, plain: $plain:tt }),* $(,)?) => {
        $(nnue::nnue!(include $file);)*

        /// The shipped architectures by their file under `archs/` and its
        /// text, in `for_each_shipped_arch!`'s order. Where two share a
        /// header hash (Stockfish's hash ignores layer input widths: SFNNv4
        /// and SFNNv5 nets carry the same words), the registry's `load`
        /// decides; the narrower (older) comes first.
        pub static SHIPPED: &[Compiled] = &[$(compiled_if!($network, $module, $file, $source)),*];
    };
}

/// [`crate::compiled!`], `not_incremental` unless the network implements
/// `nnue::runtime::Network`.
macro_rules! compiled_if {
    (true, $module:ident, $file:literal, $source:literal) => {
        crate::compiled!($module, $file, $source)
    };
    (false, $module:ident, $file:literal, $source:literal) => {
        crate::compiled!($module, $file, $source, not_incremental)
    };
}

nnue::for_each_shipped_arch!(shipped);
