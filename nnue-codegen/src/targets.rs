//! The instruction sets code is generated for, and the kernel choices per
//! target: the one place that knows register widths and counts.

use nnue_spec::ir::{Arch, Layer, LayerKind, TransformerOutput};
use proc_macro2::TokenStream;
use quote::quote;
use crate::tokens::lit;

/// A SIMD target.
pub struct Target {
    /// The generated module and the `Backend` variant.
    pub module: &'static str,
    pub variant: &'static str,
    /// Human name for docs.
    pub name: &'static str,
    /// The token type in `runtime::simd::x86`.
    pub token: &'static str,
    /// i16 lanes per accumulator register.
    pub lanes: usize,
    /// Accumulator registers a tile may hold (the rest hold weight rows).
    pub max_tile: usize,
    /// i32 lanes of the widest dot-product register.
    pub dot_lanes: usize,
}

/// Every x86-64 target.
pub const X86: [Target; 4] = [
    Target { module: "avx2", variant: "Avx2", name: "AVX2", token: "Avx2", lanes: 16, max_tile: 12, dot_lanes: 8 },
    Target { module: "avx_vnni", variant: "AvxVnni", name: "AVX2 + AVX-VNNI", token: "AvxVnni", lanes: 16, max_tile: 12, dot_lanes: 8 },
    Target { module: "avx512", variant: "Avx512", name: "AVX-512 F/BW/VL", token: "Avx512", lanes: 32, max_tile: 16, dot_lanes: 16 },
    Target {
        module: "avx512_vnni",
        variant: "Avx512Vnni",
        name: "AVX-512 F/BW/VL + VNNI",
        token: "Avx512Vnni",
        lanes: 32,
        max_tile: 16,
        dot_lanes: 16,
    },
];

/// i32 lanes of the narrow (256-bit) dot-product register.
const NARROW_DOT_LANES: usize = 8;

impl Target {
    /// Registers per accumulator tile: the largest divisor of the register
    /// count of L1 that fits the register file.
    pub fn tile(&self, l1: usize) -> usize {
        let registers = l1 / self.lanes;
        (1..=self.max_tile.min(registers)).rev().find(|t| registers.is_multiple_of(*t)).unwrap_or(1)
    }

    /// How an affine layer is computed on this target.
    pub fn affine(&self, layer: &Layer) -> AffineKernel {
        let LayerKind::Affine { padded_inputs, sparse } = layer.kind else { panic!("not an affine layer") };
        let out = layer.output_dimensions;
        if out.is_multiple_of(self.dot_lanes) {
            AffineKernel::Columns { wide: true, regs: out / self.dot_lanes, sparse }
        } else if out.is_multiple_of(NARROW_DOT_LANES) {
            AffineKernel::Columns { wide: self.dot_lanes == NARROW_DOT_LANES, regs: out / NARROW_DOT_LANES, sparse }
        } else {
            AffineKernel::Rows { wide: padded_inputs % (4 * self.dot_lanes) == 0 }
        }
    }
}

/// The kernel of an affine layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AffineKernel {
    /// Column kernel (weights in column layout), `regs` output registers.
    Columns { wide: bool, regs: usize, sparse: bool },
    /// Row kernel (row-major weights).
    Rows { wide: bool },
}

/// Whether an affine layer's weights use the column layout on x86 (the same
/// layout for every width).
pub fn uses_columns(layer: &Layer) -> bool {
    matches!(X86[0].affine(layer), AffineKernel::Columns { .. })
}

/// The transformer's output kernel call, for a backend token `cpu`.
pub fn transform_call(arch: &Arch) -> TokenStream {
    match arch.transformer.output {
        TransformerOutput::ClippedReLU { max } => {
            let max = lit(i64::from(max));
            quote!(cpu.transform_clip::<L1, #max>(&accumulator.values, order, output))
        }
        TransformerOutput::Pairwise { max, divisor } => {
            let shift = i64::from(divisor.trailing_zeros());
            let max16 = lit(i64::from(max));
            if shift <= 16 && i64::from(max) << (16 - shift) < 1 << 15 {
                let shl = lit(16 - shift);
                quote!(cpu.transform_pairwise_mulhi_signed::<L1, #max16, #shl>(&accumulator.values, order, output))
            } else if shift <= 16 && i64::from(max) << (16 - shift) < 1 << 16 {
                let shl = lit(16 - shift);
                quote!(cpu.transform_pairwise_mulhi::<L1, #max16, #shl>(&accumulator.values, order, output))
            } else {
                let shift = lit(shift);
                quote!(cpu.transform_pairwise_mullo::<L1, #max16, #shift>(&accumulator.values, order, output))
            }
        }
    }
}
