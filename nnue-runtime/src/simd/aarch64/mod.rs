//! AArch64 backends: NEON (the AArch64 baseline) and NEON with the
//! dot-product extension. Tokens as on x86 ([`Neon::new`] and
//! [`NeonDotprod::new`] return `None` on a CPU without the instruction set).

mod activation;
mod join;
mod neon;
mod neon_dotprod;

pub use activation::{NeonActivations, clipped_relu, sqr_clipped_relu};
pub use join::join_16;
pub use neon::{NeonDot, NeonLanes};
pub use neon_dotprod::NeonDotprodDot;

// The tokens of the instruction-set table's AArch64 rows.
nnue_isa::simd_isas!(backend_tokens);
