//! `ClippedReLU`: `clamp(x >> shift, 0, max)` into bytes
//! (`runtime::scalar::clipped_relu`; SIMD targets' `cpu.clipped_relu`
//! where their kernel takes it, [`LayerGen::simd_activation`]).

use super::common::{At, LayerGen, Step};
use crate::targets::Target;
use crate::tokens::{i32, int, lit, runtime};
use nnue_spec::ir::Layer;
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct ClippedReLU {
    pub shift: u32,
    pub max: i32,
}

impl LayerGen for ClippedReLU {
    fn describe(&self) -> &'static str {
        "ClippedReLU"
    }

    fn forward(&self, step: &Step) -> TokenStream {
        let (rt, name, n) = (runtime(), step.at.name(), step.at.outputs());
        let input = step.input();
        let call = match step.target {
            Some(_) if self.simd_activation(step.at.layer).is_some() => {
                let (shift, max) = (lit(i64::from(self.shift)), lit(i64::from(self.max)));
                quote!(cpu.clipped_relu::<#n, #shift>(#input, #max, &mut #name))
            }
            _ => {
                let (shift, max) = (int(self.shift as usize), i32(self.max));
                quote!(#rt::scalar::clipped_relu(#input, #shift, #max, &mut #name))
            }
        };
        quote! {
            let mut #name = [0u8; #n];
            #call;
        }
    }

    fn uses_token(&self, at: &At, _target: &Target) -> bool {
        self.simd_activation(at.layer).is_some()
    }

    /// Widths in steps of 8, bytes of at most 127.
    fn simd_activation(&self, layer: &Layer) -> Option<TokenStream> {
        let rt = runtime();
        let (shift, max) = (lit(i64::from(self.shift)), lit(i64::from(self.max)));
        (layer.output_dimensions.is_multiple_of(8) && self.max <= 127)
            .then(|| quote!(#rt::simd::Activation::Clipped { shift: #shift, max: #max }))
    }

    fn prove(&self, at: &At) -> TokenStream {
        let (rt, name) = (runtime(), at.name());
        let (input, shift, max) = (at.input_ranges(), int(self.shift as usize), lit(i64::from(self.max)));
        let value = quote!(#rt::overflow::layers::clipped_relu(#input, #shift, #max));
        quote! { let #name = #value; }
    }

    fn output_top(&self) -> i64 {
        i64::from(self.max)
    }
}
