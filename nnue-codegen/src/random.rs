//! A writer of random net files for this architecture: the reader's layout
//! walked in the same order, for tests and benchmarks.

use crate::tokens::{ident, int, lit, runtime};
use nnue_spec::ir::{Arch, Encoding, PsqtPlacement, TransformerOutput};
use proc_macro2::TokenStream;
use quote::quote;

/// Pieces on a full board: as many rows of a per-piece set as can be active.
const PIECES: i64 = 32;

pub fn generate(arch: &Arch) -> TokenStream {
    if arch.is_bullet() {
        return bullet(arch);
    }
    let rt = runtime();
    let encoding = match arch.encoding {
        Encoding::Raw => quote!(#rt::Encoding::Raw),
        Encoding::Leb128 => quote!(#rt::Encoding::Leb128),
    };
    // Transformer values scaled so that accumulators spread over the clamp
    // range and beyond (stored values are multiplied by load_scale).
    let max = match arch.transformer.output {
        TransformerOutput::ClippedReLU { max } | TransformerOutput::Pairwise { max, .. } => i64::from(max),
        // Layers activate the accumulators themselves: spread them over a
        // range like a bullet net's.
        TransformerOutput::Accumulators => 512,
    };
    let scale = i64::from(arch.transformer.load_scale);
    // After each set's weights, or after all of them: one place for a
    // plain transformer (a single set), whichever placement its file names.
    let psqt_each =
        arch.transformer.psqt_buckets > 0 && arch.psqt_placement == PsqtPlacement::AfterEachSet && !arch.is_plain();
    let (bias, weight) = (lit(max / scale), lit(max / 2 / scale));
    let weights = if arch.is_plain() {
        quote! { w.ints(#encoding, &rng.values::<i16>(FEATURES * L1, -#weight, #weight)); }
    } else {
        // Any of every set's rows may be active at once: weights shrunk so
        // that all sets' most active rows together stay within i16 (the
        // overflow proof bounds them so), but no larger than the type holds.
        let active: usize = arch.features.iter().map(|f| f.max_active).sum();
        let weight = max / 2 / scale * PIECES / (active as i64).max(PIECES);
        let sets = arch.features.iter().map(|f| {
            let ty = crate::tokens::ident(f.weight.rust_name());
            let weight = lit(weight.min(if f.weight == nnue_spec::ir::IntType::I8 { 127 } else { weight }));
            let dims = crate::features::dimensions(f);
            let set_encoding = match f.encoding {
                Encoding::Raw => quote!(#rt::Encoding::Raw),
                Encoding::Leb128 => quote!(#rt::Encoding::Leb128),
            };
            let psqt =
                psqt_each.then(|| quote! { w.ints(#encoding, &rng.values::<i32>(#dims * PSQT_BUCKETS, -5000, 5000)); });
            quote! {
                w.ints(#set_encoding, &rng.values::<#ty>(#dims * L1, -#weight, #weight));
                #psqt
            }
        });
        quote!(#(#sets)*)
    };
    let psqt = (arch.transformer.psqt_buckets > 0 && !psqt_each).then(|| {
        quote! { w.ints(#encoding, &rng.values::<i32>(FEATURES * PSQT_BUCKETS, -5000, 5000)); }
    });
    // Each layer's parameters, as its kind writes them.
    let layers = crate::layers::each(arch, |kind, at| kind.random(at));
    quote! {
        /// A net file of this architecture whose parameters are pseudo-random
        /// from `seed` (for tests and benchmarks): transformer values spread
        /// the accumulators over the clamp range and beyond, layer weights
        /// cover all of i8, padding columns are zero.
        pub fn random_net_file(seed: u64) -> ::std::vec::Vec<u8> {
            let mut rng = #rt::Rng::new(seed);
            let mut w = #rt::NetWriter::new();
            w.header(VERSION, HEADER_HASH, "random parameters");
            w.u32(TRANSFORMER_HASH);
            w.ints(#encoding, &rng.values::<i16>(L1, -#bias, #bias));
            #weights
            #psqt
            for _ in 0..LAYER_STACKS {
                w.u32(LAYER_STACK_HASH);
                #(#layers)*
            }
            w.finish()
        }
    }
}

/// The largest value a layer's input can hold (for sizing random weights).
fn input_top(arch: &Arch, layer: &nnue_spec::ir::Layer) -> i64 {
    match layer.inputs.first().map(|s| s.source) {
        Some(nnue_spec::ir::Source::Layer(i)) => crate::layers::of(arch.layers[i].kind).output_top(),
        _ => match arch.transformer.output {
            TransformerOutput::ClippedReLU { max } => i64::from(max),
            TransformerOutput::Pairwise { max, divisor } => i64::from(max) * i64::from(max) / i64::from(divisor),
            TransformerOutput::Accumulators => i64::from(i16::MAX),
        },
    }
}

/// A random bullet file: every tensor in file order, values of its type.
fn bullet(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let nnue_spec::ir::FileFormat::Bullet { tensors, pad_to, compression, .. } = &arch.format else { unreachable!() };
    let max = match arch.transformer.output {
        TransformerOutput::ClippedReLU { max } | TransformerOutput::Pairwise { max, .. } => i64::from(max),
        // Layers activate the accumulators themselves: spread them over a
        // range like a bullet net's.
        TransformerOutput::Accumulators => 512,
    };
    let scale = i64::from(arch.transformer.load_scale);
    let type_max = |ty: nnue_spec::ir::IntType| match ty {
        nnue_spec::ir::IntType::I8 => 127,
        nnue_spec::ir::IntType::I16 => 32767,
        nnue_spec::ir::IntType::I32 => i64::from(i32::MAX),
        nnue_spec::ir::IntType::F32 => 1,
    };
    let writes = tensors.iter().map(|t| {
        if t.ty == nnue_spec::ir::IntType::F32 {
            // Weights within 1, biases within a half: float layers cannot
            // overflow, and their sums stay in the range of the clamps.
            let len = int(t.len);
            let bound = if matches!(t.param, nnue_spec::ir::Param::Biases(_)) { 0.5f32 } else { 1.0f32 };
            return quote! { w.f32s(&rng.floats(#len, #bound)); };
        }
        let ty = ident(t.ty.rust_name());
        let len = int(t.len);
        let bound = match t.param {
            nnue_spec::ir::Param::TransformerWeights => max / 2 / scale,
            // As in a Stockfish file: every set's most active rows together
            // within the accumulator's range.
            nnue_spec::ir::Param::SetWeights(_) => {
                let active: usize = arch.features.iter().map(|f| f.max_active).sum();
                max / 2 / scale * PIECES / (active as i64).max(PIECES)
            }
            nnue_spec::ir::Param::TransformerBiases => max / scale,
            // Sums of every input at its largest stay well inside i32.
            nnue_spec::ir::Param::Weights(j) => {
                let layer = &arch.layers[j];
                (1i64 << 30) / (layer.input_dimensions as i64 * input_top(arch, layer)).max(1)
            }
            nnue_spec::ir::Param::Biases(_) => 8128,
        };
        let bound = lit(bound.clamp(1, type_max(t.ty)));
        quote! { w.ints(#rt::Encoding::Raw, &rng.values::<#ty>(#len, -#bound, #bound)); }
    });
    let pad_to = int(*pad_to);
    let finish = match (compression, crate::bullet::cbnf(arch)) {
        // Uncompressed behind its header (the header's flag says so).
        (_, Some(_)) => quote! {{
            let mut file = HEADER.write(false, NAME).to_vec();
            file.extend(w.finish());
            file
        }},
        (nnue_spec::ir::Compression::None, None) => quote!(w.finish()),
        (nnue_spec::ir::Compression::Zstd, None) => quote!(#rt::format::bullet::zstd_compress(&w.finish())),
    };
    quote! {
        /// A bullet file of this architecture whose parameters are
        /// pseudo-random from `seed` (for tests and benchmarks): every tensor
        /// in file order, then the padding.
        pub fn random_net_file(seed: u64) -> ::std::vec::Vec<u8> {
            let mut rng = #rt::Rng::new(seed);
            let mut w = #rt::NetWriter::new();
            #(#writes)*
            w.pad_to(#pad_to);
            #finish
        }
    }
}
