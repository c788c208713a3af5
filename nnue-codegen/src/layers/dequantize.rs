//! `Dequantize`: `fma(x as f32, multiply, bias)`, i32 -> f32, with f32
//! biases (`runtime::params::Dequantize`): an integer layer's sums turned
//! into a float layer's values in one rounding.

use super::common::{At, LayerGen, Params, Step};
use crate::tokens::{doc, int, runtime};
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct Dequantize {
    pub multiply: f32,
}

impl LayerGen for Dequantize {
    fn describe(&self) -> &'static str {
        "Dequantize (fused multiply-add of f32 biases)"
    }

    fn field(&self, at: &At) -> Option<TokenStream> {
        let (rt, l, name) = (runtime(), at.layer, at.name());
        let doc = doc(&format!("`{}`: {} f32 biases.", l.name, l.output_dimensions));
        let n = int(l.output_dimensions);
        Some(quote! {
            #doc
            #name: #rt::params::Dequantize<#n>
        })
    }

    fn params(&self) -> Option<Params> {
        let rt = runtime();
        Some(Params { ty: quote!(#rt::params::Dequantize), weight: None, bias: quote!(f32), zero: quote!(0.0) })
    }

    fn forward(&self, step: &Step) -> TokenStream {
        let (name, n, multiply) = (step.at.name(), step.at.outputs(), self.multiply);
        let input = step.input();
        quote! {
            let mut #name = [0f32; #n];
            stack.#name.propagate(#input, #multiply, &mut #name);
        }
    }

    /// The range of the integers it converts is recorded, as `ToFloat`'s;
    /// its f32 values are not bounded.
    fn prove(&self, at: &At) -> TokenStream {
        let (rt, label, input) = (runtime(), &at.layer.name, at.input_ranges());
        quote! { #rt::overflow::layers::to_float(proof, #label, stack, #input); }
    }
}
