//! One layer stack: its parameters, how they are read, and its forward pass
//! written out layer by layer, for the scalar backend and for each SIMD
//! target.

use crate::targets::{self, AffineKernel, Target};
use crate::tokens::{doc, i32, ident, int, lit, runtime};
use nnue_spec::ir::{Arch, Layer, LayerKind, Rescale, Slice, Source, TransformerOutput, ValueType};
use nnue_spec::schema::ProductWidth;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

pub fn generate(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let affine: Vec<&Layer> = arch.layers.iter().filter(|l| matches!(l.kind, LayerKind::Affine { .. })).collect();
    let params: Vec<&Layer> = arch.layers.iter().filter(|l| l.kind.is_affine()).collect();
    let fields = params.iter().map(|l| {
        let name = ident(&l.name);
        let (inputs, outputs) = (int(l.input_dimensions), int(l.output_dimensions));
        match l.kind {
            LayerKind::Affine { padded_inputs, .. } => {
                let padded = int(padded_inputs);
                let doc = doc(&format!(
                    "`{}`: {} inputs (rows padded to {}) -> {} outputs.",
                    l.name, l.input_dimensions, padded_inputs, l.output_dimensions
                ));
                quote! {
                    #doc
                    #name: #rt::scalar::Affine<#inputs, #padded, #outputs>
                }
            }
            LayerKind::FloatAffine { .. } => {
                let doc = doc(&format!("`{}`: {} inputs -> {} outputs, f32.", l.name, l.input_dimensions, l.output_dimensions));
                quote! {
                    #doc
                    #name: #rt::scalar::FloatAffine<#inputs, #outputs>
                }
            }
            _ => {
                let doc = doc(&format!("`{}`: {} inputs -> {} outputs, i16 weights.", l.name, l.input_dimensions, l.output_dimensions));
                quote! {
                    #doc
                    #name: #rt::scalar::WideAffine<#inputs, #outputs>
                }
            }
        }
    });
    let read = if arch.is_bullet() {
        crate::bullet::stack_from_tensors(arch)
    } else {
        let reads = affine.iter().map(|l| {
            let name = ident(&l.name);
            let what = format!("layer stack {{stack}} {}", l.name);
            quote! { #name: #rt::scalar::Affine::read(r, &::std::format!(#what))? }
        });
        quote! {
            /// Reads stack number `stack`: its hash word, then each affine
            /// layer's biases and weights.
            fn read(r: &mut #rt::NetReader<'_>, stack: usize) -> ::core::result::Result<Self, #rt::LoadError> {
                r.expect_hash(&::std::format!("layer stack {stack} hash"), LAYER_STACK_HASH)?;
                ::core::result::Result::Ok(LayerStack { #(#reads,)* })
            }
        }
    };
    let padding = affine.iter().map(|l| {
        let name = ident(&l.name);
        quote!(self.#name.nonzero_padding())
    });
    let padding = if affine.is_empty() { quote!(0) } else { quote!(#(#padding)+*) };
    let columns = affine.iter().filter(|l| targets::uses_columns(l)).map(|l| {
        let name = ident(&l.name);
        quote!(self.#name.to_columns();)
    });
    let body = propagate_body(arch, None, false);
    let packed = packed_orders(arch);
    let order_packed = (!packed.is_empty()).then(|| {
        let steps = packed.iter().map(|(i, order)| {
            let name = ident(&arch.layers[*i].name);
            quote!(self.#name.order_inputs(&#order);)
        });
        quote! {
            /// Lays out the inputs of the layers that read activations
            /// packed by AVX2 in the packs' order (before the column
            /// layout).
            fn order_packed_inputs(&mut self) {
                #(#steps)*
            }
        }
    });
    quote! {
        /// The parameters of one layer stack.
        pub struct LayerStack {
            #(#fields,)*
        }

        impl LayerStack {
            #read

            /// Non-zero weights in the padding columns of this stack's layers.
            fn nonzero_padding(&self) -> usize {
                #padding
            }

            /// Puts the weights of layers computed by the SIMD column kernel
            /// into column layout.
            fn prepare_columns(&mut self) {
                #(#columns)*
            }

            #order_packed

            /// The scalar forward pass.
            fn propagate_scalar(
                &self,
                input: &[u8; TRANSFORMED],
                trace: &mut impl ::core::ops::FnMut(&'static str, #rt::LayerOutput<'_>),
            ) -> i32 {
                let stack = self;
                #body
            }
        }
    }
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

/// The statements of a forward pass over `stack` and `input`, ending in the
/// stack's output; for the scalar backend (`target` `None`) or a SIMD target
/// (with its token in `cpu`).
///
/// With `halves` (an `Accumulators` output, on a SIMD target) the
/// accumulators are read in place: `first` and `second` are the side to
/// move's and the other side's lanes, and `input` their concatenation,
/// made only if a layer needs it whole.
pub fn propagate_body(arch: &Arch, target: Option<&Target>, halves: bool) -> TokenStream {
    let rt = runtime();
    let n = int(arch.transformer.output_dimensions);
    let values = if halves {
        Some(quote!(let input = &#rt::scalar::join_halves::<_, L1, #n>(first, second);))
    } else {
        // The accumulators' values, read back from the output's bytes.
        (arch.transformer.output == TransformerOutput::Accumulators).then(|| quote!(let input = &#rt::scalar::i16_values::<#n>(input);))
    };
    let steps = arch.layers.iter().map(|layer| layer_step(arch, layer, target, halves));
    let result = stack_result(arch);
    quote! {
        #values
        #(#steps)*
        #result
    }
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

/// A stack that is an `SCReLU` of the whole transformer output (the
/// accumulators clamped to `0..=max`) and one i16-weight layer reading it,
/// its value only: SIMD targets compute it straight from the accumulators
/// ([`crate::backends`]' `propagate_accumulator`), with the clamp that the
/// two clamps make. Returns that clamp.
pub(crate) fn screlu_of_accumulators(arch: &Arch) -> Option<i32> {
    let TransformerOutput::ClippedReLU { max: clip } = arch.transformer.output else { return None };
    let [screlu, affine] = &arch.layers[..] else { return None };
    let (LayerKind::SCReLU { max }, LayerKind::WideAffine { .. }) = (screlu.kind, affine.kind) else { return None };
    let whole = |slice: &Slice, source: Source, len: usize| slice.source == source && slice.start == 0 && slice.len == len;
    let reads = whole(&screlu.inputs[0], Source::Transformer, arch.transformer.output_dimensions)
        && whole(&affine.inputs[0], Source::Layer(0), screlu.output_dimensions)
        && read_once(arch, 0);
    reads.then_some(clip.min(max).min(i32::from(i16::MAX)))
}

/// `name[index]` of a layer's output.
fn element(arch: &Arch, layer: usize, index: usize) -> TokenStream {
    let name = ident(&arch.layers[layer].name);
    let index = int(index);
    quote!(#name[#index])
}

/// The two lengths of a concatenation that a target joins in registers
/// (`join_16`): two u8 layer outputs of 16 values, each read from its
/// start, at most 32 bytes together. Its local is then a zero-padded
/// `[u8; 32]` (see [`array_len`]).
fn joined_in_registers(arch: &Arch, layer: &Layer, target: Option<&Target>) -> Option<(usize, usize)> {
    target?;
    joinable_16(arch, layer)
}

/// The lengths `(la, lb)` of a concatenation of two u8 layer outputs of 16
/// values, each read from its start, at most 32 bytes together.
fn joinable_16(arch: &Arch, layer: &Layer) -> Option<(usize, usize)> {
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

/// How an affine layer's input is left by the targets that pack their
/// activations ([`Target::packs_activations`], AVX2): in the packs' byte
/// order, which the layer's weights are laid out for when the net is
/// loaded for such a target ([`packed_orders`]), so that no permute puts
/// the bytes back in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PackedInput {
    /// All of an activation layer (`ClippedReLU` or `SqrClippedReLU`, a
    /// multiple of 32 values).
    Activation(usize),
    /// A concatenation of the first `la` and `lb` values of two activation
    /// layers of 16 values, packed together whole (32 bytes); the values
    /// it leaves out get weights of zero.
    Joined { concat: usize, a: usize, b: usize, la: usize, lb: usize },
}

/// [`PackedInput`] of affine layer `index`, if its input is packed: all of
/// one layer's output that only it reads, and the layer's rows exactly
/// that long.
pub(crate) fn packed_input(arch: &Arch, index: usize) -> Option<PackedInput> {
    let layer = &arch.layers[index];
    let LayerKind::Affine { padded_inputs, .. } = layer.kind else { return None };
    let [slice] = &layer.inputs[..] else { return None };
    let Source::Layer(s) = slice.source else { return None };
    let source = &arch.layers[s];
    if slice.start != 0 || slice.len != source.output_dimensions || !read_once(arch, s) {
        return None;
    }
    let packable = |i: usize, n: usize| {
        let l = &arch.layers[i];
        matches!(l.kind, LayerKind::ClippedReLU { .. } | LayerKind::SqrClippedReLU { .. }) && simd_activation(l) && l.output_dimensions == n
    };
    if packable(s, source.output_dimensions) && source.output_dimensions.is_multiple_of(32) && padded_inputs == source.output_dimensions {
        return Some(PackedInput::Activation(s));
    }
    let (la, lb) = joinable_16(arch, source)?;
    let [Source::Layer(a), Source::Layer(b)] = [source.inputs[0].source, source.inputs[1].source] else { return None };
    (packable(a, 16) && packable(b, 16) && padded_inputs == 32).then_some(PackedInput::Joined { concat: s, a, b, la, lb })
}

/// The affine layers with a [`PackedInput`], and the expression of its
/// order at load (`Vec<Option<usize>>`, see `kernels::layout`).
pub(crate) fn packed_orders(arch: &Arch) -> Vec<(usize, TokenStream)> {
    let rt = runtime();
    (0..arch.layers.len())
        .filter_map(|i| {
            let order = match packed_input(arch, i)? {
                PackedInput::Activation(s) => {
                    let n = int(arch.layers[s].output_dimensions);
                    quote!(#rt::kernels::layout::avx2_packed_order(#n))
                }
                PackedInput::Joined { la, lb, .. } => {
                    let (la, lb) = (int(la), int(lb));
                    quote!(#rt::kernels::layout::avx2_joined_order(#la, #lb))
                }
            };
            Some((i, order))
        })
        .collect()
}

/// The packed input that layer `index` is, if a target packing activations
/// computes it packed (see [`PackedInput`]).
fn packed_by_reader(arch: &Arch, index: usize, target: Option<&Target>) -> Option<PackedInput> {
    if !target?.packs_activations {
        return None;
    }
    (0..arch.layers.len()).filter_map(|i| packed_input(arch, i)).find(|p| match *p {
        PackedInput::Activation(s) => s == index,
        PackedInput::Joined { concat, .. } => concat == index,
    })
}

/// `runtime::simd::Activation` of an activation layer.
fn activation_value(layer: &Layer) -> TokenStream {
    let rt = runtime();
    match layer.kind {
        LayerKind::ClippedReLU { shift, max } => {
            let (shift, max) = (lit(i64::from(shift)), lit(i64::from(max)));
            quote!(#rt::simd::Activation::Clipped { shift: #shift, max: #max })
        }
        LayerKind::SqrClippedReLU { shift, max } => {
            let (after, max) = (lit(i64::from(shift) - 16), lit(i64::from(max)));
            quote!(#rt::simd::Activation::Square { shift_after_16: #after, max: #max })
        }
        _ => unreachable!("packed_input takes ClippedReLU and SqrClippedReLU layers"),
    }
}

/// Layer `index` computed packed for the next layer (see [`PackedInput`]),
/// then in order for the trace only, in a block of its own (dead code when
/// nothing traces).
fn packed_step(arch: &Arch, packed: PackedInput, target: &Target, halves: bool) -> TokenStream {
    let (index, compute) = match packed {
        PackedInput::Activation(s) => {
            let layer = &arch.layers[s];
            let (name, n, f) = (ident(&layer.name), int(layer.output_dimensions), activation_value(layer));
            let input = slice_ref(&layer.inputs[0], arch, Some(target));
            (s, quote! {
                let mut #name = [0u8; #n];
                cpu.activation_packed::<#n>(#f, #input, &mut #name);
            })
        }
        PackedInput::Joined { concat, a, b, .. } => {
            let (a, b) = (&arch.layers[a], &arch.layers[b]);
            let name = ident(&arch.layers[concat].name);
            let (fa, fb) = (activation_value(a), activation_value(b));
            let (ia, ib) = (slice_ref(&a.inputs[0], arch, Some(target)), slice_ref(&b.inputs[0], arch, Some(target)));
            (concat, quote! {
                let #name = cpu.activations_joined_16(#fa, #ia, #fb, #ib);
            })
        }
    };
    let in_order = compute_and_trace(arch, &arch.layers[index], Some(target), halves);
    quote! {
        #compute
        {
            #in_order
        }
    }
}

/// Length of the local array holding layer `index`'s output: its output
/// dimensions, or 32 for a concatenation joined in registers.
fn array_len(arch: &Arch, index: usize, target: Option<&Target>) -> usize {
    let layer = &arch.layers[index];
    match joined_in_registers(arch, layer, target) {
        Some(_) => 32,
        None => layer.output_dimensions,
    }
}

/// An expression of type `&[T; len]` for a slice.
fn slice_ref(slice: &Slice, arch: &Arch, target: Option<&Target>) -> TokenStream {
    let rt = runtime();
    let (source, len) = match slice.source {
        Source::Transformer => (quote!(input), arch.transformer.output_dimensions),
        Source::Layer(i) => {
            let name = ident(&arch.layers[i].name);
            (quote!(&#name), array_len(arch, i, target))
        }
    };
    if slice.start == 0 && slice.len == len {
        source
    } else {
        let (start, n) = (int(slice.start), int(slice.len));
        quote!(#rt::sub::<_, #n>(#source, #start))
    }
}

/// One layer's step of a forward pass: nothing for a layer that a later
/// one computes as it reads it (on SIMD targets), else
/// [`compute_and_trace`].
fn layer_step(arch: &Arch, layer: &Layer, target: Option<&Target>, halves: bool) -> TokenStream {
    // A layer fused into a later one is computed there, only where its
    // values are needed (see `fused_screlu` and `float_input_chain`).
    let index = arch.layers.iter().position(|l| l.name == layer.name).expect("a layer of the architecture");
    let fused = target.is_some_and(|target| {
        let next = arch.layers.get(index + 1);
        let screlu = matches!(layer.kind, LayerKind::SCReLU { .. }) && next.is_some_and(|next| fused_screlu(arch, next, target));
        let into_float = arch.layers[index + 1..].iter().take(2).any(|l| float_input_chain(arch, l).contains(&index));
        screlu || into_float
    });
    match (fused, packed_by_reader(arch, index, target)) {
        (true, _) => TokenStream::new(),
        (false, Some(packed)) => packed_step(arch, packed, target.expect("packed on a target"), halves),
        (false, None) => compute_and_trace(arch, layer, target, halves),
    }
}

/// Whether layer `i` is read by one layer only and by no output.
fn read_once(arch: &Arch, i: usize) -> bool {
    let by_layers = arch.layers.iter().flat_map(|l| &l.inputs).filter(|s| s.source == Source::Layer(i)).count();
    let by_output = arch.output.value.iter().any(|t| t.element.layer == i) || arch.output.forward.is_some_and(|f| f.input.layer == i);
    by_layers == 1 && !by_output
}

/// For an f32 affine layer (on a SIMD target): the layers right before it
/// that only turn integers into its inputs, one value at a time, and that
/// it computes as it reads them: a `ToFloat` reading all of an
/// `SCReLU`, or a `ToFloat` alone (each read by the next layer only).
/// Their indices, the first first; empty when there are none.
fn float_input_chain(arch: &Arch, layer: &Layer) -> Vec<usize> {
    let whole = |slice: &Slice, i: usize| slice.source == Source::Layer(i) && slice.start == 0 && slice.len == arch.layers[i].output_dimensions;
    let Some(index) = arch.layers.iter().position(|l| l.name == layer.name) else { return Vec::new() };
    if !matches!(layer.kind, LayerKind::FloatAffine { .. }) || index == 0 {
        return Vec::new();
    }
    let t = index - 1;
    if !(matches!(arch.layers[t].kind, LayerKind::ToFloat { .. }) && whole(&layer.inputs[0], t) && read_once(arch, t)) {
        return Vec::new();
    }
    match t.checked_sub(1) {
        Some(s) if matches!(arch.layers[s].kind, LayerKind::SCReLU { .. }) && whole(&arch.layers[t].inputs[0], s) && read_once(arch, s) => vec![s, t],
        _ => vec![t],
    }
}

/// Whether a SIMD target computes the activation `layer` with its token's
/// kernel (`cpu.clipped_relu`, `cpu.sqr_clipped_relu`): widths in steps of
/// 8, bytes of at most 127, and for the square a shift its 16-bit high
/// product can take.
pub(crate) fn simd_activation(layer: &Layer) -> bool {
    match layer.kind {
        LayerKind::ClippedReLU { max, .. } => layer.output_dimensions.is_multiple_of(8) && max <= 127,
        LayerKind::SqrClippedReLU { shift, max } => {
            layer.output_dimensions.is_multiple_of(8)
                && max <= 127
                && (16..=31).contains(&shift)
                && (32767i64 * 32767) >> shift >= i64::from(max)
        }
        _ => false,
    }
}

/// The statements computing one layer's output into a local of its name,
/// then handing it to `trace`.
fn compute_and_trace(arch: &Arch, layer: &Layer, target: Option<&Target>, halves: bool) -> TokenStream {
    let rt = runtime();
    let name = ident(&layer.name);
    let label = &layer.name;
    let n = int(layer.output_dimensions);
    let input = || slice_ref(&layer.inputs[0], arch, target);
    let joined = joined_in_registers(arch, layer, target);
    let compute = match layer.kind {
        LayerKind::Affine { padded_inputs, .. } => affine_step(arch, layer, padded_inputs, target),
        LayerKind::ClippedReLU { shift, max } => {
            let input = input();
            let call = match target {
                Some(_) if simd_activation(layer) => {
                    let (shift, max) = (lit(i64::from(shift)), lit(i64::from(max)));
                    quote!(cpu.clipped_relu::<#n, #shift>(#input, #max, &mut #name))
                }
                _ => {
                    let (shift, max) = (int(shift as usize), i32(max));
                    quote!(#rt::scalar::clipped_relu(#input, #shift, #max, &mut #name))
                }
            };
            quote! {
                let mut #name = [0u8; #n];
                #call;
            }
        }
        LayerKind::SqrClippedReLU { shift, max } => {
            let input = input();
            let call = match target {
                Some(_) if simd_activation(layer) => {
                    let (after, max) = (lit(i64::from(shift) - 16), lit(i64::from(max)));
                    quote!(cpu.sqr_clipped_relu::<#n, #after>(#input, #max, &mut #name))
                }
                _ => {
                    let (shift, max) = (int(shift as usize), i32(max));
                    quote!(#rt::scalar::sqr_clipped_relu(#input, #shift, #max, &mut #name))
                }
            };
            quote! {
                let mut #name = [0u8; #n];
                #call;
            }
        }
        LayerKind::WideAffine { divisor } => {
            let (input, divisor) = (input(), i32(divisor));
            match (target, screlu_of_bytes(arch, layer)) {
                (Some(target), Some((bytes, max))) if fused_screlu(arch, layer, target) => {
                    // The SCReLU's u8 input straight into 16-bit products
                    // when the weights allow it (checked on loading). The
                    // SCReLU's values are computed for the trace only (dead
                    // code when nothing traces), or for the scalar sum.
                    let Source::Layer(s) = layer.inputs[0].source else { unreachable!("screlu_of_bytes reads a layer") };
                    let screlu = compute_and_trace(arch, &arch.layers[s], Some(target), halves);
                    let (bytes, max16, inputs) = (slice_ref(bytes, arch, Some(target)), lit(i64::from(max)), int(layer.input_dimensions));
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
        LayerKind::SCReLU { max } => {
            let (input, max) = (input(), i32(max));
            quote! {
                let mut #name = [0i32; #n];
                #rt::scalar::screlu(#input, #max, &mut #name);
            }
        }
        LayerKind::FloatAffine { .. } => match (target, &float_input_chain(arch, layer)[..]) {
            (Some(target), chain @ [first, ..]) => {
                // Each input converted as it is read; the converting
                // layers' values are computed for the trace only.
                let source = slice_ref(&arch.layers[*first].inputs[0], arch, Some(target));
                // `x` as an i32: the source's values widened, an SCReLU's as they are.
                let widened = |is_i32: bool| if is_i32 { quote!(x) } else { quote!(::core::convert::Into::<i32>::into(x)) };
                let (mut steps, mut is_i32, mut traced) = (Vec::new(), false, Vec::new());
                for &i in chain {
                    let x = widened(is_i32);
                    steps.push(match arch.layers[i].kind {
                        LayerKind::SCReLU { max } => {
                            let max = i32(max);
                            quote! {
                                let x = #x.clamp(0, #max);
                                let x = x * x;
                            }
                        }
                        // Always the last: the closure's value.
                        LayerKind::ToFloat { divisor } => quote!(#x as f32 / #divisor),
                        _ => unreachable!("float_input_chain holds SCReLU and ToFloat layers"),
                    });
                    is_i32 = matches!(arch.layers[i].kind, LayerKind::SCReLU { .. });
                    traced.push(compute_and_trace(arch, &arch.layers[i], Some(target), halves));
                }
                let first_input = &arch.layers[*first].inputs[0];
                let whole_transformer = first_input.source == Source::Transformer && first_input.start == 0 && first_input.len == arch.transformer.output_dimensions;
                let call = if halves && whole_transformer {
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
                let input = input();
                quote! {
                    let mut #name = [0f32; #n];
                    stack.#name.propagate(#input, &mut #name);
                }
            }
        },
        LayerKind::CReLU { max } => {
            let input = input();
            quote! {
                let mut #name = [0f32; #n];
                #rt::scalar::crelu_f32(#input, #max, &mut #name);
            }
        }
        LayerKind::ToFloat { divisor } => {
            let input = input();
            quote! {
                let mut #name = [0f32; #n];
                #rt::scalar::to_float(#input, #divisor, &mut #name);
            }
        }
        LayerKind::ToInt { multiply } => {
            let input = input();
            quote! {
                let mut #name = [0i32; #n];
                #rt::scalar::to_int(#input, #multiply, &mut #name);
            }
        }
        LayerKind::Concat => match joined {
            Some((la, lb)) => {
                // Both sources whole: `join_16` takes the first `la` and `lb` values.
                let whole = |slice: &Slice| match slice.source {
                    Source::Layer(i) => ident(&arch.layers[i].name),
                    Source::Transformer => unreachable!("joined_in_registers takes layer outputs only"),
                };
                let (a, b) = (whole(&layer.inputs[0]), whole(&layer.inputs[1]));
                let (la, shr, lb) = (lit(la as i64), lit(16 - la as i64), int(lb));
                let simd = ident(target.expect("joined_in_registers needs a target").simd);
                quote! {
                    let #name = #rt::simd::#simd::join_16::<#la, #shr, #lb>(&#a, &#b);
                }
            }
            None => {
                let mut at = 0;
                let copies = layer.inputs.iter().map(|slice| {
                    let (from, to) = (int(at), int(at + slice.len));
                    at += slice.len;
                    let source = slice_ref(slice, arch, target);
                    quote! { #name[#from..#to].copy_from_slice(#source); }
                });
                quote! {
                    let mut #name = [0u8; #n];
                    #(#copies)*
                }
            }
        },
    };
    // A padded local is traced without its padding.
    let traced = if joined.is_some() { quote!(&#name[..#n]) } else { quote!(&#name) };
    let output = match layer.output_type {
        ValueType::I32 => quote!(#rt::LayerOutput::I32(#traced)),
        ValueType::U8 => quote!(#rt::LayerOutput::U8(#traced)),
        ValueType::F32 => quote!(#rt::LayerOutput::F32(#traced)),
        ValueType::I16 => unreachable!("only the transformer produces i16 values"),
    };
    quote! {
        #compute
        trace(#label, #output);
    }
}

/// Whether `target` computes the i16-weight `layer` from its SCReLU's bytes
/// ([`screlu_of_bytes`]) with its `screlu_affine` kernel.
pub(crate) fn fused_screlu(arch: &Arch, layer: &Layer, target: &Target) -> bool {
    let Some(index) = arch.layers.iter().position(|l| l.name == layer.name) else { return false };
    let read_once = |i: usize| read_once(arch, i);
    matches!(layer.kind, LayerKind::WideAffine { .. })
        && screlu_of_bytes(arch, layer).is_some()
        // The SCReLU right before this layer and read by it alone: it can be
        // computed here, in the trace's order.
        && layer.inputs[0].source == Source::Layer(index.wrapping_sub(1))
        && read_once(index - 1)
        && layer.input_dimensions.is_multiple_of(4 * target.dot_lanes)
}

/// For an i16-weight layer reading all of an `SCReLU` of u8 values: that
/// SCReLU's input and its clamp (at most 255, as the values are bytes).
pub(crate) fn screlu_of_bytes<'a>(arch: &'a Arch, layer: &Layer) -> Option<(&'a Slice, i32)> {
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

/// An affine layer: the scalar kernel, or the target's column or row kernel
/// on an input padded with zeros to the row length.
fn affine_step(arch: &Arch, layer: &Layer, padded: usize, target: Option<&Target>) -> TokenStream {
    let name = ident(&layer.name);
    let n = int(layer.output_dimensions);
    let slice = &layer.inputs[0];
    let Some(target) = target else {
        let input = slice_ref(slice, arch, None);
        return quote! {
            let mut #name = [0i32; #n];
            stack.#name.propagate(#input, &mut #name);
        };
    };
    // The SIMD kernels read whole padded rows: give them a zero-padded input
    // unless the source's local already is exactly that (all of its values,
    // then zeros up to the row length).
    let (values, local) = match slice.source {
        Source::Transformer => (arch.transformer.output_dimensions, arch.transformer.output_dimensions),
        Source::Layer(i) => (arch.layers[i].output_dimensions, array_len(arch, i, Some(target))),
    };
    let (prelude, input) = if slice.start == 0 && slice.len == values && local == padded {
        let source = match slice.source {
            Source::Transformer => quote!(input),
            Source::Layer(i) => {
                let name = ident(&arch.layers[i].name);
                quote!(&#name)
            }
        };
        (quote!(), source)
    } else {
        let padded_name = format_ident!("{}_input", layer.name);
        let (p, len, source) = (int(padded), int(slice.len), slice_ref(slice, arch, Some(target)));
        (
            quote! {
                let mut #padded_name = [0u8; #p];
                #padded_name[..#len].copy_from_slice(#source);
            },
            quote!(&#padded_name),
        )
    };
    let p = int(padded);
    let call = match target.affine(layer) {
        // The transformer's kernel listed the non-zero chunks of `input`
        // (when its caller kept the list).
        AffineKernel::Columns { wide, regs, sparse: true } if layer.reads_listed_transformer(&arch.transformer) => {
            let method = if wide { quote!(affine_columns_listed) } else { quote!(affine_columns_256_listed) };
            let (chunks, regs) = (int(padded / 4), int(regs));
            quote!(cpu.#method::<#p, #chunks, #n, #regs>(&stack.#name.biases, &stack.#name.weights, stack.#name.paired, #input, nonzero, &mut #name))
        }
        AffineKernel::Columns { wide, regs, sparse } => {
            let method = if wide { quote!(affine_columns) } else { quote!(affine_columns_256) };
            let (chunks, regs) = (int(padded / 4), int(regs));
            quote!(cpu.#method::<#p, #chunks, #n, #regs, #sparse>(&stack.#name.biases, &stack.#name.weights, stack.#name.paired, #input, &mut #name))
        }
        AffineKernel::Rows { wide } => {
            let method = if wide { quote!(affine_rows) } else { quote!(affine_rows_256) };
            quote!(cpu.#method::<#p, #n>(&stack.#name.biases, &stack.#name.weights, #input, &mut #name))
        }
    };
    quote! {
        #prelude
        let mut #name = [0i32; #n];
        #call;
    }
}
