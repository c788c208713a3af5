//! The backend a network runs on: a detected instruction set's token.

use crate::isa::{Isa, IsaError};

/// A usable backend. The SIMD variants hold tokens that exist only when the
/// CPU supports them, so dispatching on this never executes an unsupported
/// instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2(crate::simd::x86::Avx2),
    #[cfg(target_arch = "x86_64")]
    AvxVnni(crate::simd::x86::AvxVnni),
    #[cfg(target_arch = "x86_64")]
    Avx512(crate::simd::x86::Avx512),
    #[cfg(target_arch = "x86_64")]
    Avx512Vnni(crate::simd::x86::Avx512Vnni),
    #[cfg(target_arch = "aarch64")]
    Neon(crate::simd::aarch64::Neon),
    #[cfg(target_arch = "aarch64")]
    NeonDotprod(crate::simd::aarch64::NeonDotprod),
}

impl Backend {
    /// The backend for `isa`, or why this CPU cannot run it.
    pub fn new(isa: Isa) -> Result<Backend, IsaError> {
        let unavailable = || IsaError::Unavailable { isa };
        #[cfg(target_arch = "x86_64")]
        {
            use crate::simd::x86;
            match isa {
                Isa::Scalar => Ok(Backend::Scalar),
                Isa::Avx2 => x86::Avx2::new().map(Backend::Avx2).ok_or_else(unavailable),
                Isa::AvxVnni => x86::AvxVnni::new().map(Backend::AvxVnni).ok_or_else(unavailable),
                Isa::Avx512 => x86::Avx512::new().map(Backend::Avx512).ok_or_else(unavailable),
                Isa::Avx512Vnni => x86::Avx512Vnni::new().map(Backend::Avx512Vnni).ok_or_else(unavailable),
                Isa::Neon | Isa::NeonDotprod => Err(unavailable()),
            }
        }
        #[cfg(target_arch = "aarch64")]
        {
            use crate::simd::aarch64;
            match isa {
                Isa::Scalar => Ok(Backend::Scalar),
                Isa::Neon => aarch64::Neon::new().map(Backend::Neon).ok_or_else(unavailable),
                Isa::NeonDotprod => aarch64::NeonDotprod::new().map(Backend::NeonDotprod).ok_or_else(unavailable),
                _ => Err(unavailable()),
            }
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        match isa {
            Isa::Scalar => Ok(Backend::Scalar),
            _ => Err(unavailable()),
        }
    }

    /// Its instruction set.
    pub fn isa(self) -> Isa {
        match self {
            Backend::Scalar => Isa::Scalar,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => Isa::Avx2,
            #[cfg(target_arch = "x86_64")]
            Backend::AvxVnni(_) => Isa::AvxVnni,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512(_) => Isa::Avx512,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512Vnni(_) => Isa::Avx512Vnni,
            #[cfg(target_arch = "aarch64")]
            Backend::Neon(_) => Isa::Neon,
            #[cfg(target_arch = "aarch64")]
            Backend::NeonDotprod(_) => Isa::NeonDotprod,
        }
    }

    /// i16 lanes per accumulator register: the block size of the
    /// transformer's lane order (see [`crate::kernels::layout`]); `None` for
    /// backends that keep logical order: scalar, and NEON (whose 128-bit
    /// packing keeps lane order).
    pub fn accumulator_lanes(self) -> Option<usize> {
        match self.isa() {
            Isa::Scalar | Isa::Neon | Isa::NeonDotprod => None,
            Isa::Avx2 | Isa::AvxVnni => Some(16),
            Isa::Avx512 | Isa::Avx512Vnni => Some(32),
        }
    }
}

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
