//! Code generation by layer kind: one module per [`LayerKind`], holding
//! everything generated for a layer of that kind ([`LayerGen`]): its field
//! in `LayerStack`, reading it, the scalar step and each SIMD target's, its
//! step of the overflow proof, its random parameters. The stages (`stack`,
//! `forward`, `proof`, `bullet`, `random`, `backends`, `constants`) walk
//! the layers and ask each its part.
//!
//! A new layer kind is a new module here (its runtime kernel in
//! `nnue-runtime`, its variant in `nnue-spec`'s schema and IR) and its arm
//! in [`of`].

mod affine;
mod bias;
mod clipped_relu;
mod common;
mod concat;
mod crelu;
mod dequantize;
mod elementwise;
mod float_affine;
mod hard_swish;
mod i32_affine;
mod integer;
pub(crate) mod packed;
mod screlu;
mod sqr_clipped_relu;
mod to_float;
mod to_int;
pub(crate) mod wide_affine;

pub(crate) use common::{At, LayerGen, Step, slice_ref};
use nnue_spec::ir::LayerKind;

/// The generator of a layer of `kind`.
pub(crate) fn of(kind: LayerKind) -> Box<dyn LayerGen> {
    match kind {
        LayerKind::Affine { padded_inputs, sparse, .. } => Box::new(affine::Affine { padded_inputs, sparse }),
        LayerKind::WideAffine { divisor } => Box::new(wide_affine::WideAffine { divisor }),
        LayerKind::SCReLU { max } => Box::new(screlu::SCReLU { max }),
        LayerKind::FloatAffine { order } => Box::new(float_affine::FloatAffine { order }),
        LayerKind::CReLU { max } => Box::new(crelu::CReLU { max }),
        LayerKind::ToFloat { divisor } => Box::new(to_float::ToFloat { divisor }),
        LayerKind::ToInt { multiply } => Box::new(to_int::ToInt { multiply }),
        LayerKind::Dequantize { multiply } => Box::new(dequantize::Dequantize { multiply }),
        LayerKind::HardSwish => Box::new(hard_swish::HardSwish),
        LayerKind::Elementwise { op } => Box::new(elementwise::Elementwise { op }),
        LayerKind::ClippedReLU { shift, max } => Box::new(clipped_relu::ClippedReLU { shift, max }),
        LayerKind::SqrClippedReLU { shift, max } => Box::new(sqr_clipped_relu::SqrClippedReLU { shift, max }),
        LayerKind::Concat => Box::new(concat::Concat),
        LayerKind::Integer { op } => Box::new(integer::Integer { op }),
        LayerKind::Bias => Box::new(bias::Bias),
        LayerKind::I32Affine => Box::new(i32_affine::I32Affine),
    }
}

/// Every layer's part of something, in layer order: `part` of its kind's
/// generator and the layer, where it has one.
pub(crate) fn each<'a, T>(arch: &'a nnue_spec::ir::Arch, part: impl Fn(&dyn LayerGen, &At<'a>) -> Option<T>) -> Vec<T> {
    (0..arch.layers.len())
        .filter_map(|i| {
            let at = At::new(arch, i);
            part(&*of(at.layer.kind), &at)
        })
        .collect()
}
