//! The backend a network runs on: a detected instruction set's token
//! ([`Backend`]), and what each token runs: the [`crate::kernels`]
//! instantiated for its ISA's vector types, as methods of the token types
//! of [`crate::simd`] (and of their [`Inside`](crate::simd::Inside)).

use crate::platform::isa::{Isa, IsaError};

#[macro_use]
mod tokens;
#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(target_arch = "x86_64")]
mod x86;

/// `Backend`: scalar, then a variant per row of the instruction-set table
/// ([`nnue_isa::simd_isas!`]) holding its token, on its architecture.
macro_rules! backend_enum {
    (() $({
        name: $name:literal, variant: $variant:ident, module: $module:ident, title: $title:literal, arch: $arch:literal, simd: $simd:ident,
        features: $features:literal, detect: [$($detect:literal),*],
        lanes: $lanes:literal, permutes_lanes: $permutes:literal, max_tile: $max_tile:literal, dot_lanes: $dot_lanes:literal, packs_activations: $packs:literal,
        types: ($lanes_ty:ident, $dot:ident, $dot256:ident, $activations:ident),
        doc: $doc:literal,
    })*) => {
        /// A usable backend. The SIMD variants hold tokens that exist only when the
        /// CPU supports them, so dispatching on this never executes an unsupported
        /// instruction.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Backend {
            Scalar,
            $(#[cfg(target_arch = $arch)] $variant(crate::simd::$simd::$variant),)*
        }

        impl Backend {
            /// The backend for `isa`, or why this CPU cannot run it.
            pub fn new(isa: Isa) -> Result<Backend, IsaError> {
                match isa {
                    Isa::Scalar => Ok(Backend::Scalar),
                    $(Isa::$variant => {
                        #[cfg(target_arch = $arch)]
                        {
                            crate::simd::$simd::$variant::new().map(Backend::$variant).ok_or(IsaError::Unavailable { isa })
                        }
                        #[cfg(not(target_arch = $arch))]
                        {
                            Err(IsaError::Unavailable { isa })
                        }
                    })*
                }
            }

            /// Its instruction set.
            pub fn isa(self) -> Isa {
                match self {
                    Backend::Scalar => Isa::Scalar,
                    $(#[cfg(target_arch = $arch)] Backend::$variant(_) => Isa::$variant,)*
                }
            }

            /// i16 lanes per accumulator register: the block size of the
            /// transformer's lane order (see [`crate::kernels::layout`]); `None` for
            /// backends that keep logical order: scalar, and those whose packing
            /// keeps lane order (NEON's 128-bit registers).
            pub fn accumulator_lanes(self) -> Option<usize> {
                match self.isa() {
                    Isa::Scalar => None,
                    $(Isa::$variant => $permutes.then_some($lanes),)*
                }
            }
        }
    };
}

nnue_isa::simd_isas!(backend_enum);

/// One layer's output, as handed to a trace callback.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LayerOutput<'a> {
    I32(&'a [i32]),
    U8(&'a [u8]),
    F32(&'a [f32]),
}

impl LayerOutput<'_> {
    /// The values widened to i32; f32 values as their bits (equal lists
    /// then mean bit-identical values).
    pub fn to_vec(self) -> Vec<i32> {
        match self {
            LayerOutput::I32(v) => v.to_vec(),
            LayerOutput::U8(v) => v.iter().map(|&x| i32::from(x)).collect(),
            LayerOutput::F32(v) => v.iter().map(|&x| x.to_bits() as i32).collect(),
        }
    }
}
