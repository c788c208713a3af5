//! `Multiply` and `Add`: two f32 inputs of one length combined value by
//! value (`runtime::scalar::multiply`, `add`), or two i32 inputs added
//! with wrapping (`runtime::scalar::add_wrapping`).

use super::common::{At, LayerGen, Step};
use crate::tokens::runtime;
use nnue_spec::ir::{ElementwiseOp, ValueType};
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct Elementwise {
    pub op: ElementwiseOp,
}

impl LayerGen for Elementwise {
    fn describe(&self) -> &'static str {
        match self.op {
            ElementwiseOp::Multiply => "Multiply (f32, value by value)",
            ElementwiseOp::Add => "Add (value by value)",
        }
    }

    fn forward(&self, step: &Step) -> TokenStream {
        let (rt, name, n) = (runtime(), step.at.name(), step.at.outputs());
        let (a, b) = (step.slice(&step.at.layer.inputs[0]), step.slice(&step.at.layer.inputs[1]));
        if step.at.layer.output_type == ValueType::I32 {
            return quote! {
                let mut #name = [0i32; #n];
                #rt::scalar::add_wrapping(#a, #b, &mut #name);
            };
        }
        let op = match self.op {
            ElementwiseOp::Multiply => quote!(multiply),
            ElementwiseOp::Add => quote!(add),
        };
        quote! {
            let mut #name = [0f32; #n];
            #rt::scalar::#op(#a, #b, &mut #name);
        }
    }

    /// The wrapping sums of i32 values are bounded; float layers hold no
    /// integers.
    fn prove(&self, at: &At) -> TokenStream {
        if at.layer.output_type != ValueType::I32 {
            return TokenStream::new();
        }
        let (rt, name, label) = (runtime(), at.name(), &at.layer.name);
        let (a, b) =
            (super::common::ranges(&at.layer.inputs[0], at.arch), super::common::ranges(&at.layer.inputs[1], at.arch));
        quote! { let #name = #rt::overflow::layers::add(proof, #label, stack, #a, #b); }
    }
}
