//! The integration tests that expand architectures, in one test binary:
//! each shipped architecture is expanded once (`archs`), and every module
//! below uses it from there (issue 56). A test is named by its module, e.g.
//! `reference::sf_18_sfnnv10`; run one module with a filter:
//! `cargo test --test all -- reference::`.

#[path = "../support/mod.rs"]
mod support;

/// Every shipped architecture, expanded once: `archs::sfnnv9_small` is the
/// module `nnue!(include "sfnnv9-small.ron")` defines.
mod archs {
    macro_rules! shipped_archs {
        ($($module:ident { file: $file:literal, source: $source:literal, network: $network:tt, plain: $plain:tt }),* $(,)?) => {$(
            nnue::nnue!(include $file);
        )*};
    }

    nnue::for_each_shipped_arch!(shipped_archs);
}

/// `mod $module` holding the architecture module `$module::$module`: the
/// shipped one from `archs` (`shipped`), or a test architecture's file
/// expanded here.
macro_rules! arch_module {
    ($module:ident, shipped) => {
        mod $module {
            pub use crate::archs::$module;
        }
    };
    ($module:ident, $file:literal) => {
        mod $module {
            nnue::nnue!(include $file);
        }
    };
}
pub(crate) use arch_module;

mod backends;
mod bullet;
mod full_threats;
mod incremental;
mod limits;
mod net_errors;
mod net_errors_sfnnv10;
mod net_errors_sfnnv16;
mod overflow;
mod reference;
mod wrapping;
