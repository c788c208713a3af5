//! `FloatAffine`: f32 weights and biases (`runtime::params::FloatAffine`),
//! summed in the order the file gives (`SumOrder`). Summed in input order
//! with rounded products (`Sequential`), on SIMD targets it converts its
//! input as it reads it: the `ToFloat` (and `SCReLU`) right before it are
//! fused into it ([`float_input_chain`]).

use super::common::{At, LayerGen, Params, Step, read_once};
use super::{screlu, to_float};
use crate::targets::Target;
use crate::tokens::{doc, int, runtime};
use nnue_spec::ir::{LayerKind, Slice, Source, SumOrder};
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct FloatAffine {
    pub order: SumOrder,
}

impl LayerGen for FloatAffine {
    fn describe(&self) -> &'static str {
        match self.order {
            SumOrder::Sequential => "Affine (f32, summed in input order)",
            SumOrder::Fused => "Affine (f32, fused multiply-adds in input order)",
            SumOrder::FusedLanes(_) => "Affine (f32, fused multiply-adds into lanes, halved, then the bias)",
        }
    }

    fn field(&self, at: &At) -> Option<TokenStream> {
        let (rt, l, name) = (runtime(), at.layer, at.name());
        let (inputs, outputs) = (int(l.input_dimensions), int(l.output_dimensions));
        let doc = doc(&format!("`{}`: {} inputs -> {} outputs, f32.", l.name, l.input_dimensions, l.output_dimensions));
        Some(quote! {
            #doc
            #name: #rt::params::FloatAffine<#inputs, #outputs>
        })
    }

    fn params(&self) -> Option<Params> {
        let rt = runtime();
        Some(Params {
            ty: quote!(#rt::params::FloatAffine),
            weight: Some(quote!(f32)),
            bias: quote!(f32),
            zero: quote!(0.0),
        })
    }

    fn fuses(&self, at: &At, _target: &Target) -> Vec<usize> {
        float_input_chain(at)
    }

    fn forward(&self, step: &Step) -> TokenStream {
        let (arch, name, n) = (step.at.arch, step.at.name(), step.at.outputs());
        match (step.target, &float_input_chain(&step.at)[..]) {
            (Some(_), chain @ [first, ..]) => {
                // Each input converted as it is read; the converting
                // layers' values are computed for the trace only.
                let source = step.slice(&arch.layers[*first].inputs[0]);
                // `x` as an i32: the source's values widened, an SCReLU's as they are.
                let widened =
                    |is_i32: bool| if is_i32 { quote!(x) } else { quote!(::core::convert::Into::<i32>::into(x)) };
                let (mut steps, mut is_i32) = (Vec::new(), false);
                for &i in chain {
                    let x = widened(is_i32);
                    steps.push(match arch.layers[i].kind {
                        LayerKind::SCReLU { max } => screlu::per_value(x, max),
                        // Always the last: the closure's value.
                        LayerKind::ToFloat { divisor } => to_float::per_value(x, divisor),
                        _ => unreachable!("float_input_chain holds SCReLU and ToFloat layers"),
                    });
                    is_i32 = matches!(arch.layers[i].kind, LayerKind::SCReLU { .. });
                }
                let traced = &step.fused;
                let first_input = &arch.layers[*first].inputs[0];
                let whole_transformer = first_input.source == Source::Transformer
                    && first_input.start == 0
                    && first_input.len == arch.transformer.output_dimensions;
                let call = if step.halves && whole_transformer {
                    quote! {
                        stack.#name.propagate_mapped_halves(
                            first,
                            second,
                            |x| {
                                #(#steps)*
                            },
                            &mut #name,
                        );
                    }
                } else {
                    quote! {
                        stack.#name.propagate_mapped(
                            #source,
                            |x| {
                                #(#steps)*
                            },
                            &mut #name,
                        );
                    }
                };
                quote! {
                    let mut #name = [0f32; #n];
                    #call
                    #(#traced)*
                }
            }
            _ => {
                let input = step.input();
                let call = match self.order {
                    SumOrder::Sequential => quote!(propagate),
                    SumOrder::Fused => quote!(propagate_fused),
                    SumOrder::FusedLanes(lanes) => {
                        let lanes = int(lanes);
                        quote!(propagate_fused_lanes::<#lanes>)
                    }
                };
                quote! {
                    let mut #name = [0f32; #n];
                    stack.#name.#call(#input, &mut #name);
                }
            }
        }
    }

    /// Float layers hold no integers: nothing to bound.
    fn prove(&self, _at: &At) -> TokenStream {
        TokenStream::new()
    }
}

/// For an f32 affine layer summed in input order (on a SIMD target): the
/// layers right before it that only turn integers into its inputs, one
/// value at a time, and that it computes as it reads them: a `ToFloat`
/// reading all of an `SCReLU`, or a `ToFloat` alone (each read by the next
/// layer only).
/// Their indices, the first first; empty when there are none.
pub(crate) fn float_input_chain(at: &At) -> Vec<usize> {
    let (arch, layer, index) = (at.arch, at.layer, at.index);
    let whole = |slice: &Slice, i: usize| {
        slice.source == Source::Layer(i) && slice.start == 0 && slice.len == arch.layers[i].output_dimensions
    };
    if !matches!(layer.kind, LayerKind::FloatAffine { order: SumOrder::Sequential }) || index == 0 {
        return Vec::new();
    }
    let t = index - 1;
    if !(matches!(arch.layers[t].kind, LayerKind::ToFloat { .. }) && whole(&layer.inputs[0], t) && read_once(arch, t)) {
        return Vec::new();
    }
    match t.checked_sub(1) {
        Some(s)
            if matches!(arch.layers[s].kind, LayerKind::SCReLU { .. })
                && whole(&arch.layers[t].inputs[0], s)
                && read_once(arch, s) =>
        {
            vec![s, t]
        }
        _ => vec![t],
    }
}
