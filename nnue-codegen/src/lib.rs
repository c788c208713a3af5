//! Turns a validated architecture ([`nnue_spec::Arch`]) into Rust code.
//!
//! `nnue-macros` is a thin shim over [`generate`]; tests and the CLI call it
//! directly. The output is deterministic and uses fully qualified paths
//! (through [`RUNTIME`]) so it compiles wherever it is expanded.
//!
//! Two axes. By what is generated, one stage per file, each walking the
//! architecture: `constants` (sizes, hashes, facts), `stack` (one layer
//! stack: its parameters, loading, scalar forward pass), `forward` (a
//! forward pass, scalar or per SIMD target), `output` (a stack's output
//! from its layers), `backends` (one module of kernels per SIMD target,
//! choices from the table in `targets`), `network` (the network type:
//! loading, dispatch, accumulators, evaluation), `proof` (the overflow
//! proof run on loading), `bullet` (bullet's raw files) and `random`
//! (random net files). By what it is generated for, one module per kind,
//! holding every stage's part for that kind: `layers/` (one per layer
//! kind, [`LayerKind`](nnue_spec::ir::LayerKind)), `features/` (one per
//! feature-set kind) and `transformer/` (plain or composed). The stages ask
//! each kind its part; a new layer kind is one new file in `layers/`.

mod backends;
mod bullet;
mod constants;
mod dispatch;
mod features;
mod forward;
mod layers;
mod network;
mod output;
mod proof;
mod random;
mod stack;
pub mod targets;
mod tokens;
mod transformer;

pub use backends::Plan;
use nnue_spec::Arch;
use proc_macro2::TokenStream;
use quote::quote;
pub use tokens::RUNTIME;

/// What to generate besides the architecture itself.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The absolute path of the architecture file: included with
    /// `include_str!` so that editing it rebuilds the calling crate.
    pub spec_path: Option<String>,
}

/// The module for `arch`: `pub mod <name> { ... }`.
pub fn generate(arch: &Arch, options: &Options) -> TokenStream {
    let module = tokens::ident(&arch.module);
    let doc = tokens::doc(&format!("Architecture `{}`: {}", arch.name, arch.description));
    let rebuild = options.spec_path.as_ref().map(|path| {
        quote! {
            /// The architecture file, included so that editing it rebuilds this crate.
            const _: &str = ::core::include_str!(#path);
        }
    });
    let constants = constants::generate(arch);
    let stack = stack::generate(arch);
    let network = network::generate(arch);
    let proof = proof::generate(arch);
    let backends = backends::generate(arch);
    let random = random::generate(arch);
    quote! {
        #doc
        pub mod #module {
            #rebuild
            #constants
            #stack
            #network
            #proof
            #random
            #backends
        }
    }
}

/// [`generate`], formatted with prettyplease: what snapshots and `nnue
/// expand` show.
pub fn generate_pretty(arch: &Arch, options: &Options) -> String {
    let file: syn::File = syn::parse2(generate(arch, options)).expect("the generator emits valid Rust");
    prettyplease::unparse(&file)
}

/// The names of the SIMD backends code is generated for, as `--isa` spells
/// them (`avx2`, ..., `neon-dotprod`).
pub fn backend_names() -> Vec<String> {
    targets::TARGETS.iter().map(|t| t.module.replace('_', "-")).collect()
}

/// The kernel module `arch` gets for one SIMD backend (named as by
/// [`backend_names`]), formatted: the part of [`generate_pretty`] a reviewer
/// of that backend reads. `None` for an unknown name.
pub fn backend_pretty(arch: &Arch, backend: &str) -> Option<String> {
    let target = targets::TARGETS.iter().find(|t| t.module.replace('_', "-") == backend)?;
    let file: syn::File = syn::parse2(backends::module(arch, target)).expect("the generator emits valid Rust");
    Some(prettyplease::unparse(&file))
}

/// Every SIMD backend's [`Plan`] for `arch`.
pub fn plans(arch: &Arch) -> Vec<Plan> {
    targets::TARGETS.iter().map(|t| backends::plan(arch, t)).collect()
}

/// Whether the network generated for `arch` implements
/// `nnue::runtime::Network` (incremental updates, the accumulator stack):
/// every architecture but a composed transformer in which a piece has more
/// than one per-piece feature.
pub fn implements_network(arch: &Arch) -> bool {
    transformer::implements_network(arch)
}
