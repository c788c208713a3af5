//! AArch64 backends: NEON (the AArch64 baseline) and NEON with the
//! dot-product extension. Tokens as on x86 ([`Neon::new`] and
//! [`NeonDotprod::new`] return `None` on a CPU without the instruction set).

mod activation;
mod join;
mod neon;
mod neon_dotprod;

pub use activation::{clipped_relu, sqr_clipped_relu, NeonActivations};
pub use join::join_16;
pub use neon::{NeonDot, NeonLanes};
pub use neon_dotprod::NeonDotprodDot;

use crate::Isa;

backend_token!(
    /// NEON: 8 accumulator lanes per register, dot products from widening
    /// multiplies and pairwise additions.
    Neon, Isa::Neon, "neon", NeonLanes, NeonDot, NeonDot, NeonActivations
);
backend_token!(
    /// NEON with `sdot` dot products.
    NeonDotprod, Isa::NeonDotprod, "neon,dotprod", NeonLanes, NeonDotprodDot, NeonDotprodDot, NeonActivations
);
