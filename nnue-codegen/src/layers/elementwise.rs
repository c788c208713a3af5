//! `Multiply` and `Add`: two f32 inputs of one length combined value by
//! value (`runtime::scalar::multiply`, `add`).

use super::common::{At, LayerGen, Step};
use crate::tokens::runtime;
use nnue_spec::ir::ElementwiseOp;
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct Elementwise {
    pub op: ElementwiseOp,
}

impl LayerGen for Elementwise {
    fn describe(&self) -> &'static str {
        match self.op {
            ElementwiseOp::Multiply => "Multiply (f32, value by value)",
            ElementwiseOp::Add => "Add (f32, value by value)",
        }
    }

    fn forward(&self, step: &Step) -> TokenStream {
        let (rt, name, n) = (runtime(), step.at.name(), step.at.outputs());
        let (a, b) = (step.slice(&step.at.layer.inputs[0]), step.slice(&step.at.layer.inputs[1]));
        let op = match self.op {
            ElementwiseOp::Multiply => quote!(multiply),
            ElementwiseOp::Add => quote!(add),
        };
        quote! {
            let mut #name = [0f32; #n];
            #rt::scalar::#op(#a, #b, &mut #name);
        }
    }

    /// Float layers hold no integers: nothing to bound.
    fn prove(&self, _at: &At) -> TokenStream {
        TokenStream::new()
    }
}
