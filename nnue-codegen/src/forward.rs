//! A layer stack's forward pass, written out layer by layer, for the scalar
//! backend or a SIMD target: each layer's step from its kind
//! ([`LayerGen::forward`](crate::layers::LayerGen::forward)), its output handed to `trace`; layers fused into
//! a later one computed there; activations packed by AVX2 computed packed.

use crate::layers::packed::{self, PackedInput};
use crate::layers::{self, At, Step};
use crate::output::stack_result;
use crate::targets::Target;
use crate::tokens::{ident, int, runtime};
use nnue_spec::ir::{Arch, TransformerOutput, ValueType};
use proc_macro2::TokenStream;
use quote::quote;

/// The statements of a forward pass over `stack` and `input`, ending in the
/// stack's output; for the scalar backend (`target` `None`) or a SIMD target
/// (with its token in `cpu`).
///
/// With `halves` (an `Accumulators` output, on a SIMD target) the
/// accumulators are read in place: `first` and `second` are the side to
/// move's and the other side's lanes, and `input` their concatenation,
/// made only if a layer needs it whole.
pub(crate) fn propagate_body(arch: &Arch, target: Option<&Target>, halves: bool) -> TokenStream {
    let rt = runtime();
    let n = int(arch.transformer.output_dimensions);
    let values = if halves {
        Some(quote!(let input = &#rt::scalar::join_halves::<_, L1, #n>(first, second);))
    } else {
        // The accumulators' values, read back from the output's bytes.
        (arch.transformer.output == TransformerOutput::Accumulators)
            .then(|| quote!(let input = &#rt::scalar::i16_values::<#n>(input);))
    };
    let pass = Pass::new(arch, target, halves);
    let steps = (0..arch.layers.len()).map(|i| pass.layer_step(i));
    let result = stack_result(arch);
    quote! {
        #values
        #(#steps)*
        #result
    }
}

/// One forward pass being written.
struct Pass<'a> {
    arch: &'a Arch,
    target: Option<&'a Target>,
    halves: bool,
    /// The length of each layer's local: its output dimensions, or longer
    /// ([`LayerGen::padded_local`](crate::layers::LayerGen::padded_local)).
    locals: Vec<usize>,
}

impl<'a> Pass<'a> {
    fn new(arch: &'a Arch, target: Option<&'a Target>, halves: bool) -> Self {
        let locals = arch
            .layers
            .iter()
            .map(|l| layers::of(l.kind).padded_local(arch, l, target).unwrap_or(l.output_dimensions))
            .collect();
        Pass { arch, target, halves, locals }
    }

    /// Layer `index`'s step: nothing for a layer that a later one computes
    /// as it reads it (on SIMD targets), its packed step where a target
    /// packs it, else [`Self::compute_and_trace`].
    fn layer_step(&self, index: usize) -> TokenStream {
        let arch = self.arch;
        // A layer fused into one of the next two is computed there, only
        // where its values are needed.
        let fused = self.target.is_some_and(|target| {
            (index + 1..arch.layers.len()).take(2).any(|reader| {
                let at = At::new(arch, reader);
                layers::of(at.layer.kind).fuses(&at, target).contains(&index)
            })
        });
        match (fused, packed::by_reader(arch, index, self.target)) {
            (true, _) => TokenStream::new(),
            (false, Some(packed)) => self.packed_step(packed),
            (false, None) => self.compute_and_trace(index),
        }
    }

    /// The statements computing layer `index`'s output into a local of its
    /// name, then handing it to `trace`.
    fn compute_and_trace(&self, index: usize) -> TokenStream {
        let rt = runtime();
        let at = At::new(self.arch, index);
        let (layer, kind) = (at.layer, layers::of(at.layer.kind));
        let fused = match self.target {
            Some(target) => kind.fuses(&at, target).into_iter().map(|i| self.compute_and_trace(i)).collect(),
            None => Vec::new(),
        };
        let step = Step { at, target: self.target, halves: self.halves, locals: &self.locals, fused };
        let compute = kind.forward(&step);
        let (name, label, n) = (at.name(), &layer.name, at.outputs());
        // A padded local is traced without its padding.
        let padded = kind.padded_local(self.arch, layer, self.target).is_some();
        let traced = if padded { quote!(&#name[..#n]) } else { quote!(&#name) };
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

    /// A packed input (see [`PackedInput`]) computed packed for the next
    /// layer, then in order for the trace only, in a block of its own (dead
    /// code when nothing traces).
    fn packed_step(&self, packed: PackedInput) -> TokenStream {
        let arch = self.arch;
        let activation = |layer: &nnue_spec::ir::Layer| {
            packed::activation(layer).expect("a packed layer is an activation SIMD kernels compute")
        };
        let input = |layer: &nnue_spec::ir::Layer| layers::slice_ref(&layer.inputs[0], arch, &self.locals);
        let (index, compute) = match packed {
            PackedInput::Activation(s) => {
                let layer = &arch.layers[s];
                let (name, n, f) = (ident(&layer.name), int(layer.output_dimensions), activation(layer));
                let input = input(layer);
                (
                    s,
                    quote! {
                        let mut #name = [0u8; #n];
                        cpu.activation_packed::<#n>(#f, #input, &mut #name);
                    },
                )
            }
            PackedInput::Joined { concat, a, b, .. } => {
                let (a, b) = (&arch.layers[a], &arch.layers[b]);
                let name = ident(&arch.layers[concat].name);
                let (fa, fb) = (activation(a), activation(b));
                let (ia, ib) = (input(a), input(b));
                (
                    concat,
                    quote! {
                        let #name = cpu.activations_joined_16(#fa, #ia, #fb, #ib);
                    },
                )
            }
        };
        let in_order = self.compute_and_trace(index);
        quote! {
            #compute
            {
                #in_order
            }
        }
    }
}
