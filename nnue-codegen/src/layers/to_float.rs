//! `ToFloat`: `x as f32 / divisor` (`runtime::scalar::to_float`). Before an
//! f32 affine layer, SIMD targets fuse it into that layer (see
//! `float_affine`, which computes it value by value: [`per_value`]).

use super::common::{At, LayerGen, Step};
use crate::tokens::runtime;
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct ToFloat {
    pub divisor: f32,
}

impl LayerGen for ToFloat {
    fn describe(&self) -> &'static str {
        "ToFloat"
    }

    fn forward(&self, step: &Step) -> TokenStream {
        let (rt, name, n, divisor) = (runtime(), step.at.name(), step.at.outputs(), self.divisor);
        let input = step.input();
        quote! {
            let mut #name = [0f32; #n];
            #rt::scalar::to_float(#input, #divisor, &mut #name);
        }
    }

    /// The range of the integers it converts is recorded (exact in f32
    /// within ±2^24); its f32 values are not bounded.
    fn prove(&self, at: &At) -> TokenStream {
        let (rt, label, input) = (runtime(), &at.layer.name, at.input_ranges());
        quote! { #rt::overflow::layers::to_float(proof, #label, stack, #input); }
    }
}

/// The layer on one value `x` (an i32): the closure's value.
pub(crate) fn per_value(x: TokenStream, divisor: f32) -> TokenStream {
    quote!(#x as f32 / #divisor)
}
