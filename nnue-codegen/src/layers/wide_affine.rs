//! `WideAffine`: i16 weights on u8 or i32 inputs, i32 biases,
//! `sum / divisor + bias` (`runtime::params::WideAffine`). Over an `SCReLU`
//! of bytes, SIMD targets multiply in 16 bits where the weights allow it
//! (checked on loading), the SCReLU fused into the layer; over an SCReLU of
//! the whole transformer output, straight from the accumulators.

use super::common::{At, LayerGen, Params, Step, read_once};
use crate::output::stack_result;
use crate::targets::Target;
use crate::tokens::{doc, i32, ident, int, lit, runtime};
use nnue_spec::ir::{Arch, LayerKind, Slice, Source, TransformerOutput, ValueType};
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct WideAffine {
    pub divisor: i32,
}

impl LayerGen for WideAffine {
    fn describe(&self) -> &'static str {
        if self.divisor == 1 { "Affine (i16 weights)" } else { "Affine (i16 weights, sum divided before the bias)" }
    }

    fn field(&self, at: &At) -> Option<TokenStream> {
        let (rt, l, name) = (runtime(), at.layer, at.name());
        let (inputs, outputs) = (int(l.input_dimensions), int(l.output_dimensions));
        let doc = doc(&format!(
            "`{}`: {} inputs -> {} outputs, i16 weights.",
            l.name, l.input_dimensions, l.output_dimensions
        ));
        Some(quote! {
            #doc
            #name: #rt::params::WideAffine<#inputs, #outputs>
        })
    }

    fn params(&self) -> Option<Params> {
        let rt = runtime();
        Some(Params {
            ty: quote!(#rt::params::WideAffine),
            weight: Some(quote!(i16)),
            bias: quote!(i32),
            zero: quote!(0),
        })
    }

    fn fuses(&self, at: &At, target: &Target) -> Vec<usize> {
        if fused_screlu(at, target) { vec![at.index - 1] } else { Vec::new() }
    }

    fn forward(&self, step: &Step) -> TokenStream {
        let (at, arch, layer) = (&step.at, step.at.arch, step.at.layer);
        let (name, n) = (at.name(), at.outputs());
        let (input, divisor) = (step.input(), i32(self.divisor));
        match (step.target, screlu_of_bytes(arch, layer)) {
            (Some(target), Some((bytes, max))) if fused_screlu(at, target) => {
                // The SCReLU's u8 input straight into 16-bit products
                // when the weights allow it (checked on loading). The
                // SCReLU's values are computed for the trace only (dead
                // code when nothing traces), or for the scalar sum.
                let screlu = &step.fused[0];
                let (bytes, max16, inputs) = (step.slice(bytes), lit(i64::from(max)), int(layer.input_dimensions));
                quote! {
                    let mut #name = [0i32; #n];
                    if stack.#name.i16_products(#max16) {
                        let mut sums = [0i32; #n];
                        cpu.screlu_affine::<#inputs, #n>(#bytes, #max16, &stack.#name.weights, &mut sums);
                        stack.#name.finish(&sums, #divisor, &mut #name);
                        #screlu
                    } else {
                        #screlu
                        stack.#name.propagate(#input, #divisor, &mut #name);
                    }
                }
            }
            _ => quote! {
                let mut #name = [0i32; #n];
                stack.#name.propagate(#input, #divisor, &mut #name);
            },
        }
    }

    fn uses_token(&self, at: &At, target: &Target) -> bool {
        fused_screlu(at, target)
    }

    fn prove(&self, at: &At) -> TokenStream {
        let (rt, name, label, layer) = (runtime(), at.name(), &at.layer.name, at.layer);
        let (input, inputs, divisor) = (at.input_ranges(), int(layer.input_dimensions), lit(i64::from(self.divisor)));
        // Over an SCReLU of bytes the SIMD backends may multiply in 16
        // bits: those products are bounded too.
        let products = screlu_of_bytes(at.arch, layer).map(|(_, max)| {
            let max = lit(i64::from(max));
            quote!(#rt::overflow::layers::screlu_products(proof, #label, stack, &self.#name.weights, #inputs, #max);)
        });
        let value = quote! {{
            #products
            #rt::overflow::layers::wide_affine(proof, #label, stack, &self.#name.biases, &self.#name.weights, #inputs, #divisor, #input)
        }};
        quote! { let #name = #value; }
    }
}

/// Whether `target` computes the i16-weight layer `at` from its SCReLU's
/// bytes ([`screlu_of_bytes`]) with its `screlu_affine` kernel.
pub(crate) fn fused_screlu(at: &At, target: &Target) -> bool {
    let (arch, layer, index) = (at.arch, at.layer, at.index);
    matches!(layer.kind, LayerKind::WideAffine { .. })
        && screlu_of_bytes(arch, layer).is_some()
        // The SCReLU right before this layer and read by it alone: it can be
        // computed here, in the trace's order.
        && layer.inputs[0].source == Source::Layer(index.wrapping_sub(1))
        && read_once(arch, index - 1)
        && layer.input_dimensions.is_multiple_of(4 * target.dot_lanes)
}

/// For an i16-weight layer reading all of an `SCReLU` of u8 values: that
/// SCReLU's input and its clamp (at most 255, as the values are bytes).
pub(crate) fn screlu_of_bytes<'a>(arch: &'a Arch, layer: &nnue_spec::ir::Layer) -> Option<(&'a Slice, i32)> {
    let [slice] = &layer.inputs[..] else { return None };
    let Source::Layer(i) = slice.source else { return None };
    let screlu = &arch.layers[i];
    let LayerKind::SCReLU { max } = screlu.kind else { return None };
    let source = screlu.inputs.first()?;
    let source_type = match source.source {
        Source::Transformer => arch.transformer.output.value_type(),
        Source::Layer(j) => arch.layers[j].output_type,
    };
    let whole = slice.start == 0 && slice.len == screlu.output_dimensions;
    (whole && source_type == ValueType::U8).then_some((source, max.min(255)))
}

/// A stack that is an `SCReLU` of the whole transformer output (the
/// accumulators, clipped to `0..=max` or as they are) and one i16-weight
/// layer reading it, its value only: SIMD targets compute it straight from
/// the accumulators ([`accumulator_path`]), with the clamp that the two
/// clamps make. Returns that clamp.
pub(crate) fn screlu_of_accumulators(arch: &Arch) -> Option<i32> {
    // The accumulators as they are (bullet's usual output), or clipped.
    let clip = match arch.transformer.output {
        TransformerOutput::ClippedReLU { max } => max,
        TransformerOutput::Accumulators => i32::from(i16::MAX),
        _ => return None,
    };
    let [screlu, affine] = &arch.layers[..] else { return None };
    let (LayerKind::SCReLU { max }, LayerKind::WideAffine { .. }) = (screlu.kind, affine.kind) else { return None };
    let whole =
        |slice: &Slice, source: Source, len: usize| slice.source == source && slice.start == 0 && slice.len == len;
    let reads = whole(&screlu.inputs[0], Source::Transformer, arch.transformer.output_dimensions)
        && whole(&affine.inputs[0], Source::Layer(0), screlu.output_dimensions)
        && read_once(arch, 0);
    reads.then_some(clip.min(max).min(i32::from(i16::MAX)))
}

/// In a target's module, where [`screlu_of_accumulators`] holds:
/// `propagate_accumulator`, the stack's value from the accumulators in
/// 16-bit products.
pub(crate) fn accumulator_path(arch: &Arch, target: &Target) -> Option<TokenStream> {
    let max = screlu_of_accumulators(arch)?;
    let (rt, features) = (runtime(), target.features);
    let affine = &arch.layers[1];
    let (name, n, max) = (ident(&affine.name), int(affine.output_dimensions), lit(i64::from(max)));
    let LayerKind::WideAffine { divisor } = affine.kind else { unreachable!("screlu_of_accumulators checked it") };
    let divisor = i32(divisor);
    let result = stack_result(arch);
    // With a skip term the result is statements, then the value.
    let result = if arch.output.forward.is_some() { quote!({ #result }) } else { result };
    Some(quote! {
        /// The stack's output straight from the accumulators (`first` the
        /// side to move's lanes, `second` the other side's), in 16-bit
        /// products: `None` when the weights need the i32 path.
        pub(super) fn propagate_accumulator(cpu: Cpu, stack: &LayerStack, first: &[i16; L1], second: &[i16; L1]) -> ::core::option::Option<i32> {
            // SAFETY: a `Cpu` token exists only if this CPU has the
            // instruction set whose features the function is compiled for.
            unsafe { forward_accumulator(cpu.inside(), stack, first, second) }
        }

        /// [`propagate_accumulator`] compiled for the instruction set.
        #[target_feature(enable = #features)]
        fn forward_accumulator(
            cpu: #rt::simd::Inside<Cpu>,
            stack: &LayerStack,
            first: &[i16; L1],
            second: &[i16; L1],
        ) -> ::core::option::Option<i32> {
            if !stack.#name.i16_products(#max) {
                return ::core::option::Option::None;
            }
            let mut sums = [0i32; #n];
            cpu.screlu_affine_accumulators::<L1, #n>(
                first,
                second,
                #max,
                stack.#name.accumulator_weights(),
                &mut sums,
            );
            let mut #name = [0i32; #n];
            stack.#name.finish(&sums, #divisor, &mut #name);
            ::core::option::Option::Some(#result)
        }
    })
}

/// In `Network::assemble`, where [`screlu_of_accumulators`] holds: the
/// weights laid out for the accumulators' lane order on SIMD backends.
pub(crate) fn prepare_accumulator_order(arch: &Arch) -> Option<TokenStream> {
    screlu_of_accumulators(arch)?;
    let rt = runtime();
    let name = ident(&arch.layers[1].name);
    Some(quote! {
        if backend != #rt::Backend::Scalar {
            let lanes = Self::lane_packing(backend);
            network.stacks.iter_mut().for_each(|stack| stack.#name.prepare_accumulator_order(lanes));
        }
    })
}
