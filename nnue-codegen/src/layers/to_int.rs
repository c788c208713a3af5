//! `ToInt`: `(x * multiply) as i32`, truncating (`runtime::scalar::to_int`).

use super::common::{At, LayerGen, Step};
use crate::tokens::runtime;
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct ToInt {
    pub multiply: f32,
}

impl LayerGen for ToInt {
    fn describe(&self) -> &'static str {
        "ToInt"
    }

    fn forward(&self, step: &Step) -> TokenStream {
        let (rt, name, n, multiply) = (runtime(), step.at.name(), step.at.outputs(), self.multiply);
        let input = step.input();
        quote! {
            let mut #name = [0i32; #n];
            #rt::scalar::to_int(#input, #multiply, &mut #name);
        }
    }

    /// The conversion saturates: its values can be anything in i32.
    fn prove(&self, at: &At) -> TokenStream {
        let (rt, name, n) = (runtime(), at.name(), at.outputs());
        let value = quote!(::std::vec![#rt::overflow::Int::I32.range(); #n]);
        quote! { let #name = #value; }
    }
}
