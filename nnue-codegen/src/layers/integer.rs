//! `Clamp`, `ShiftRight`, `ShiftLeft` and `Square`: one i32 value to one
//! i32 value (`runtime::scalar::clamp`, `shift_right`, `shift_left`,
//! `square`; every backend runs them).

use super::common::{At, LayerGen, Step};
use crate::tokens::{i32, int, lit, runtime};
use nnue_spec::ir::IntegerOp;
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct Integer {
    pub op: IntegerOp,
}

impl LayerGen for Integer {
    fn describe(&self) -> &'static str {
        match self.op {
            IntegerOp::Clamp { .. } => "Clamp (i32)",
            IntegerOp::ShiftRight(_) => "ShiftRight (i32, arithmetic)",
            IntegerOp::ShiftLeft(_) => "ShiftLeft (i32, wrapping)",
            IntegerOp::Square => "Square (i32, wrapping)",
        }
    }

    fn forward(&self, step: &Step) -> TokenStream {
        let (rt, name, n) = (runtime(), step.at.name(), step.at.outputs());
        let input = step.input();
        let call = match self.op {
            IntegerOp::Clamp { min, max } => {
                let (min, max) = (i32(min), i32(max));
                quote!(#rt::scalar::clamp(#input, #min, #max, &mut #name))
            }
            IntegerOp::ShiftRight(by) => {
                let by = int(by as usize);
                quote!(#rt::scalar::shift_right(#input, #by, &mut #name))
            }
            IntegerOp::ShiftLeft(by) => {
                let by = int(by as usize);
                quote!(#rt::scalar::shift_left(#input, #by, &mut #name))
            }
            IntegerOp::Square => quote!(#rt::scalar::square(#input, &mut #name)),
        };
        quote! {
            let mut #name = [0i32; #n];
            #call;
        }
    }

    fn prove(&self, at: &At) -> TokenStream {
        let (rt, name, label) = (runtime(), at.name(), &at.layer.name);
        let input = at.input_ranges();
        let value = match self.op {
            IntegerOp::Clamp { min, max } => {
                let (min, max) = (lit(i64::from(min)), lit(i64::from(max)));
                quote!(#rt::overflow::layers::clamp(#input, #min, #max))
            }
            IntegerOp::ShiftRight(by) => {
                let by = int(by as usize);
                quote!(#rt::overflow::layers::shift_right(#input, #by))
            }
            IntegerOp::ShiftLeft(by) => {
                let by = int(by as usize);
                quote!(#rt::overflow::layers::shift_left(proof, #label, stack, #input, #by))
            }
            IntegerOp::Square => quote!(#rt::overflow::layers::square(proof, #label, stack, #input)),
        };
        quote! { let #name = #value; }
    }

    fn output_top(&self) -> i64 {
        match self.op {
            IntegerOp::Clamp { max, .. } => i64::from(max).max(1),
            _ => 1 << 16,
        }
    }
}
