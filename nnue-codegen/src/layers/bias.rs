//! `Bias`: `x + bias`, wrapping, one i32 bias per value
//! (`runtime::params::Bias`): an integer layer's biases added after its
//! sum was shifted.

use super::common::{At, LayerGen, Params, Step};
use crate::tokens::{doc, int, runtime};
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct Bias;

impl LayerGen for Bias {
    fn describe(&self) -> &'static str {
        "Bias (i32, wrapping)"
    }

    fn field(&self, at: &At) -> Option<TokenStream> {
        let (rt, l, name) = (runtime(), at.layer, at.name());
        let doc = doc(&format!("`{}`: {} i32 biases.", l.name, l.output_dimensions));
        let n = int(l.output_dimensions);
        Some(quote! {
            #doc
            #name: #rt::params::Bias<#n>
        })
    }

    fn params(&self) -> Option<Params> {
        let rt = runtime();
        Some(Params { ty: quote!(#rt::params::Bias), weight: None, bias: quote!(i32), zero: quote!(0) })
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
        let (rt, name, label, input) = (runtime(), at.name(), &at.layer.name, at.input_ranges());
        quote! { let #name = #rt::overflow::layers::bias(proof, #label, stack, &self.#name.biases[..], #input); }
    }
}
