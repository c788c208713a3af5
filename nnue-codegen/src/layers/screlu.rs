//! `SCReLU`: `clamp(x, 0, max)^2`, to i32 (`runtime::scalar::screlu`).
//! Over bytes, SIMD targets fuse it into the i16-weight layer reading it
//! (see `wide_affine`); before a `ToFloat`, into the f32 layer (see
//! `float_affine`, which computes it value by value: [`per_value`]).

use super::common::{At, LayerGen, Step};
use crate::tokens::{i32, lit, runtime};
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct SCReLU {
    pub max: i32,
}

impl LayerGen for SCReLU {
    fn describe(&self) -> &'static str {
        "SCReLU"
    }

    fn forward(&self, step: &Step) -> TokenStream {
        let (rt, name, n) = (runtime(), step.at.name(), step.at.outputs());
        let (input, max) = (step.input(), i32(self.max));
        quote! {
            let mut #name = [0i32; #n];
            #rt::scalar::screlu(#input, #max, &mut #name);
        }
    }

    fn prove(&self, at: &At) -> TokenStream {
        let (rt, name) = (runtime(), at.name());
        let (input, max) = (at.input_ranges(), lit(i64::from(self.max)));
        let value = quote!(#rt::overflow::layers::screlu(#input, #max));
        quote! { let #name = #value; }
    }

    fn output_top(&self) -> i64 {
        i64::from(self.max) * i64::from(self.max)
    }
}

/// The layer on one value `x` (an i32), in a closure's statements.
pub(crate) fn per_value(x: TokenStream, max: i32) -> TokenStream {
    let max = i32(max);
    quote! {
        let x = #x.clamp(0, #max);
        let x = x * x;
    }
}
