//! The scalar reference kernels: plain Rust, the semantics every SIMD backend
//! must reproduce bit for bit. The activations and the transformer's output
//! stage are functions; the layers' forward passes are methods of their
//! parameters ([`crate::params`]): `Affine::propagate`,
//! `WideAffine::propagate` and `finish`, `FloatAffine::propagate` and
//! `Dequantize::propagate`, `Bias::propagate` and `I32Affine::propagate`
//! (which every backend runs), `Transformer::accumulate`, `add` and `remove`,
//! `ThreatTransformer::psqt` and `threat_psqt`.

mod activation;
mod affine;
mod dequantize;
mod elementwise;
mod float_affine;
mod i32_affine;
mod integer;
mod threat_transformer;
mod transformer;
mod wide_affine;

pub use activation::{clipped_relu, crelu_f32, hard_swish, screlu, sqr_clipped_relu, to_float, to_int};
pub use elementwise::{add, multiply};
pub use integer::{add_wrapping, clamp, shift_left, shift_right, square};
pub use transformer::{i16_values, join_halves, transform_accumulators, transform_clip, transform_pairwise};
