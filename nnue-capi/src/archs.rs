//! Every architecture shipped in nnue's `archs/`, compiled in
//! (`nnue::for_each_shipped_arch!`: a file added there is compiled in with
//! no other edit), with one loader per architecture that has an
//! accumulator stack.
//!
//! The modules `nnue!` makes of them are public but hidden: tests and the
//! fuzz target use their `random_net_file` and Rust API.

use crate::erased::{ArchFns, ErasedNet, erase};
use nnue::runtime::{ArchInfo, LoadError, LoadOptions};
use std::path::Path;

/// A shipped architecture.
pub(crate) struct Arch {
    /// Its file under `archs/` (`sfnnv10.ron`, `bullet/obsidian.ron`).
    pub file: &'static str,
    pub info: &'static ArchInfo,
    /// Its loaders; `None` if its network has no accumulator stack (does
    /// not implement `nnue::runtime::Network`).
    pub loaders: Option<Loaders>,
}

/// A loaded net of any architecture, or why it did not load.
pub(crate) type Loaded = Result<Box<dyn ErasedNet>, LoadError>;

/// Loads a net of one architecture from memory or from a file.
#[derive(Clone, Copy)]
pub(crate) struct Loaders {
    pub bytes: fn(&[u8], LoadOptions) -> Loaded,
    pub file: fn(&Path, LoadOptions) -> Loaded,
}

/// The modules and [`SHIPPED`].
macro_rules! shipped {
    ($($module:ident { file: $file:literal, source: $source:literal, network: $network:tt, plain: $plain:tt }),* $(,)?) => {
        $(nnue::nnue!(include $file);)*

        /// The shipped architectures, in `for_each_shipped_arch!`'s order
        /// (where two share a header hash, the older first).
        pub(crate) static SHIPPED: &[Arch] = &[$(Arch { file: $file, info: &$module::ARCH, loaders: loaders!($network, $module) }),*];
    };
}

/// An architecture's [`Loaders`], if its network implements `Network`.
macro_rules! loaders {
    (true, $module:ident) => {
        Some(Loaders {
            bytes: |bytes, options| Ok(erase($module::Network::from_bytes_with(bytes, options)?, fns!($module))),
            file: |path, options| Ok(erase($module::Network::from_file_with(path, options)?, fns!($module))),
        })
    };
    (false, $module:ident) => {
        None
    };
}

/// The [`ArchFns`] of a module.
macro_rules! fns {
    ($module:ident) => {
        ArchFns { psqt: $module::Network::psqt, value: $module::Network::value }
    };
}

nnue::for_each_shipped_arch!(shipped);
