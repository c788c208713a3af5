//! Reading a net in bullet's raw format: every tensor in the file's order
//! into whole-net arrays, then each layer stack cut out of them.

use crate::tokens::{int, runtime};
use nnue_spec::ir::{
    Arch, BulletHeader, FeatureSetKind, FileFormat, IntType, Mirror, Param, StackOrder, TensorLayout, TransformerOutput,
};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The size of a file of this architecture, uncompressed: its header if it
/// has one, then the tensors and the padding.
pub fn file_bytes(arch: &Arch) -> usize {
    let FileFormat::Bullet { header, .. } = &arch.format else { unreachable!("a bullet architecture") };
    header.map_or(0, |_| CBNF_BYTES) + tensor_bytes(arch)
}

/// The size of a CBNF header (`runtime::format::cbnf::BYTES`).
const CBNF_BYTES: usize = 64;

/// The size of the tensors and the padding.
pub fn tensor_bytes(arch: &Arch) -> usize {
    let FileFormat::Bullet { tensors, pad_to, .. } = &arch.format else { unreachable!("a bullet architecture") };
    let bytes: usize = tensors.iter().map(|t| t.len * int_bytes(t.ty)).sum();
    bytes.div_ceil(*pad_to) * pad_to
}

/// For an architecture whose files start with a CBNF header: the
/// `runtime::format::cbnf::Cbnf` its header must hold, from the
/// architecture's facts and the ids written in its file.
pub fn cbnf(arch: &Arch) -> Option<TokenStream> {
    let FileFormat::Bullet { header: Some(BulletHeader::Cbnf { arch: id, activation }), .. } = arch.format else {
        return None;
    };
    let rt = runtime();
    let piece_square = arch.features.iter().find_map(|f| f.layout.as_ref());
    let king_buckets = int(piece_square.map_or(1, |l| l.buckets));
    let mirrored = piece_square.is_some_and(|l| l.mirror != Mirror::None);
    let merged_kings = piece_square.is_some_and(|l| l.merged_kings);
    let threats = arch.features.iter().any(|f| f.kind == FeatureSetKind::FullThreats);
    let pairwise = matches!(arch.transformer.output, TransformerOutput::Pairwise { .. });
    let (id, activation) = (int(usize::from(id)), int(usize::from(activation)));
    let (hidden, output_buckets) = (int(arch.transformer.dimensions), int(arch.stacks.count));
    Some(quote! {
        #rt::format::cbnf::Cbnf {
            arch: #id,
            activation: #activation,
            hidden: #hidden,
            king_buckets: #king_buckets,
            threats: #threats,
            output_buckets: #output_buckets,
            mirrored: #mirrored,
            merged_kings: #merged_kings,
            pairwise: #pairwise,
        }
    })
}

fn int_bytes(ty: IntType) -> usize {
    match ty {
        IntType::I8 => 1,
        IntType::I16 => 2,
        IntType::I32 | IntType::F32 => 4,
    }
}

fn tensor_type(ty: IntType) -> TokenStream {
    let rt = runtime();
    match ty {
        IntType::I8 => quote!(#rt::format::bullet::TensorType::I8),
        IntType::I16 => quote!(#rt::format::bullet::TensorType::I16),
        IntType::I32 => quote!(#rt::format::bullet::TensorType::I32),
        IntType::F32 => quote!(#rt::format::bullet::TensorType::F32),
    }
}

/// The local holding a layer parameter's tensor.
fn local(arch: &Arch, param: Param) -> proc_macro2::Ident {
    match param {
        Param::TransformerWeights => format_ident!("transformer_weights"),
        Param::SetWeights(n) => format_ident!("{}_weights", crate::features::field(&arch.features[n])),
        Param::TransformerBiases => format_ident!("transformer_biases"),
        Param::Weights(j) => format_ident!("{}_weights", arch.layers[j].name),
        Param::Biases(j) => format_ident!("{}_biases", arch.layers[j].name),
    }
}

/// `LayerStack::from_tensors`, inside `impl LayerStack`.
pub fn stack_from_tensors(arch: &Arch) -> TokenStream {
    let FileFormat::Bullet { tensors, .. } = &arch.format else { unreachable!("a bullet architecture") };
    let builds = crate::layers::each(arch, |kind, at| {
        let (j, name, params) = (at.index, at.name(), kind.params()?);
        let (ty, weights, biases) = (params.ty, local(arch, Param::Weights(j)), local(arch, Param::Biases(j)));
        if params.weight.is_none() {
            return Some(quote! { #name: #ty::from_tensor(&tensors.#biases, stack) });
        }
        let layout =
            tensors.iter().find(|t| t.param == Param::Weights(j)).map_or(TensorLayout::InputMajor, |t| t.layout);
        let layout = layout_tokens(layout);
        Some(quote! {
            #name: #ty::from_tensors(&tensors.#biases, &tensors.#weights, #layout, LAYER_STACKS, stack)
        })
    });
    quote! {
        /// Stack number `stack`, cut out of the layer tensors of a bullet
        /// file (one tensor per layer part, holding every stack).
        fn from_tensors(tensors: &LayerTensors, stack: usize) -> Self {
            LayerStack { #(#builds,)* }
        }
    }
}

/// The runtime's `format::bullet::Layout` of a tensor layout.
fn layout_tokens(layout: TensorLayout) -> TokenStream {
    let rt = runtime();
    let order = |order: StackOrder| match order {
        StackOrder::InputMajor => quote!(#rt::format::bullet::StackOrder::InputMajor),
        StackOrder::OutputMajor => quote!(#rt::format::bullet::StackOrder::OutputMajor),
        StackOrder::InputBlocks(n) => {
            let n = int(n);
            quote!(#rt::format::bullet::StackOrder::InputBlocks(#n))
        }
    };
    match layout {
        TensorLayout::InputMajor => quote!(#rt::format::bullet::Layout::InputMajor),
        TensorLayout::OutputMajor => quote!(#rt::format::bullet::Layout::OutputMajor),
        TensorLayout::Stacked(stacked) => {
            let order = order(stacked);
            quote!(#rt::format::bullet::Layout::Stacked(#order))
        }
    }
}

/// The struct of a bullet file's layer tensors and `read_bullet`, which
/// reads a whole file into the transformer and the layer stacks.
pub fn read(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let FileFormat::Bullet { tensors, .. } = &arch.format else { unreachable!("a bullet architecture") };
    let params = crate::layers::each(arch, |kind, at| Some((at.index, at.layer, kind.params()?)));
    let fields = params.iter().map(|(j, _, params)| {
        let (weights, biases) = (local(arch, Param::Weights(*j)), local(arch, Param::Biases(*j)));
        let bias_ty = &params.bias;
        let weights = params.weight.as_ref().map(|ty| quote!(#weights: ::std::vec::Vec<#ty>,));
        quote! {
            #weights
            #biases: ::std::vec::Vec<#bias_ty>
        }
    });
    let inits = params.iter().map(|(j, l, params)| {
        let (weights, biases) = (local(arch, Param::Weights(*j)), local(arch, Param::Biases(*j)));
        let (w, b) = (
            int(arch.stacks.count * l.output_dimensions * l.input_dimensions),
            int(arch.stacks.count * l.output_dimensions),
        );
        let zero = &params.zero;
        let weights = params.weight.is_some().then(|| quote!(#weights: ::std::vec![#zero; #w],));
        quote! {
            #weights
            #biases: ::std::vec![#zero; #b]
        }
    });
    let scale = crate::tokens::i32(arch.transformer.load_scale);
    let reads = tensors.iter().map(|t| {
        let ty = tensor_type(t.ty);
        let (what, target, scale) = match t.param {
            Param::TransformerWeights => {
                ("transformer weights".to_owned(), quote!(&mut transformer_weights[..]), scale.clone())
            }
            Param::SetWeights(n) => {
                let set = &arch.features[n];
                let field = crate::features::field(set);
                let what = format!("{} weights", nnue_spec::feature_sets::name(set.kind));
                (what, quote!(&mut #field.weights[..]), scale.clone())
            }
            Param::TransformerBiases => {
                ("transformer biases".to_owned(), quote!(&mut transformer_biases[..]), scale.clone())
            }
            Param::Weights(j) | Param::Biases(j) => {
                let part = if matches!(t.param, Param::Weights(_)) { "weights" } else { "biases" };
                let field = local(arch, t.param);
                (format!("{} {part}", arch.layers[j].name), quote!(&mut tensors.#field[..]), quote!(1))
            }
        };
        if t.ty == IntType::F32 {
            quote! { r.floats(#what, #target)?; }
        } else {
            quote! { r.tensor(#what, #ty, #scale, #target)?; }
        }
    });
    // The plain transformer's one array of rows, or each set's rows.
    let (transformer_locals, transformer) = if arch.is_plain() {
        (
            quote!(let mut transformer_weights = #rt::AlignedSlice::<i16>::zeroed(FEATURES * L1);),
            quote! {
                Transformer {
                    biases: transformer_biases,
                    weights: transformer_weights,
                    psqt_weights: #rt::AlignedSlice::zeroed(0),
                }
            },
        )
    } else {
        let names: Vec<proc_macro2::Ident> = arch.features.iter().map(crate::features::field).collect();
        let locals = arch.features.iter().zip(&names).map(|(f, name)| {
            let (weight, dims) = (crate::tokens::ident(f.weight.rust_name()), crate::features::dimensions(f));
            quote!(let mut #name = #rt::params::FeatureRows::<#weight>::zeroed(#dims, L1, PSQT_BUCKETS);)
        });
        (quote!(#(#locals)*), quote!(Transformer { biases: transformer_biases, #(#names),* }))
    };
    let file_bytes = int(file_bytes(arch));
    let header = cbnf(arch).map(|cbnf| {
        let rt = runtime();
        quote! {
            /// What the CBNF header before the tensors must say.
            pub const HEADER: #rt::format::cbnf::Cbnf = #cbnf;
        }
    });
    let what = if header.is_some() {
        "The size of a net file uncompressed: the header, every tensor, then zeros up to the padding."
    } else {
        "The size of a net file: every tensor, then zeros up to the padding."
    };
    let what = crate::tokens::doc(what);
    quote! {
        #what
        pub const FILE_BYTES: usize = #file_bytes;
        #header

        /// The layer tensors of a bullet file, each holding every layer stack.
        struct LayerTensors {
            #(#fields,)*
        }

        /// Reads a bullet file through `r` (its size checked, or checked as
        /// it is decompressed): every tensor in file order, then the
        /// padding.
        fn read_bullet(
            mut r: #rt::format::bullet::BulletReader<'_>,
        ) -> ::core::result::Result<(Transformer, ::std::boxed::Box<[LayerStack]>), #rt::LoadError> {
            #transformer_locals
            let mut transformer_biases = ::std::boxed::Box::new(#rt::Aligned([0i16; L1]));
            let mut tensors = LayerTensors { #(#inits,)* };
            #(#reads)*
            let transformer = #transformer;
            r.finish()?;
            let stacks = (0..LAYER_STACKS).map(|stack| LayerStack::from_tensors(&tensors, stack)).collect();
            ::core::result::Result::Ok((transformer, stacks))
        }
    }
}
