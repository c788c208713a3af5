//! A layer stack's output from its layers' outputs: the value (one output
//! or a wrapping sum of several, rescaled) and the skip term; in the
//! forward passes and in the overflow proof.

use crate::tokens::{ident, int, lit, runtime};
use nnue_spec::ir::{Arch, Rescale};
use nnue_spec::schema::ProductWidth;
use proc_macro2::TokenStream;
use quote::quote;

/// `name[index]` of a layer's output (its values, or their ranges).
fn element(arch: &Arch, layer: usize, index: usize) -> TokenStream {
    let name = ident(&arch.layers[layer].name);
    let index = int(index);
    quote!(#name[#index])
}

/// The output's value: one element, or the wrapping sum of several.
fn value_sum(arch: &Arch) -> TokenStream {
    let mut terms = arch.output.value.iter();
    let first = terms.next().expect("the output has a value");
    let mut sum = element(arch, first.element.layer, first.element.index);
    if first.subtract {
        sum = quote!(#sum.wrapping_neg());
    }
    for term in terms {
        let value = element(arch, term.element.layer, term.element.index);
        sum = if term.subtract { quote!(#sum.wrapping_sub(#value)) } else { quote!(#sum.wrapping_add(#value)) };
    }
    sum
}

/// The stack's output from the layers' locals: the value (a sum of
/// outputs, rescaled) and the skip term.
pub(crate) fn stack_result(arch: &Arch) -> TokenStream {
    let value = value_sum(arch);
    let value = match arch.output.rescale {
        None => value,
        Some(Rescale { multiply, divide, width: ProductWidth::I64 }) => {
            let (multiply, divide) = (lit(i64::from(multiply)), lit(i64::from(divide)));
            quote!((i64::from(#value) * #multiply / #divide) as i32)
        }
        Some(Rescale { multiply, divide, width: ProductWidth::I32 }) => {
            let (multiply, divide) = (lit(i64::from(multiply)), lit(i64::from(divide)));
            quote!(i32::wrapping_div(i32::wrapping_mul(#value, #multiply), #divide))
        }
    };
    match arch.output.forward {
        None => quote!(#value),
        Some(f) => {
            let input = element(arch, f.input.layer, f.input.index);
            let (multiply, divide) = (lit(i64::from(f.multiply)), lit(i64::from(f.divide)));
            quote! {
                let forward = (i64::from(#input) * #multiply / #divide) as i32;
                #value.wrapping_add(forward)
            }
        }
    }
}

/// The overflow proof's last statements in `LayerStack::prove`: the
/// stack's value, through locals when it is a sum or rescaled, and the
/// range of its output.
pub(crate) fn prove_result(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let mut value_steps = Vec::new();
    let mut value = match arch.output.value.as_slice() {
        [term] if !term.subtract => element(arch, term.element.layer, term.element.index),
        terms => {
            let terms = terms.iter().map(|t| {
                let (value, subtract) = (element(arch, t.element.layer, t.element.index), t.subtract);
                quote!((#value, #subtract))
            });
            value_steps.push(quote!(let value = #rt::overflow::layers::value_sum(proof, stack, &[#(#terms),*]);));
            quote!(value)
        }
    };
    if let Some(r) = arch.output.rescale {
        let (multiply, divide) = (lit(i64::from(r.multiply)), lit(i64::from(r.divide)));
        let wide = r.width == ProductWidth::I64;
        value_steps
            .push(quote!(let value = #rt::overflow::layers::rescale(proof, stack, #value, #multiply, #divide, #wide);));
        value = quote!(value);
    }
    let output = match arch.output.forward {
        None => quote!(#rt::overflow::layers::stack_output(proof, stack, #value)),
        Some(f) => {
            let input = element(arch, f.input.layer, f.input.index);
            let (multiply, divide) = (lit(i64::from(f.multiply)), lit(i64::from(f.divide)));
            quote!(#rt::overflow::layers::forward(proof, stack, #value, #input, #multiply, #divide))
        }
    };
    quote! {
        #(#value_steps)*
        #output
    }
}
