//! `Affine(.., weight: I32)`: i32 weights on i32 inputs, i32 biases, in
//! wrapping i32 arithmetic (`runtime::params::I32Affine`; every backend
//! runs its one loop).

use super::common::{At, LayerGen, Params, Step};
use crate::tokens::{doc, int, runtime};
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct I32Affine;

impl LayerGen for I32Affine {
    fn describe(&self) -> &'static str {
        "Affine (i32 weights, wrapping)"
    }

    fn field(&self, at: &At) -> Option<TokenStream> {
        let (rt, l, name) = (runtime(), at.layer, at.name());
        let (inputs, outputs) = (int(l.input_dimensions), int(l.output_dimensions));
        let doc = doc(&format!(
            "`{}`: {} inputs -> {} outputs, i32 weights.",
            l.name, l.input_dimensions, l.output_dimensions
        ));
        Some(quote! {
            #doc
            #name: #rt::params::I32Affine<#inputs, #outputs>
        })
    }

    fn params(&self) -> Option<Params> {
        let rt = runtime();
        Some(Params {
            ty: quote!(#rt::params::I32Affine),
            weight: Some(quote!(i32)),
            bias: quote!(i32),
            zero: quote!(0),
        })
    }

    fn forward(&self, step: &Step) -> TokenStream {
        let (name, n) = (step.at.name(), step.at.outputs());
        let input = step.input();
        quote! {
            let mut #name = [0i32; #n];
            stack.#name.propagate(#input, &mut #name);
        }
    }

    fn prove(&self, at: &At) -> TokenStream {
        let (rt, name, label) = (runtime(), at.name(), &at.layer.name);
        let input = at.input_ranges();
        quote! {
            let #name = #rt::overflow::layers::i32_affine(proof, #label, stack, &self.#name.biases, &self.#name.weights, #input);
        }
    }
}
