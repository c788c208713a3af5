//! The AArch64 tokens' kernels: those of every row of the instruction-set
//! table, expanded here, where the rows' types are in scope.

use crate::simd::aarch64::*;

// The kernels of the instruction-set table's AArch64 rows.
nnue_isa::simd_isas!(token_kernels);
