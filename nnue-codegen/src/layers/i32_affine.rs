//! `Affine(.., weight: I32)`: i32 weights on i32 inputs, i32 biases, in
//! wrapping i32 arithmetic (`runtime::params::I32Affine`). SIMD targets
//! multiply in 16 bits where the weights and inputs fit
//! (`runtime::kernels::i32_affine_pairs`, the same sums).

use super::common::{At, LayerGen, Params, Step};
use crate::targets::Target;
use crate::tokens::{doc, int, runtime};
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct I32Affine;

impl LayerGen for I32Affine {
    fn describe(&self) -> &'static str {
        "Affine (i32 weights, wrapping)"
    }

    fn field(&self, at: &At) -> Option<TokenStream> {
        let (rt, l, name) = (runtime(), at.layer, at.name());
        let (inputs, outputs) = (int(l.input_dimensions), int(l.output_dimensions));
        let doc = doc(&format!(
            "`{}`: {} inputs -> {} outputs, i32 weights.",
            l.name, l.input_dimensions, l.output_dimensions
        ));
        Some(quote! {
            #doc
            #name: #rt::params::I32Affine<#inputs, #outputs>
        })
    }

    fn params(&self) -> Option<Params> {
        let rt = runtime();
        Some(Params {
            ty: quote!(#rt::params::I32Affine),
            weight: Some(quote!(i32)),
            bias: quote!(i32),
            zero: quote!(0),
        })
    }

    fn forward(&self, step: &Step) -> TokenStream {
        let (name, n) = (step.at.name(), step.at.outputs());
        let input = step.input();
        let (inputs, outputs) = (int(step.at.layer.input_dimensions), step.at.layer.output_dimensions);
        let propagate = match step.target {
            Some(target) if simd(&step.at, target) => {
                let regs = int(outputs / target.dot_lanes);
                // In 16-bit multiplies where the weights (on loading) and
                // the inputs (here) fit; the 32-bit loop otherwise.
                quote! {
                    if !cpu.i32_affine_pairs::<#inputs, #n, #regs>(&stack.#name.biases, &stack.#name.pairs, #input, &mut #name) {
                        stack.#name.propagate(#input, &mut #name);
                    }
                }
            }
            _ => quote!(stack.#name.propagate(#input, &mut #name);),
        };
        quote! {
            let mut #name = [0i32; #n];
            #propagate
        }
    }

    fn uses_token(&self, at: &At, target: &Target) -> bool {
        simd(at, target)
    }

    fn prove(&self, at: &At) -> TokenStream {
        let (rt, name, label) = (runtime(), at.name(), &at.layer.name);
        let input = at.input_ranges();
        quote! {
            let #name = #rt::overflow::layers::i32_affine(proof, #label, stack, &self.#name.biases, &self.#name.weights, #input);
        }
    }
}

/// Whether `target` runs the layer `at` with its `i32_affine_pairs` kernel: its
/// outputs fill whole registers, at most 16 of them.
fn simd(at: &At, target: &Target) -> bool {
    let outputs = at.layer.output_dimensions;
    outputs.is_multiple_of(target.dot_lanes) && outputs / target.dot_lanes <= 16
}
