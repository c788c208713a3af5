//! One module per SIMD target: the kernels of this architecture for it, with
//! the tile size, kernel and register width of every step chosen here.

use crate::forward::propagate_body;
use crate::layers::{self, At, wide_affine};
use crate::targets::{self, TARGETS, Target};
use crate::tokens::{doc, ident, runtime};
use nnue_spec::ir::{Arch, TransformerOutput};
use proc_macro2::TokenStream;
use quote::quote;

pub fn generate(arch: &Arch) -> TokenStream {
    let modules = TARGETS.iter().map(|t| module(arch, t));
    quote!(#(#modules)*)
}

/// What a backend does for an architecture: its accumulator tiling and the
/// kernel of each affine layer, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The backend's `--isa` name.
    pub backend: String,
    /// Accumulator registers per tile.
    pub tile: usize,
    pub tiling: String,
    pub layers: Vec<String>,
}

/// The [`Plan`] of `target` for `arch`.
pub(crate) fn plan(arch: &Arch, target: &Target) -> Plan {
    let tile = target.tile(arch.transformer.dimensions);
    let tiles = arch.transformer.dimensions / (tile * target.lanes);
    let tiling = format!(
        "Accumulator tile: {tile} registers of {} lanes ({} lanes), {tiles} tiles per perspective.",
        target.lanes,
        tile * target.lanes
    );
    let layers = layers::each(arch, |kind, at| kind.plan(at, target));
    Plan { backend: target.module.replace('_', "-"), tile, tiling, layers }
}

/// The module of `target`'s kernels for `arch`.
pub(crate) fn module(arch: &Arch, target: &Target) -> TokenStream {
    let rt = runtime();
    let module = ident(target.module);
    let token = ident(target.token);
    let (arch_name, simd, features) = (target.arch, ident(target.simd), target.features);
    let plan = plan(arch, target);
    let module_doc = doc(&format!("Kernels for {}.", target.name));
    let tile_doc = doc(&plan.tiling);
    let tile = crate::tokens::int(plan.tile);
    let layers_doc = plan.layers.iter().map(|line| doc(line));
    let (uses, rows) = crate::transformer::of(arch).kernels(arch);
    let (transform_fn, nonzero_param, nonzero_arg) = transform(arch);
    let evaluate_fn = evaluate(arch, target);
    // An SCReLU and one i16-weight layer in 16-bit products where it
    // applies, else the layers of an `Accumulators` output read in place.
    let accumulator_path = wide_affine::accumulator_path(arch, target).or_else(|| {
        (arch.transformer.output == TransformerOutput::Accumulators).then(|| accumulators_in_place(arch, target))
    });
    let cpu = token_param(arch, target);
    let body = propagate_body(arch, Some(target), false);
    quote! {
        #module_doc
        #[cfg(target_arch = #arch_name)]
        mod #module {
            #uses

            type Cpu = #rt::simd::#simd::#token;

            #tile_doc
            const TILE: usize = #tile;

            #rows

            #transform_fn

            #evaluate_fn

            #accumulator_path

            /// The layer stack's forward pass.
            #(#layers_doc)*
            pub(super) fn propagate(
                cpu: Cpu,
                stack: &LayerStack,
                input: &[u8; TRANSFORMED],
                #nonzero_param
                trace: &mut impl ::core::ops::FnMut(&'static str, #rt::LayerOutput<'_>),
            ) -> i32 {
                // SAFETY: a `Cpu` token exists only if this CPU has the
                // instruction set whose features `forward` is compiled for.
                unsafe { forward(cpu.inside(), stack, input, #nonzero_arg trace) }
            }

            /// [`propagate`] compiled for the instruction set, every kernel
            /// inlined into it. Safe to call where a `Cpu` token exists: the
            /// token proves the CPU has these features.
            #[target_feature(enable = #features)]
            fn forward(
                #cpu: #rt::simd::Inside<Cpu>,
                stack: &LayerStack,
                input: &[u8; TRANSFORMED],
                #nonzero_param
                trace: &mut impl ::core::ops::FnMut(&'static str, #rt::LayerOutput<'_>),
            ) -> i32 {
                #body
            }
        }
    }
}

/// The name of the token parameter of a function compiled for `target`
/// running the layers: `cpu`, or `_cpu` where no layer's kernel takes it
/// (i16 weights only).
fn token_param(arch: &Arch, target: &Target) -> TokenStream {
    let uses = (0..arch.layers.len()).any(|i| {
        let at = At::new(arch, i);
        layers::of(at.layer.kind).uses_token(&at, target)
    });
    if uses { quote!(cpu) } else { quote!(_cpu) }
}

/// `transform`, the transformer's output kernel; and the parameter and
/// argument of `propagate` and `forward` passing the list of its non-zero
/// chunks, where it makes one.
fn transform(arch: &Arch) -> (TokenStream, TokenStream, TokenStream) {
    let rt = runtime();
    let transform = targets::transform_call(arch);
    let transform_cpu =
        if arch.transformer.output == TransformerOutput::Accumulators { quote!(_cpu) } else { quote!(cpu) };
    if arch.lists_nonzero_chunks() {
        (
            quote! {
                /// The transformer's output into `slots` (all written), perspectives
                /// in `order`, and the list of its non-zero four-byte chunks in
                /// `nonzero`.
                pub(super) fn transform<'o, 'l>(
                    #transform_cpu: Cpu,
                    accumulator: &Accumulator,
                    order: [usize; 2],
                    slots: &'o mut [::core::mem::MaybeUninit<u8>; TRANSFORMED],
                    nonzero: &'l mut #rt::kernels::ChunkSlots<NONZERO_CHUNKS>,
                ) -> (&'o mut [u8], #rt::kernels::ChunkList<'l, NONZERO_CHUNKS>) {
                    #transform
                }
            },
            quote!(nonzero: ::core::option::Option<#rt::kernels::ChunkList<'_, NONZERO_CHUNKS>>,),
            quote!(nonzero,),
        )
    } else {
        (
            quote! {
                /// The transformer's output into `slots` (all written), perspectives
                /// in `order`.
                pub(super) fn transform<'o>(
                    #transform_cpu: Cpu,
                    accumulator: &Accumulator,
                    order: [usize; 2],
                    slots: &'o mut [::core::mem::MaybeUninit<u8>; TRANSFORMED],
                ) -> &'o mut [u8] {
                    #transform
                }
            },
            quote!(),
            quote!(),
        )
    }
}

/// With a list of non-zero chunks, the transformer and the layers also run
/// in one function compiled for the instruction set: an evaluation's whole
/// work with no call between its parts.
fn evaluate(arch: &Arch, target: &Target) -> Option<TokenStream> {
    let (rt, features) = (runtime(), target.features);
    let transform = targets::transform_call(arch);
    arch.lists_nonzero_chunks().then(|| {
        quote! {
            /// The transformer's output of `accumulator` (perspectives in
            /// `order`) and the layer stack's output for it.
            pub(super) fn evaluate(cpu: Cpu, accumulator: &Accumulator, order: [usize; 2], stack: &LayerStack) -> i32 {
                // SAFETY: a `Cpu` token exists only if this CPU has the
                // instruction set whose features the function is compiled for.
                unsafe { transform_and_forward(cpu.inside(), accumulator, order, stack) }
            }

            /// [`evaluate`] compiled for the instruction set: the
            /// transformer's kernel and the forward pass inlined into it.
            #[target_feature(enable = #features)]
            fn transform_and_forward(cpu: #rt::simd::Inside<Cpu>, accumulator: &Accumulator, order: [usize; 2], stack: &LayerStack) -> i32 {
                let mut slots = #rt::Aligned([::core::mem::MaybeUninit::uninit(); TRANSFORMED]);
                let mut nonzero = #rt::kernels::ChunkSlots::<NONZERO_CHUNKS>::new();
                let (slots, nonzero) = (&mut *slots, &mut nonzero);
                let (bytes, list) = #transform;
                forward(cpu, stack, #rt::sub::<_, TRANSFORMED>(bytes, 0), ::core::option::Option::Some(list), &mut |_, _| {})
            }
        }
    })
}

/// For an `Accumulators` output: `propagate_accumulator`, the layers
/// reading the accumulators in place (no copy into the transformer's
/// output, and none back).
fn accumulators_in_place(arch: &Arch, target: &Target) -> TokenStream {
    let (rt, features) = (runtime(), target.features);
    let body = propagate_body(arch, Some(target), true);
    let cpu = token_param(arch, target);
    quote! {
        /// The stack's output from the accumulators read in place
        /// (`first` the side to move's lanes, `second` the other side's);
        /// always `Some`.
        pub(super) fn propagate_accumulator(cpu: Cpu, stack: &LayerStack, first: &[i16; L1], second: &[i16; L1]) -> ::core::option::Option<i32> {
            // SAFETY: a `Cpu` token exists only if this CPU has the
            // instruction set whose features the function is compiled for.
            ::core::option::Option::Some(unsafe { forward_accumulator(cpu.inside(), stack, first, second) })
        }

        /// [`propagate_accumulator`] compiled for the instruction set,
        /// with nothing traced.
        #[target_feature(enable = #features)]
        fn forward_accumulator(#cpu: #rt::simd::Inside<Cpu>, stack: &LayerStack, first: &[i16; L1], second: &[i16; L1]) -> i32 {
            let trace = |_: &'static str, _: #rt::LayerOutput<'_>| {};
            #body
        }
    }
}
