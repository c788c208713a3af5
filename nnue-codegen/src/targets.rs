//! The instruction sets code is generated for (the rows of the table in
//! `nnue-isa`: register widths and counts, features), and the kernel choices
//! per target.

use crate::tokens::lit;
use nnue_spec::ir::{Arch, Layer, LayerKind, TransformerOutput};
use proc_macro2::TokenStream;
use quote::quote;

/// A SIMD target.
pub struct Target {
    /// The generated module and the `Backend` variant.
    pub module: &'static str,
    pub variant: &'static str,
    /// Human name for docs.
    pub name: &'static str,
    /// The `target_arch` it is compiled for.
    pub arch: &'static str,
    /// Its module in `runtime::simd` (`x86` or `aarch64`).
    pub simd: &'static str,
    /// The token type in that module.
    pub token: &'static str,
    /// The `#[target_feature]` features its token proves (the token's
    /// `FEATURES`: both come from the same row of the table).
    pub features: &'static str,
    /// i16 lanes per accumulator register.
    pub lanes: usize,
    /// Accumulator registers a tile may hold. On x86 all 16 ymm registers
    /// (AVX2): the weight rows are memory operands of `vpaddw`/`vpsubw` and
    /// need none (measured on the 2560-lane SFNNv8 net: refresh -9 %,
    /// move + eval -6 % against 12). On AArch64 16 of the 32 vector
    /// registers, the rest for rows.
    pub max_tile: usize,
    /// i32 lanes of the widest dot-product register.
    pub dot_lanes: usize,
    /// Whether its activations leave their bytes in the packs' order for
    /// the next layer, whose weights are laid out for it at load (AVX2's
    /// `layers::packed`), instead of permuting them back.
    pub packs_activations: bool,
}

/// [`TARGETS`] from the instruction-set table's rows.
macro_rules! targets {
    (() $({
        name: $name:literal, variant: $variant:ident, module: $module:ident, title: $title:literal, arch: $arch:literal, simd: $simd:ident,
        features: $features:literal, detect: [$($detect:literal),*],
        lanes: $lanes:literal, permutes_lanes: $permutes:literal, max_tile: $max_tile:literal, dot_lanes: $dot_lanes:literal, packs_activations: $packs:literal,
        types: ($lanes_ty:ident, $dot:ident, $dot256:ident, $activations:ident),
        doc: $doc:literal,
    })*) => {
        /// Every target, x86-64 first: one per row of the instruction-set
        /// table ([`nnue_isa::simd_isas!`]).
        pub const TARGETS: &[Target] = &[$(Target {
            module: stringify!($module),
            variant: stringify!($variant),
            name: $title,
            arch: $arch,
            simd: stringify!($simd),
            token: stringify!($variant),
            features: $features,
            lanes: $lanes,
            max_tile: $max_tile,
            dot_lanes: $dot_lanes,
            packs_activations: $packs,
        }),*];
    };
}

nnue_isa::simd_isas!(targets);

/// i32 lanes of the narrow (256-bit) dot-product register of x86.
const NARROW_DOT_LANES: usize = 8;

impl Target {
    /// Registers per accumulator tile: the largest divisor of the register
    /// count of L1 that fits the register file.
    pub fn tile(&self, l1: usize) -> usize {
        let registers = l1 / self.lanes;
        (1..=self.max_tile.min(registers)).rev().find(|t| registers.is_multiple_of(*t)).unwrap_or(1)
    }

    /// How an affine layer is computed on this target. The weight layout
    /// (columns or rows, [`uses_columns`]) is the same on every target.
    pub fn affine(&self, layer: &Layer) -> AffineKernel {
        let LayerKind::Affine { padded_inputs, sparse, .. } = layer.kind else { panic!("not an affine layer") };
        let out = layer.output_dimensions;
        if !uses_columns(layer) {
            // At most 256 bits per load: a row layer reads concatenated
            // activations, each stored by its own kernel 256 bits or fewer
            // at a time, and a 512-bit load spanning two such stores is not
            // forwarded from them but waits until both reach the cache
            // (Stockfish 19's fc_2 with AVX-512 VNNI: forward 0.96, eval
            // 0.95 against 512-bit loads).
            let wide = self.dot_lanes <= NARROW_DOT_LANES;
            AffineKernel::Rows { wide: wide && padded_inputs % (4 * self.dot_lanes) == 0 }
        } else if out.is_multiple_of(self.dot_lanes) {
            AffineKernel::Columns { wide: true, regs: out / self.dot_lanes, sparse }
        } else {
            AffineKernel::Columns { wide: false, regs: out / NARROW_DOT_LANES, sparse }
        }
    }

    /// Bits of its widest or narrow register, for docs.
    pub fn register_bits(&self, wide: bool) -> usize {
        if wide { self.dot_lanes * 32 } else { NARROW_DOT_LANES * 32 }
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

/// Whether an affine layer's weights use the column layout (on every
/// target, for every register width): when its outputs fill whole 256-bit
/// registers.
pub fn uses_columns(layer: &Layer) -> bool {
    layer.output_dimensions.is_multiple_of(NARROW_DOT_LANES)
}

/// For an affine layer computed by the column kernel, which of its input
/// chunks the kernel may add in i16 lanes: `Any` two when sparse (the
/// non-zero ones in order), else `Consecutive` ones.
pub fn column_pairs(layer: &Layer) -> Option<TokenStream> {
    let LayerKind::Affine { sparse, .. } = layer.kind else { return None };
    uses_columns(layer).then(|| if sparse { quote!(Any) } else { quote!(Consecutive) })
}

/// The transformer's output kernel call, for a backend token `cpu`. Where
/// the architecture [lists the non-zero chunks](Arch::lists_nonzero_chunks),
/// the kernel's `_listed` form, also given `nonzero`.
pub fn transform_call(arch: &Arch) -> TokenStream {
    let listed = arch.lists_nonzero_chunks();
    let call = |kernel: &str, params: TokenStream| {
        if listed {
            let kernel = crate::tokens::ident(&format!("{kernel}_listed"));
            quote!(cpu.#kernel::<L1, #params, NONZERO_CHUNKS>(&accumulator.values, order, slots, nonzero))
        } else {
            let kernel = crate::tokens::ident(kernel);
            quote!(cpu.#kernel::<L1, #params>(&accumulator.values, order, slots))
        }
    };
    match arch.transformer.output {
        TransformerOutput::ClippedReLU { max } => {
            let max = lit(i64::from(max));
            call("transform_clip", quote!(#max))
        }
        TransformerOutput::Pairwise { max, divisor } => {
            let shift = i64::from(divisor.trailing_zeros());
            let max16 = lit(i64::from(max));
            if shift <= 16 && i64::from(max) << (16 - shift) < 1 << 15 {
                let shl = lit(16 - shift);
                call("transform_pairwise_mulhi_signed", quote!(#max16, #shl))
            } else if shift <= 16 && i64::from(max) << (16 - shift) < 1 << 16 {
                let shl = lit(16 - shift);
                call("transform_pairwise_mulhi", quote!(#max16, #shl))
            } else {
                let shift = lit(shift);
                call("transform_pairwise_mullo", quote!(#max16, #shift))
            }
        }
        // A copy: the scalar loop, compiled for the target.
        TransformerOutput::Accumulators => {
            let rt = crate::tokens::runtime();
            quote!(#rt::scalar::transform_accumulators(&accumulator.values, order, slots))
        }
    }
}
