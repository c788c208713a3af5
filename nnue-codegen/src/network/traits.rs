//! The traits `Network` implements: `runtime::Network` (what the
//! accumulator stack, the refresh cache and engines call) where the
//! transformer is incremental, and `runtime::AnyNetwork` (a network of any
//! architecture), and its entry in a registry of architectures.

use crate::tokens::runtime;
use nnue_spec::ir::Arch;
use proc_macro2::TokenStream;
use quote::quote;

/// `impl runtime::Network`, `impl runtime::AnyNetwork` and `ENTRY`.
pub(super) fn impls(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let network_impl = network_impl(arch);
    quote! {
        #network_impl

        impl #rt::AnyNetwork for Network {
            fn arch(&self) -> &'static #rt::ArchInfo {
                &ARCH
            }

            fn description(&self) -> &str {
                &self.description
            }

            fn isa(&self) -> #rt::Isa {
                self.backend.isa()
            }

            fn as_any(&self) -> &dyn ::core::any::Any {
                self
            }

            fn nonzero_padding(&self) -> usize {
                self.stacks.iter().map(LayerStack::nonzero_padding).sum()
            }

            fn evaluate_board(&self, pos: &#rt::Board) -> #rt::BucketValues {
                self.evaluate_buckets(pos)
            }

            fn overflow_proof(&self) -> &#rt::OverflowProof {
                &self.proof
            }
        }

        /// This architecture in a registry of architectures.
        pub const ENTRY: #rt::ArchEntry = #rt::ArchEntry {
            info: &ARCH,
            load: |bytes, options| ::core::result::Result::Ok(::std::boxed::Box::new(Network::from_bytes_with(bytes, options)?)),
            load_file: |path, options| ::core::result::Result::Ok(::std::boxed::Box::new(Network::from_file_with(path, options)?)),
        };
    }
}

/// `impl runtime::Network`: the accumulator stack, refresh cache and engine
/// code reach a network through this trait; its incremental updates add
/// and remove rows of the features a move changes. A composed transformer
/// implements it when a piece has at most one per-piece feature.
fn network_impl(arch: &Arch) -> Option<TokenStream> {
    let rt = runtime();
    let incremental = crate::transformer::of(arch).incremental(arch)?;
    let (transformed_type, new_transformed, transformed_methods) = transformed(arch);
    Some(quote! {
        impl #rt::Network for Network {
            const L1: usize = L1;
            const TRANSFORMED: usize = TRANSFORMED;
            const LAYER_STACKS: usize = LAYER_STACKS;
            type Accumulator = Accumulator;
            type Half = #rt::HalfAccumulator<L1, PSQT_BUCKETS>;
            type Transformed = #transformed_type;

            #incremental

            fn load_with(bytes: &[u8], options: #rt::LoadOptions) -> ::core::result::Result<Self, #rt::LoadError> {
                Self::from_bytes_with(bytes, options)
            }

            fn overflow_proof(&self) -> &#rt::OverflowProof {
                &self.proof
            }

            fn isa(&self) -> #rt::Isa {
                self.backend.isa()
            }

            fn new_transformed() -> #transformed_type {
                #new_transformed
            }

            fn refresh(&self, pos: &impl #rt::Position, accumulator: &mut Accumulator) {
                Network::refresh(self, pos, accumulator)
            }

            fn empty_half(&self) -> #rt::HalfAccumulator<L1, PSQT_BUCKETS> {
                #rt::HalfAccumulator { values: **self.transformer.biases, psqt: [0; PSQT_BUCKETS] }
            }

            fn store_half(from: &Accumulator, perspective: #rt::Color, to: &mut #rt::HalfAccumulator<L1, PSQT_BUCKETS>) {
                let p = perspective.index();
                to.values = from.values[p];
                to.psqt = from.psqt[p];
            }

            fn load_half(from: &#rt::HalfAccumulator<L1, PSQT_BUCKETS>, to: &mut Accumulator, perspective: #rt::Color) {
                let p = perspective.index();
                to.values[p] = from.values;
                to.psqt[p] = from.psqt;
            }

            #transformed_methods

            fn evaluate_accumulator(&self, accumulator: &Accumulator, stm: #rt::Color, piece_count: usize) -> #rt::Evaluation {
                Network::evaluate_accumulator(self, accumulator, stm, piece_count)
            }
        }
    })
}

/// The type of `runtime::Network::Transformed`, its value in
/// `new_transformed`, and the trait's `transform` and `forward` (and, where
/// the transformer lists the non-zero chunks, `forward_searching`: the
/// inherent `propagate`, whose backend searches its input itself).
fn transformed(arch: &Arch) -> (TokenStream, TokenStream, TokenStream) {
    let rt = runtime();
    let listed = arch.lists_nonzero_chunks();
    let transformed_type = if listed {
        quote!(#rt::SparseTransformed<TRANSFORMED, NONZERO_CHUNKS>)
    } else {
        quote!(#rt::Aligned<[u8; TRANSFORMED]>)
    };
    let new_transformed =
        if listed { quote!(#rt::SparseTransformed::new()) } else { quote!(#rt::Aligned([0; TRANSFORMED])) };
    let transformed_methods = if listed {
        quote! {
            fn transform(&self, accumulator: &Accumulator, stm: #rt::Color, output: &mut #transformed_type) {
                let mut slots = #rt::Aligned([::core::mem::MaybeUninit::uninit(); TRANSFORMED]);
                let mut nonzero = #rt::kernels::ChunkSlots::<NONZERO_CHUNKS>::new();
                let (bytes, list) = self.transform_listed(accumulator, stm, &mut slots, &mut nonzero);
                output.set(bytes, list);
            }

            fn forward(&self, bucket: usize, transformed: &#transformed_type) -> i32 {
                self.propagate_listed(bucket, transformed.bytes(), transformed.nonzero())
            }

            fn forward_searching(&self, bucket: usize, transformed: &#transformed_type) -> i32 {
                self.propagate(bucket, transformed.bytes())
            }
        }
    } else {
        quote! {
            fn transform(&self, accumulator: &Accumulator, stm: #rt::Color, output: &mut #transformed_type) {
                Network::transform(self, accumulator, stm, output)
            }

            fn forward(&self, bucket: usize, transformed: &#transformed_type) -> i32 {
                self.propagate(bucket, transformed)
            }
        }
    };
    (transformed_type, new_transformed, transformed_methods)
}
