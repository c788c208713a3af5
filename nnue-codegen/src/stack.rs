//! One layer stack: its parameters, how they are read, and its forward pass
//! written out layer by layer.

use crate::tokens::{doc, i32, ident, int, runtime};
use nnue_spec::ir::{Arch, Layer, LayerKind, Slice, Source};
use proc_macro2::TokenStream;
use quote::quote;

pub fn generate(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let affine: Vec<&Layer> = arch.layers.iter().filter(|l| matches!(l.kind, LayerKind::Affine { .. })).collect();
    let fields = affine.iter().map(|l| {
        let name = ident(&l.name);
        let LayerKind::Affine { padded_inputs, .. } = l.kind else { unreachable!() };
        let (inputs, padded, outputs) = (int(l.input_dimensions), int(padded_inputs), int(l.output_dimensions));
        let doc = doc(&format!("`{}`: {} inputs (rows padded to {}) -> {} outputs.", l.name, l.input_dimensions, padded_inputs, l.output_dimensions));
        quote! {
            #doc
            pub #name: #rt::scalar::Affine<#inputs, #padded, #outputs>
        }
    });
    let reads = affine.iter().map(|l| {
        let name = ident(&l.name);
        let what = format!("layer stack {{stack}} {}", l.name);
        quote! { #name: #rt::scalar::Affine::read(r, &::std::format!(#what))? }
    });
    let padding = affine.iter().map(|l| {
        let name = ident(&l.name);
        quote!(self.#name.nonzero_padding())
    });
    let steps = arch.layers.iter().map(|layer| layer_step(arch, layer));
    let value = element(arch, arch.output.value.layer, arch.output.value.index);
    let result = match arch.output.forward {
        None => quote!(#value),
        Some(f) => {
            let input = element(arch, f.input.layer, f.input.index);
            let (multiply, divide) = (i32(f.multiply), i32(f.divide));
            quote! {
                // The skip connection.
                let forward = #input.wrapping_mul(#multiply) / #divide;
                #value.wrapping_add(forward)
            }
        }
    };
    quote! {
        /// The parameters of one layer stack.
        pub struct LayerStack {
            #(#fields,)*
        }

        impl LayerStack {
            /// Reads stack number `stack`: its hash word, then each affine
            /// layer's biases and weights.
            fn read(r: &mut #rt::NetReader<'_>, stack: usize) -> ::core::result::Result<Self, #rt::LoadError> {
                r.expect_hash(&::std::format!("layer stack {stack} hash"), LAYER_STACK_HASH)?;
                ::core::result::Result::Ok(LayerStack { #(#reads,)* })
            }

            /// Non-zero weights in the padding columns of this stack's layers.
            pub fn nonzero_padding(&self) -> usize {
                #(#padding)+*
            }

            /// The stack's output for the transformer's output `input`.
            pub fn propagate(&self, input: &[u8; TRANSFORMED]) -> i32 {
                #(#steps)*
                #result
            }
        }
    }
}

/// `name[index]` of a layer's output.
fn element(arch: &Arch, layer: usize, index: usize) -> TokenStream {
    let name = ident(&arch.layers[layer].name);
    let index = int(index);
    quote!(#name[#index])
}

/// An expression of type `&[T; len]` for a slice.
fn slice_ref(slice: &Slice, full_len: usize, layers: &[Layer]) -> TokenStream {
    let rt = runtime();
    let (source, len) = match slice.source {
        Source::Transformer => (quote!(input), full_len),
        Source::Layer(i) => {
            let name = ident(&layers[i].name);
            (quote!(&#name), layers[i].output_dimensions)
        }
    };
    if slice.start == 0 && slice.len == len {
        source
    } else {
        let (start, n) = (int(slice.start), int(slice.len));
        quote!(#rt::sub::<_, #n>(#source, #start))
    }
}

/// The statements computing one layer's output into a local of its name.
fn layer_step(arch: &Arch, layer: &Layer) -> TokenStream {
    let rt = runtime();
    let name = ident(&layer.name);
    let n = int(layer.output_dimensions);
    let input = || slice_ref(&layer.inputs[0], arch.transformer.output_dimensions, &arch.layers);
    match layer.kind {
        LayerKind::Affine { .. } => {
            let input = input();
            quote! {
                let mut #name = [0i32; #n];
                self.#name.propagate(#input, &mut #name);
            }
        }
        LayerKind::ClippedReLU { shift, max } => {
            let (input, shift, max) = (input(), int(shift as usize), i32(max));
            quote! {
                let mut #name = [0u8; #n];
                #rt::scalar::clipped_relu(#input, #shift, #max, &mut #name);
            }
        }
        LayerKind::SqrClippedReLU { shift, max } => {
            let (input, shift, max) = (input(), int(shift as usize), i32(max));
            quote! {
                let mut #name = [0u8; #n];
                #rt::scalar::sqr_clipped_relu(#input, #shift, #max, &mut #name);
            }
        }
        LayerKind::Concat => {
            let mut at = 0;
            let copies = layer.inputs.iter().map(|slice| {
                let (from, to) = (int(at), int(at + slice.len));
                at += slice.len;
                let source = slice_ref(slice, arch.transformer.output_dimensions, &arch.layers);
                quote! { #name[#from..#to].copy_from_slice(#source); }
            });
            quote! {
                let mut #name = [0u8; #n];
                #(#copies)*
            }
        }
    }
}
