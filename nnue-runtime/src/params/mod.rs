//! Every backend's parameters: the feature transformers' rows and the
//! layers' weights and biases, as read from a net file (or built from
//! bullet's tensors), and their rearrangement into the layout a backend's
//! kernels read ([`crate::kernels::layout`]: lanes permuted as a register
//! packs them, weights in four-byte columns, inputs in a producer's
//! order). The scalar backend reads them as loaded; its forward pass over
//! them is in [`crate::scalar`].

mod affine;
mod bias;
mod dequantize;
mod feature_rows;
mod float_affine;
mod i32_affine;
mod threat_transformer;
mod transformer;
mod wide_affine;

pub use affine::Affine;
pub use bias::Bias;
pub use dequantize::Dequantize;
pub use feature_rows::FeatureRows;
pub use float_affine::FloatAffine;
pub use i32_affine::I32Affine;
pub use threat_transformer::ThreatTransformer;
pub use transformer::Transformer;
pub use wide_affine::WideAffine;

/// Stack `stack`'s `N` values out of a bullet tensor holding every stack's,
/// stack by stack (a layer's biases).
pub(crate) fn stack_values<T: Copy, const N: usize>(values: &[T], stack: usize) -> Box<[T; N]> {
    values[stack * N..][..N].to_vec().into_boxed_slice().try_into().unwrap_or_else(|_| unreachable!("N values"))
}
