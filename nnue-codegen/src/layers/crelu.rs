//! `CReLU`: `clamp(x, 0, max)` in f32 (`runtime::scalar::crelu_f32`).

use super::common::{At, LayerGen, Step};
use crate::tokens::runtime;
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct CReLU {
    pub max: f32,
}

impl LayerGen for CReLU {
    fn describe(&self) -> &'static str {
        "CReLU (f32)"
    }

    fn forward(&self, step: &Step) -> TokenStream {
        let (rt, name, n, max) = (runtime(), step.at.name(), step.at.outputs(), self.max);
        let input = step.input();
        quote! {
            let mut #name = [0f32; #n];
            #rt::scalar::crelu_f32(#input, #max, &mut #name);
        }
    }

    /// Float layers hold no integers: nothing to bound.
    fn prove(&self, _at: &At) -> TokenStream {
        TokenStream::new()
    }
}
