//! x86-64 backends. Each is a token type, obtainable only through run-time
//! detection ([`Avx2::new`] and friends return `None` on a CPU without the
//! instruction set), whose safe methods run the [`crate::kernels`]
//! instantiated for its vector types inside a `#[target_feature]` function.
//! Generated code calls these methods and holds no `unsafe` itself.

mod activation;
mod avx2;
mod avx512;
mod avx512_vnni;
mod avx_vnni;

pub use activation::{clipped_relu, sqr_clipped_relu};
pub use avx2::{Avx2Dot, Avx2Lanes};
pub use avx512::{Avx512Dot, Avx512Lanes};
pub use avx512_vnni::{Avx512VnniDot, Avx512VnniDot256};
pub use avx_vnni::AvxVnniDot;

use crate::kernels;
use crate::Isa;

macro_rules! backend {
    ($(#[$doc:meta])* $token:ident, $isa:expr, $features:literal, $lanes:ty, $dot:ty, $dot256:ty) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $token(());

        impl $token {
            /// The token, if this CPU supports the instruction set.
            pub fn new() -> Option<Self> {
                $isa.is_available().then_some($token(()))
            }

            /// [`kernels::accumulate`] with this ISA's registers.
            #[allow(clippy::too_many_arguments)]
            pub fn accumulate<const L1: usize, const TILE: usize, const B: usize>(
                self,
                weights: &[i16],
                psqt_weights: &[i32],
                base: &[i16; L1],
                psqt_base: &[i32; B],
                removed: &[u32],
                added: &[u32],
                out: &mut [i16; L1],
                psqt_out: &mut [i32; B],
            ) {
                /// # Safety
                /// The CPU supports the token's instruction set.
                #[target_feature(enable = $features)]
                #[allow(clippy::too_many_arguments)]
                unsafe fn run<const L1: usize, const TILE: usize, const B: usize>(
                    weights: &[i16],
                    psqt_weights: &[i32],
                    base: &[i16; L1],
                    psqt_base: &[i32; B],
                    removed: &[u32],
                    added: &[u32],
                    out: &mut [i16; L1],
                    psqt_out: &mut [i32; B],
                ) {
                    // SAFETY: this function's target features are enabled.
                    unsafe {
                        kernels::accumulate::<$lanes, L1, TILE, B>(
                            weights, psqt_weights, base, psqt_base, removed, added, out, psqt_out,
                        )
                    }
                }
                // SAFETY: the token exists only if the CPU supports the ISA.
                unsafe { run::<L1, TILE, B>(weights, psqt_weights, base, psqt_base, removed, added, out, psqt_out) }
            }

            /// [`kernels::transform_clip`] with this ISA's registers.
            pub fn transform_clip<const L1: usize, const MAX: i16>(
                self,
                acc: &[[i16; L1]; 2],
                order: [usize; 2],
                out: &mut [u8],
            ) {
                /// # Safety
                /// The CPU supports the token's instruction set.
                #[target_feature(enable = $features)]
                unsafe fn run<const L1: usize, const MAX: i16>(acc: &[[i16; L1]; 2], order: [usize; 2], out: &mut [u8]) {
                    // SAFETY: this function's target features are enabled.
                    unsafe { kernels::transform_clip::<$lanes, L1, MAX>(acc, order, out) }
                }
                // SAFETY: the token exists only if the CPU supports the ISA.
                unsafe { run::<L1, MAX>(acc, order, out) }
            }

            /// [`kernels::transform_pairwise_mulhi`] with this ISA's registers.
            pub fn transform_pairwise_mulhi<const L1: usize, const MAX: i16, const SHL: i32>(
                self,
                acc: &[[i16; L1]; 2],
                order: [usize; 2],
                out: &mut [u8],
            ) {
                /// # Safety
                /// The CPU supports the token's instruction set.
                #[target_feature(enable = $features)]
                unsafe fn run<const L1: usize, const MAX: i16, const SHL: i32>(
                    acc: &[[i16; L1]; 2],
                    order: [usize; 2],
                    out: &mut [u8],
                ) {
                    // SAFETY: this function's target features are enabled.
                    unsafe { kernels::transform_pairwise_mulhi::<$lanes, L1, MAX, SHL>(acc, order, out) }
                }
                // SAFETY: the token exists only if the CPU supports the ISA.
                unsafe { run::<L1, MAX, SHL>(acc, order, out) }
            }

            /// [`kernels::transform_pairwise_mulhi_signed`] with this ISA's registers.
            pub fn transform_pairwise_mulhi_signed<const L1: usize, const MAX: i16, const SHL: i32>(
                self,
                acc: &[[i16; L1]; 2],
                order: [usize; 2],
                out: &mut [u8],
            ) {
                /// # Safety
                /// The CPU supports the token's instruction set.
                #[target_feature(enable = $features)]
                unsafe fn run<const L1: usize, const MAX: i16, const SHL: i32>(
                    acc: &[[i16; L1]; 2],
                    order: [usize; 2],
                    out: &mut [u8],
                ) {
                    // SAFETY: this function's target features are enabled.
                    unsafe { kernels::transform_pairwise_mulhi_signed::<$lanes, L1, MAX, SHL>(acc, order, out) }
                }
                // SAFETY: the token exists only if the CPU supports the ISA.
                unsafe { run::<L1, MAX, SHL>(acc, order, out) }
            }

            /// [`kernels::transform_pairwise_mullo`] with this ISA's registers.
            pub fn transform_pairwise_mullo<const L1: usize, const MAX: i16, const SHR: i32>(
                self,
                acc: &[[i16; L1]; 2],
                order: [usize; 2],
                out: &mut [u8],
            ) {
                /// # Safety
                /// The CPU supports the token's instruction set.
                #[target_feature(enable = $features)]
                unsafe fn run<const L1: usize, const MAX: i16, const SHR: i32>(
                    acc: &[[i16; L1]; 2],
                    order: [usize; 2],
                    out: &mut [u8],
                ) {
                    // SAFETY: this function's target features are enabled.
                    unsafe { kernels::transform_pairwise_mullo::<$lanes, L1, MAX, SHR>(acc, order, out) }
                }
                // SAFETY: the token exists only if the CPU supports the ISA.
                unsafe { run::<L1, MAX, SHR>(acc, order, out) }
            }

            backend!(@affine $features, affine_columns, affine_rows, $dot);
            backend!(@affine $features, affine_columns_256, affine_rows_256, $dot256);
        }
    };

    (@affine $features:literal, $columns:ident, $rows:ident, $dot:ty) => {
        /// [`kernels::affine_columns`] with this ISA's dot products of this width.
        pub fn $columns<const PADDED: usize, const CHUNKS: usize, const OUT: usize, const REGS: usize, const SPARSE: bool>(
            self,
            biases: &[i32; OUT],
            weights: &[i8],
            input: &[u8; PADDED],
            out: &mut [i32; OUT],
        ) {
            /// # Safety
            /// The CPU supports the token's instruction set.
            #[target_feature(enable = $features)]
            unsafe fn run<const PADDED: usize, const CHUNKS: usize, const OUT: usize, const REGS: usize, const SPARSE: bool>(
                biases: &[i32; OUT],
                weights: &[i8],
                input: &[u8; PADDED],
                out: &mut [i32; OUT],
            ) {
                // SAFETY: this function's target features are enabled.
                unsafe { kernels::affine_columns::<$dot, PADDED, CHUNKS, OUT, REGS, SPARSE>(biases, weights, input, out) }
            }
            // SAFETY: the token exists only if the CPU supports the ISA.
            unsafe { run::<PADDED, CHUNKS, OUT, REGS, SPARSE>(biases, weights, input, out) }
        }

        /// [`kernels::affine_rows`] with this ISA's dot products of this width.
        pub fn $rows<const PADDED: usize, const OUT: usize>(
            self,
            biases: &[i32; OUT],
            weights: &[i8],
            input: &[u8; PADDED],
            out: &mut [i32; OUT],
        ) {
            /// # Safety
            /// The CPU supports the token's instruction set.
            #[target_feature(enable = $features)]
            unsafe fn run<const PADDED: usize, const OUT: usize>(
                biases: &[i32; OUT],
                weights: &[i8],
                input: &[u8; PADDED],
                out: &mut [i32; OUT],
            ) {
                // SAFETY: this function's target features are enabled.
                unsafe { kernels::affine_rows::<$dot, PADDED, OUT>(biases, weights, input, out) }
            }
            // SAFETY: the token exists only if the CPU supports the ISA.
            unsafe { run::<PADDED, OUT>(biases, weights, input, out) }
        }
    };
}

backend!(
    /// AVX2: 16 accumulator lanes per register, `vpmaddubsw` dot products.
    Avx2, Isa::Avx2, "avx2", Avx2Lanes, Avx2Dot, Avx2Dot
);
backend!(
    /// AVX2 with AVX-VNNI `vpdpbusd` dot products.
    AvxVnni, Isa::AvxVnni, "avx2,avxvnni", Avx2Lanes, AvxVnniDot, AvxVnniDot
);
backend!(
    /// AVX-512 F/BW/VL: 32 accumulator lanes per register, 512-bit
    /// `vpmaddubsw` dot products (256-bit for narrow layers).
    Avx512, Isa::Avx512, "avx2,avx512f,avx512bw,avx512vl", Avx512Lanes, Avx512Dot, Avx2Dot
);
backend!(
    /// AVX-512 with AVX-512 VNNI `vpdpbusd` (512-bit, and 256-bit for narrow
    /// layers).
    Avx512Vnni, Isa::Avx512Vnni, "avx2,avx512f,avx512bw,avx512vl,avx512vnni", Avx512Lanes, Avx512VnniDot, Avx512VnniDot256
);
