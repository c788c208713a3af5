//! x86-64 backends: each ISA's vector types (one file per ISA), and its
//! token type, obtainable only through run-time detection ([`Avx2::new`]
//! and friends return `None` on a CPU without the instruction set). The
//! token's safe methods, which run the [`crate::kernels`] instantiated for
//! its vector types inside a `#[target_feature]` function, are defined in
//! [`crate::backend`]. Generated code calls these methods and holds no
//! `unsafe` itself.

#[macro_use]
mod dot_registers;

mod activation;
mod avx2;
mod avx512;
mod avx512_vnni;
mod avx_vnni;
mod join;

pub use activation::{Avx2Activations, Avx512Activations, SseActivations, clipped_relu, sqr_clipped_relu};
pub use avx_vnni::AvxVnniDot;
pub use avx2::{Avx2Dot, Avx2Lanes};
pub use avx512::{Avx512Dot, Avx512Lanes};
#[cfg(test)]
pub(crate) use avx512_vnni::set_lane_blocks;
pub use avx512_vnni::{Avx512VnniDot, Avx512VnniDot256};
pub use join::join_16;

// The tokens of the instruction-set table's x86-64 rows.
nnue_isa::simd_isas!(backend_tokens);
