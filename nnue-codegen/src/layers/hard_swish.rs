//! `HardSwish`: `(x * clamp(x + 3, 0, 6)) * (1 / 6)` in f32
//! (`runtime::scalar::hard_swish`).

use super::common::{At, LayerGen, Step};
use crate::tokens::runtime;
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct HardSwish;

impl LayerGen for HardSwish {
    fn describe(&self) -> &'static str {
        "HardSwish (f32)"
    }

    fn forward(&self, step: &Step) -> TokenStream {
        let (rt, name, n) = (runtime(), step.at.name(), step.at.outputs());
        let input = step.input();
        quote! {
            let mut #name = [0f32; #n];
            #rt::scalar::hard_swish(#input, &mut #name);
        }
    }

    /// Float layers hold no integers: nothing to bound.
    fn prove(&self, _at: &At) -> TokenStream {
        TokenStream::new()
    }
}
