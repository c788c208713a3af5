//! Sizes, hash words and the architecture's static description.

use crate::tokens::{doc, hex, int, runtime};
use nnue_spec::ir::Arch;
use proc_macro2::TokenStream;
use quote::quote;

pub fn generate(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let name = &arch.name;
    let version = hex(arch.version);
    let header = hex(arch.hashes.header);
    let transformer_hash = hex(arch.hashes.transformer);
    let stack_hash = hex(arch.hashes.layer_stack);
    let features = int(arch.feature_dimensions());
    let l1 = int(arch.transformer.dimensions);
    let transformed = int(arch.transformer.output_bytes());
    let nonzero_chunks = arch.lists_nonzero_chunks().then(|| {
        let chunks = int(arch.transformer.output_bytes() / 4);
        quote! {
            /// Four-byte chunks of the transformer's output: the length of
            /// the list of its non-zero chunks that the transformer's
            /// kernels make for the sparse first layer.
            pub const NONZERO_CHUNKS: usize = #chunks;
        }
    });
    let psqt = int(arch.transformer.psqt_buckets);
    let stacks = int(arch.stacks.count);
    let feature_name = feature_name(arch);
    let (feature_set, dimensions_check) = crate::transformer::of(arch).constants(arch);
    // Each set's own items: its layout or targets, and its type.
    let definitions = arch.features.iter().filter_map(|f| crate::features::of(f.kind).definitions(f));
    let arch_info = arch_info(arch);
    let features_doc = doc(&format!("Number of input features of {feature_name} (rows of the transformer's weights)."));
    quote! {
        /// The architecture's name.
        pub const NAME: &str = #name;
        /// The version word a net file starts with.
        pub const VERSION: u32 = #version;
        /// The hash word in a net file's header.
        pub const HEADER_HASH: u32 = #header;
        /// The hash word in front of the transformer's parameters.
        pub const TRANSFORMER_HASH: u32 = #transformer_hash;
        /// The hash word in front of each layer stack's parameters.
        pub const LAYER_STACK_HASH: u32 = #stack_hash;
        #features_doc
        pub const FEATURES: usize = #features;
        /// Accumulator lanes per perspective (L1).
        pub const L1: usize = #l1;
        /// Bytes of the transformer's output, the first layers' input.
        pub const TRANSFORMED: usize = #transformed;
        #nonzero_chunks
        /// PSQT buckets per perspective.
        pub const PSQT_BUCKETS: usize = #psqt;
        /// Number of layer stacks.
        pub const LAYER_STACKS: usize = #stacks;

        #feature_set
        #(#definitions)*
        /// The transformer's state for one position, both perspectives.
        pub type Accumulator = #rt::Accumulator<L1, PSQT_BUCKETS>;

        const _: () = ::core::assert!(#dimensions_check == FEATURES);

        #arch_info
    }
}

/// The names of the feature sets, joined by ` + `.
fn feature_name(arch: &Arch) -> String {
    arch.features.iter().map(|f| nnue_spec::feature_sets::name(f.kind)).collect::<Vec<_>>().join(" + ")
}

/// `ARCH`, the architecture's static description: its facts and each
/// layer's, as its kind describes it.
fn arch_info(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let (description, feature_name) = (&arch.description, feature_name(arch));
    let layers = arch.layers.iter().map(|l| {
        let name = &l.name;
        let kind = crate::layers::of(l.kind).describe();
        let (inputs, outputs) = (int(l.input_dimensions), int(l.output_dimensions));
        quote! { #rt::LayerInfo { name: #name, kind: #kind, inputs: #inputs, outputs: #outputs } }
    });
    let file_bytes = if arch.is_bullet() {
        quote!(::core::option::Option::Some(FILE_BYTES))
    } else {
        quote!(::core::option::Option::None)
    };
    let cbnf = if crate::bullet::cbnf(arch).is_some() {
        quote!(::core::option::Option::Some(HEADER))
    } else {
        quote!(::core::option::Option::None)
    };
    let l1_lanes = arch.transformer.dimensions;
    let weight_bytes: usize = arch
        .features
        .iter()
        .map(|f| f.dimensions * l1_lanes * if f.weight == nnue_spec::ir::IntType::I8 { 1 } else { 2 })
        .sum();
    let transformer_bytes =
        int(2 * l1_lanes + weight_bytes + 4 * arch.feature_dimensions() * arch.transformer.psqt_buckets);
    quote! {
        /// The architecture's static description.
        pub static ARCH: #rt::ArchInfo = #rt::ArchInfo {
            name: NAME,
            description: #description,
            version: VERSION,
            header_hash: HEADER_HASH,
            transformer_hash: TRANSFORMER_HASH,
            layer_stack_hash: LAYER_STACK_HASH,
            feature_set: #feature_name,
            feature_dimensions: FEATURES,
            transformer_dimensions: L1,
            psqt_buckets: PSQT_BUCKETS,
            transformer_bytes: #transformer_bytes,
            layer_stacks: LAYER_STACKS,
            layers: &[#(#layers),*],
            file_bytes: #file_bytes,
            cbnf: #cbnf,
        };
    }
}
