//! The scalar reference kernels: plain Rust, the semantics every SIMD backend
//! must reproduce bit for bit.

mod activation;
mod affine;
mod feature_rows;
mod threat_transformer;
mod transformer;
mod wide_affine;

pub use activation::{clipped_relu, screlu, sqr_clipped_relu};
pub use affine::Affine;
pub use feature_rows::FeatureRows;
pub use threat_transformer::ThreatTransformer;
pub use transformer::{transform_clip, transform_pairwise, Transformer};
pub use wide_affine::WideAffine;
