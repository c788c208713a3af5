//! The scalar reference kernels: plain Rust, the semantics every SIMD backend
//! must reproduce bit for bit.

mod activation;
mod affine;
mod feature_rows;
mod float_affine;
mod threat_transformer;
mod transformer;
mod wide_affine;

pub use activation::{clipped_relu, crelu_f32, screlu, sqr_clipped_relu, to_float, to_int};
pub use float_affine::FloatAffine;
pub use affine::Affine;
/// Its old path (the overflow proof decides it: [`crate::overflow::layers`]),
/// kept for generated code.
#[doc(hidden)]
pub use crate::overflow::layers::PairedSums;
pub use feature_rows::FeatureRows;
pub use threat_transformer::ThreatTransformer;
pub use transformer::{i16_values, join_halves, transform_accumulators, transform_clip, transform_pairwise, Transformer};
pub use wide_affine::WideAffine;
