//! The overflow proof of a loaded net: the transformer's bounds over legal
//! positions, then each layer stack's forward pass on intervals, mirroring
//! the scalar forward pass of `stack.rs` layer by layer.

use crate::tokens::{ident, int, lit, runtime};
use nnue_spec::ir::{Arch, EvalRule, LayerKind, Slice, Source, TransformerOutput};
use proc_macro2::TokenStream;
use quote::quote;

pub fn generate(arch: &Arch) -> TokenStream {
    let rt = runtime();
    // The range of every transformer output: for the accumulators
    // themselves, all of i16.
    let (low, top) = match arch.transformer.output {
        TransformerOutput::ClippedReLU { max } => (0, i64::from(max)),
        TransformerOutput::Pairwise { max, divisor } => {
            (0, i64::from(max) * i64::from(max) / i64::from(divisor))
        }
        TransformerOutput::Accumulators => (i64::from(i16::MIN), i64::from(i16::MAX)),
    };
    let (low, top) = (lit(low), lit(top));
    let scale = lit(i64::from(arch.output.scale));
    let combine = match arch.output.eval {
        EvalRule::SumThenDivide => quote!(SumThenDivide),
        EvalRule::DivideThenSum => quote!(DivideThenSum),
    };
    let transformer = if arch.is_plain() {
        quote! {
            let params = #rt::overflow::transformer::TransformerParams {
                biases: &transformer.biases[..],
                weights: &transformer.weights,
                psqt_weights: &transformer.psqt_weights,
                psqt_buckets: PSQT_BUCKETS,
            };
            let psqt = #rt::overflow::transformer::prove(
                &mut proof,
                <FeatureSet as #rt::FeatureSet>::index,
                <FeatureSet as #rt::FeatureSet>::MAX_ACTIVE,
                &params,
            );
        }
    } else {
        crate::composed::proof(arch)
    };
    // With activations packed by AVX2, the layers reading them are proved
    // as their weights are then laid out (`packed`).
    let packs = !crate::stack::packed_orders(arch).is_empty();
    let (packed_param, packed_arg) = if packs { (quote!(, packed: bool), quote!(, packed)) } else { (quote!(), quote!()) };
    let steps = arch.layers.iter().enumerate().map(|(i, layer)| step(arch, i, layer));
    // The stack's value, through locals when it is a sum or rescaled.
    let mut value_steps = Vec::new();
    let mut value = match arch.output.value.as_slice() {
        [term] if !term.subtract => element(arch, term.element.layer, term.element.index),
        terms => {
            let terms = terms.iter().map(|t| {
                let (value, subtract) = (element(arch, t.element.layer, t.element.index), t.subtract);
                quote!((#value, #subtract))
            });
            value_steps.push(quote!(let value = #rt::overflow::layers::value_sum(proof, stack, &[#(#terms),*]);));
            quote!(value)
        }
    };
    if let Some(r) = arch.output.rescale {
        let (multiply, divide) = (lit(i64::from(r.multiply)), lit(i64::from(r.divide)));
        let wide = r.width == nnue_spec::schema::ProductWidth::I64;
        value_steps.push(quote!(let value = #rt::overflow::layers::rescale(proof, stack, #value, #multiply, #divide, #wide);));
        value = quote!(value);
    }
    let output = match arch.output.forward {
        None => quote!(#rt::overflow::layers::stack_output(proof, stack, #value)),
        Some(f) => {
            let input = element(arch, f.input.layer, f.input.index);
            let (multiply, divide) = (lit(i64::from(f.multiply)), lit(i64::from(f.divide)));
            quote!(#rt::overflow::layers::forward(proof, stack, #value, #input, #multiply, #divide))
        }
    };
    quote! {
        /// Bounds every integer a net computes, for every legal position:
        /// the accumulators, then each layer stack and its evaluation.
        fn prove(transformer: &Transformer, stacks: &[LayerStack] #packed_param) -> #rt::OverflowProof {
            let mut proof = #rt::OverflowProof::default();
            #transformer
            let transformed = #rt::overflow::Interval::new(#low, #top);
            for (stack, layers) in stacks.iter().enumerate() {
                let positional = layers.prove(stack, transformed, &mut proof #packed_arg);
                let psqt = psqt.get(stack).copied();
                let combine = #rt::overflow::layers::Combine::#combine;
                #rt::overflow::layers::evaluation(&mut proof, stack, psqt, positional, #scale, combine);
            }
            proof
        }

        impl LayerStack {
            /// The range of this stack's output when every transformer output
            /// lies in `input`; records each layer's bounds.
            fn prove(&self, stack: usize, input: #rt::overflow::Interval, proof: &mut #rt::OverflowProof #packed_param) -> #rt::overflow::Interval {
                let input = ::std::vec![input; TRANSFORMED];
                #(#steps)*
                #(#value_steps)*
                #output
            }
        }
    }
}

/// `name[index]` of a layer's output ranges.
fn element(arch: &Arch, layer: usize, index: usize) -> TokenStream {
    let name = ident(&arch.layers[layer].name);
    let index = int(index);
    quote!(#name[#index])
}

/// The ranges of a slice, as `&[Interval]`.
fn slice(slice: &Slice, arch: &Arch) -> TokenStream {
    let source = match slice.source {
        Source::Transformer => quote!(input),
        Source::Layer(i) => {
            let name = ident(&arch.layers[i].name);
            quote!(#name)
        }
    };
    let (start, end) = (int(slice.start), int(slice.start + slice.len));
    quote!(&#source[#start..#end])
}

/// One layer's output ranges, in a local of its name.
fn step(arch: &Arch, index: usize, layer: &nnue_spec::ir::Layer) -> TokenStream {
    let rt = runtime();
    let name = ident(&layer.name);
    let label = &layer.name;
    let input = || slice(&layer.inputs[0], arch);
    let value = match layer.kind {
        LayerKind::Affine { padded_inputs, .. } => {
            let (input, padded) = (input(), int(padded_inputs));
            // Where the layer reads activations the backend packs, its
            // weights and input ranges in the packs' order (the bytes left
            // out meet zero weights), as the kernel reads them.
            let packed_order = crate::stack::packed_orders(arch).into_iter().find(|(i, _)| *i == index);
            let (prelude, weights, input, decided) = match packed_order {
                Some((_, order)) => (
                    quote! {
                        let (weights, input) = if packed {
                            let order = #order;
                            (
                                #rt::kernels::layout::ordered_inputs(&self.#name.weights, #padded, &order),
                                #rt::kernels::layout::reorder(#input, &order, #rt::overflow::Interval::point(0)),
                            )
                        } else {
                            (self.#name.weights.to_vec(), (#input).to_vec())
                        };
                    },
                    quote!(&weights),
                    quote!(&input),
                    quote!(#rt::scalar::PairedSums::of(&weights, #padded)),
                ),
                None => (quote!(), quote!(&self.#name.weights), input, quote!(self.#name.paired)),
            };
            // The i16 sums of two chunks, where the loaded layer lets the
            // column kernel pair them.
            let paired = crate::targets::column_pairs(layer).map(|pairs| {
                quote!(#rt::overflow::layers::paired(proof, #label, stack, #weights, #padded, #rt::overflow::layers::ChunkPairs::#pairs, #decided);)
            });
            quote! {{
                #prelude
                #paired
                #rt::overflow::layers::affine(proof, #label, stack, &self.#name.biases, #weights, #padded, #input)
            }}
        }
        LayerKind::WideAffine { divisor } => {
            let (input, inputs, divisor) = (input(), int(layer.input_dimensions), lit(i64::from(divisor)));
            // Over an SCReLU of bytes the SIMD backends may multiply in 16
            // bits: those products are bounded too.
            let products = crate::stack::screlu_of_bytes(arch, layer).map(|(_, max)| {
                let max = lit(i64::from(max));
                quote!(#rt::overflow::layers::screlu_products(proof, #label, stack, &self.#name.weights, #inputs, #max);)
            });
            quote! {{
                #products
                #rt::overflow::layers::wide_affine(proof, #label, stack, &self.#name.biases, &self.#name.weights, #inputs, #divisor, #input)
            }}
        }
        LayerKind::SCReLU { max } => {
            let (input, max) = (input(), lit(i64::from(max)));
            quote!(#rt::overflow::layers::screlu(#input, #max))
        }
        LayerKind::ClippedReLU { shift, max } => {
            let (input, shift, max) = (input(), int(shift as usize), lit(i64::from(max)));
            quote!(#rt::overflow::layers::clipped_relu(#input, #shift, #max))
        }
        LayerKind::SqrClippedReLU { shift, max } => {
            let (input, shift, max) = (input(), int(shift as usize), lit(i64::from(max)));
            quote!(#rt::overflow::layers::sqr_clipped_relu(#input, #shift, #max))
        }
        LayerKind::Concat => {
            let parts = layer.inputs.iter().map(|s| slice(s, arch));
            quote!([#(#parts),*].concat())
        }
        // Float layers hold no integers; their conversion back to i32
        // saturates, so it can be anything in i32.
        LayerKind::FloatAffine { .. } | LayerKind::CReLU { .. } => return TokenStream::new(),
        LayerKind::ToFloat { .. } => {
            let input = input();
            return quote! { #rt::overflow::layers::to_float(proof, #label, stack, #input); };
        }
        LayerKind::ToInt { .. } => {
            let n = int(layer.output_dimensions);
            quote!(::std::vec![#rt::overflow::Int::I32.range(); #n])
        }
    };
    quote! { let #name = #value; }
}
