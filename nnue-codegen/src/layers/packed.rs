//! Activations packed by AVX2 for the affine layer reading them
//! ([`Target::packs_activations`]): an activation layer's bytes left in the
//! packs' order, which the reading layer's weights are laid out for when
//! the net is loaded for such a target, so that no permute puts the bytes
//! back in order. The analysis; the packed step itself is part of the
//! forward pass (`forward`).

use super::clipped_relu::ClippedReLU;
use super::common::{LayerGen, read_once};
use super::concat::joinable_16;
use super::sqr_clipped_relu::SqrClippedReLU;
use crate::targets::Target;
use crate::tokens::{int, runtime};
use nnue_spec::ir::{Arch, Layer, LayerKind, Source};
use proc_macro2::TokenStream;
use quote::quote;

/// How an affine layer's input is left by the targets that pack their
/// activations: in the packs' byte order.
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

/// The `runtime::simd::Activation` of a layer that can be packed: an
/// activation that the SIMD kernels compute ([`LayerGen::simd_activation`]).
pub(crate) fn activation(layer: &Layer) -> Option<TokenStream> {
    match layer.kind {
        LayerKind::ClippedReLU { shift, max } => ClippedReLU { shift, max }.simd_activation(layer),
        LayerKind::SqrClippedReLU { shift, max } => SqrClippedReLU { shift, max }.simd_activation(layer),
        _ => None,
    }
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
        activation(l).is_some() && l.output_dimensions == n
    };
    if packable(s, source.output_dimensions)
        && source.output_dimensions.is_multiple_of(32)
        && padded_inputs == source.output_dimensions
    {
        return Some(PackedInput::Activation(s));
    }
    let (la, lb) = joinable_16(arch, source)?;
    let [Source::Layer(a), Source::Layer(b)] = [source.inputs[0].source, source.inputs[1].source] else { return None };
    (packable(a, 16) && packable(b, 16) && padded_inputs == 32).then_some(PackedInput::Joined {
        concat: s,
        a,
        b,
        la,
        lb,
    })
}

/// The expression of the order of affine layer `index`'s packed input at
/// load (`Vec<Option<usize>>`, see `kernels::layout`), if it is packed.
pub(crate) fn order(arch: &Arch, index: usize) -> Option<TokenStream> {
    let rt = runtime();
    Some(match packed_input(arch, index)? {
        PackedInput::Activation(s) => {
            let n = int(arch.layers[s].output_dimensions);
            quote!(#rt::kernels::layout::avx2_packed_order(#n))
        }
        PackedInput::Joined { la, lb, .. } => {
            let (la, lb) = (int(la), int(lb));
            quote!(#rt::kernels::layout::avx2_joined_order(#la, #lb))
        }
    })
}

/// Whether some layer of `arch` reads a packed input: the net is then
/// proved and laid out for the packing targets apart.
pub(crate) fn any(arch: &Arch) -> bool {
    (0..arch.layers.len()).any(|i| packed_input(arch, i).is_some())
}

/// The packed input that layer `index` is, if a target packing activations
/// computes it packed (see [`PackedInput`]).
pub(crate) fn by_reader(arch: &Arch, index: usize, target: Option<&Target>) -> Option<PackedInput> {
    if !target?.packs_activations {
        return None;
    }
    (0..arch.layers.len()).filter_map(|i| packed_input(arch, i)).find(|p| match *p {
        PackedInput::Activation(s) => s == index,
        PackedInput::Joined { concat, .. } => concat == index,
    })
}
