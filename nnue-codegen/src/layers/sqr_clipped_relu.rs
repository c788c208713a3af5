//! `SqrClippedReLU`: `min(x^2 >> shift, max)` into bytes
//! (`runtime::scalar::sqr_clipped_relu`; SIMD targets'
//! `cpu.sqr_clipped_relu` where their kernel takes it,
//! [`LayerGen::simd_activation`]).

use super::common::{At, LayerGen, Step};
use crate::targets::Target;
use crate::tokens::{i32, int, lit, runtime};
use nnue_spec::ir::Layer;
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct SqrClippedReLU {
    pub shift: u32,
    pub max: i32,
}

impl LayerGen for SqrClippedReLU {
    fn describe(&self) -> &'static str {
        "SqrClippedReLU"
    }

    fn forward(&self, step: &Step) -> TokenStream {
        let (rt, name, n) = (runtime(), step.at.name(), step.at.outputs());
        let input = step.input();
        let call = match step.target {
            Some(_) if self.simd_activation(step.at.layer).is_some() => {
                let (after, max) = (lit(i64::from(self.shift) - 16), lit(i64::from(self.max)));
                quote!(cpu.sqr_clipped_relu::<#n, #after>(#input, #max, &mut #name))
            }
            _ => {
                let (shift, max) = (int(self.shift as usize), i32(self.max));
                quote!(#rt::scalar::sqr_clipped_relu(#input, #shift, #max, &mut #name))
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

    /// Widths in steps of 8, bytes of at most 127, and a shift its 16-bit
    /// high product can take.
    fn simd_activation(&self, layer: &Layer) -> Option<TokenStream> {
        let rt = runtime();
        let (shift, max) = (self.shift, self.max);
        let fits = layer.output_dimensions.is_multiple_of(8)
            && max <= 127
            && (16..=31).contains(&shift)
            && (32767i64 * 32767) >> shift >= i64::from(max);
        let (after, max) = (lit(i64::from(shift) - 16), lit(i64::from(max)));
        fits.then(|| quote!(#rt::simd::Activation::Square { shift_after_16: #after, max: #max }))
    }

    fn prove(&self, at: &At) -> TokenStream {
        let (rt, name) = (runtime(), at.name());
        let (input, shift, max) = (at.input_ranges(), int(self.shift as usize), lit(i64::from(self.max)));
        let value = quote!(#rt::overflow::layers::sqr_clipped_relu(#input, #shift, #max));
        quote! { let #name = #value; }
    }

    fn output_top(&self) -> i64 {
        i64::from(self.max)
    }
}
