//! `Concat`: slices of earlier outputs, one after the other, into bytes.
//! SIMD targets join two outputs of 16 bytes in registers
//! ([`joined_in_registers`]), into a zero-padded local of 32.

use super::common::{At, LayerGen, Step};
use crate::targets::Target;
use crate::tokens::{ident, int, lit, runtime};
use nnue_spec::ir::{Arch, Layer, LayerKind, Slice, Source, ValueType};
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct Concat;

impl LayerGen for Concat {
    fn describe(&self) -> &'static str {
        "Concat"
    }

    fn forward(&self, step: &Step) -> TokenStream {
        let (rt, arch, layer) = (runtime(), step.at.arch, step.at.layer);
        let (name, n) = (step.at.name(), step.at.outputs());
        match joined_in_registers(arch, layer, step.target) {
            Some((la, lb)) => {
                // Both sources whole: `join_16` takes the first `la` and `lb` values.
                let whole = |slice: &Slice| match slice.source {
                    Source::Layer(i) => ident(&arch.layers[i].name),
                    Source::Transformer => unreachable!("joined_in_registers takes layer outputs only"),
                };
                let (a, b) = (whole(&layer.inputs[0]), whole(&layer.inputs[1]));
                let (la, shr, lb) = (lit(la as i64), lit(16 - la as i64), int(lb));
                let simd = ident(step.target.expect("joined_in_registers needs a target").simd);
                quote! {
                    let #name = #rt::simd::#simd::join_16::<#la, #shr, #lb>(&#a, &#b);
                }
            }
            None => {
                let mut at = 0;
                let copies = layer.inputs.iter().map(|slice| {
                    let (from, to) = (int(at), int(at + slice.len));
                    at += slice.len;
                    let source = step.slice(slice);
                    quote! { #name[#from..#to].copy_from_slice(#source); }
                });
                let zero = if layer.output_type == ValueType::I32 { quote!(0i32) } else { quote!(0u8) };
                quote! {
                    let mut #name = [#zero; #n];
                    #(#copies)*
                }
            }
        }
    }

    /// A `[u8; 32]` where joined in registers.
    fn padded_local(&self, arch: &Arch, layer: &Layer, target: Option<&Target>) -> Option<usize> {
        joined_in_registers(arch, layer, target).map(|_| 32)
    }

    fn prove(&self, at: &At) -> TokenStream {
        let name = at.name();
        let parts = at.layer.inputs.iter().map(|s| super::common::ranges(s, at.arch));
        let value = quote!([#(#parts),*].concat());
        quote! { let #name = #value; }
    }

    fn output_top(&self) -> i64 {
        127
    }
}

/// The two lengths of a concatenation that a target joins in registers
/// (`join_16`): two u8 layer outputs of 16 values, each read from its
/// start, at most 32 bytes together. Its local is then a zero-padded
/// `[u8; 32]`.
fn joined_in_registers(arch: &Arch, layer: &Layer, target: Option<&Target>) -> Option<(usize, usize)> {
    target?;
    joinable_16(arch, layer)
}

/// The lengths `(la, lb)` of a concatenation of two u8 layer outputs of 16
/// values, each read from its start, at most 32 bytes together.
pub(crate) fn joinable_16(arch: &Arch, layer: &Layer) -> Option<(usize, usize)> {
    if !matches!(layer.kind, LayerKind::Concat) {
        return None;
    }
    let [a, b] = &layer.inputs[..] else { return None };
    let whole_16 = |slice: &Slice| match slice.source {
        Source::Layer(i) => {
            let source = &arch.layers[i];
            source.output_type == ValueType::U8 && source.output_dimensions == 16 && slice.start == 0
        }
        Source::Transformer => false,
    };
    (whole_16(a) && whole_16(b) && (1..=16).contains(&a.len) && b.len <= 16).then_some((a.len, b.len))
}
