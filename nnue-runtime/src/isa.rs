//! Instruction sets: names, run-time detection (once), and choice.
//!
//! This is the one place that knows which backends exist and how to detect
//! them. Detection uses `is_x86_feature_detected!` (and
//! `is_aarch64_feature_detected!`), which resolves at compile
//! time when the features are enabled for the build (`-C target-cpu=...`)
//! and otherwise asks the CPU once and caches the answer.
//!
//! ```
//! use nnue_runtime::Isa;
//!
//! let isa = Isa::from_name("avx512-vnni")?; // as `--isa` and `NNUE_ISA` spell it
//! assert_eq!(isa.name(), "avx512-vnni");
//! assert!(Isa::from_name("sse9").is_err());
//! // What this CPU runs, scalar first and the best last; asking for
//! // anything else is an error, never an illegal instruction.
//! let available = Isa::available();
//! assert_eq!(available.first(), Some(&Isa::Scalar));
//! assert_eq!(available.last(), Some(&Isa::best()));
//! assert_eq!(isa.require().is_ok(), available.contains(&isa));
//! # Ok::<(), nnue_runtime::IsaError>(())
//! ```

use std::fmt;
use std::sync::OnceLock;

/// A kernel backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Isa {
    /// Plain Rust: the reference every other backend equals bit for bit.
    Scalar,
    /// AVX2 (x86-64).
    Avx2,
    /// AVX2 with AVX-VNNI dot products.
    AvxVnni,
    /// AVX-512 F/BW/VL.
    Avx512,
    /// AVX-512 F/BW/VL with AVX-512 VNNI dot products.
    Avx512Vnni,
    /// NEON (AArch64).
    Neon,
    /// NEON with the dot-product extension (`sdot`).
    NeonDotprod,
}

/// The environment variable that overrides the automatic choice.
pub const ISA_ENV: &str = "NNUE_ISA";

/// A backend that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IsaError {
    #[error("unknown instruction set `{0}` (known: {known})", known = Isa::names())]
    Unknown(String),
    #[error("this CPU lacks {isa} (available: {available})", available = Isa::available_names())]
    Unavailable { isa: Isa },
}

impl Isa {
    /// Every backend, slowest first per architecture.
    pub const ALL: [Isa; 7] = [Isa::Scalar, Isa::Avx2, Isa::AvxVnni, Isa::Avx512, Isa::Avx512Vnni, Isa::Neon, Isa::NeonDotprod];

    /// The backends compiled for this target architecture (the others never
    /// are available).
    pub const NATIVE: &'static [Isa] = if cfg!(target_arch = "x86_64") {
        &[Isa::Scalar, Isa::Avx2, Isa::AvxVnni, Isa::Avx512, Isa::Avx512Vnni]
    } else if cfg!(target_arch = "aarch64") {
        &[Isa::Scalar, Isa::Neon, Isa::NeonDotprod]
    } else {
        &[Isa::Scalar]
    };

    /// The name used by `--isa` and `NNUE_ISA`.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Scalar => "scalar",
            Isa::Avx2 => "avx2",
            Isa::AvxVnni => "avx-vnni",
            Isa::Avx512 => "avx512",
            Isa::Avx512Vnni => "avx512-vnni",
            Isa::Neon => "neon",
            Isa::NeonDotprod => "neon-dotprod",
        }
    }

    /// The backend with this name.
    pub fn from_name(name: &str) -> Result<Isa, IsaError> {
        Isa::ALL.into_iter().find(|i| i.name() == name).ok_or_else(|| IsaError::Unknown(name.to_owned()))
    }

    /// Whether this CPU can run the backend (detected once).
    pub fn is_available(self) -> bool {
        static AVAILABLE: OnceLock<[bool; 7]> = OnceLock::new();
        AVAILABLE.get_or_init(|| Isa::ALL.map(detect))[self as usize]
    }

    /// The backend if this CPU can run it.
    pub fn require(self) -> Result<Isa, IsaError> {
        if self.is_available() { Ok(self) } else { Err(IsaError::Unavailable { isa: self }) }
    }

    /// The fastest backend this CPU runs. On this project's reference machine
    /// (and in Stockfish's measurements) AVX-512 is not reliably faster than
    /// AVX2 for these kernels; the order here is by capability and the
    /// benchmarks report each.
    pub fn best() -> Isa {
        *Isa::ALL.iter().rev().find(|i| i.is_available()).expect("scalar is always available")
    }

    /// `NNUE_ISA` if set (an error if it names an unknown or unavailable
    /// backend), else [`Isa::best`].
    pub fn from_env_or_best() -> Result<Isa, IsaError> {
        match std::env::var(ISA_ENV) {
            Ok(name) if !name.is_empty() => Isa::from_name(&name)?.require(),
            _ => Ok(Isa::best()),
        }
    }

    /// Every backend this CPU runs.
    pub fn available() -> Vec<Isa> {
        Isa::ALL.into_iter().filter(|i| i.is_available()).collect()
    }

    fn names() -> String {
        Isa::ALL.map(Isa::name).join(", ")
    }

    fn available_names() -> String {
        Isa::available().into_iter().map(Isa::name).collect::<Vec<_>>().join(", ")
    }
}

impl fmt::Display for Isa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Parses the names [`Isa::name`] gives (`"avx2".parse::<Isa>()`); whether
/// the CPU runs it is a separate question ([`Isa::require`]).
impl std::str::FromStr for Isa {
    type Err = IsaError;

    fn from_str(name: &str) -> Result<Isa, IsaError> {
        Isa::from_name(name)
    }
}

#[cfg(target_arch = "x86_64")]
fn detect(isa: Isa) -> bool {
    let avx512 = || {
        is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw") && is_x86_feature_detected!("avx512vl")
    };
    // Every AVX2 CPU has POPCNT; the kernels use it for the sparse layer.
    let avx2 = || is_x86_feature_detected!("avx2") && is_x86_feature_detected!("popcnt");
    match isa {
        Isa::Scalar => true,
        Isa::Avx2 => avx2(),
        Isa::AvxVnni => avx2() && is_x86_feature_detected!("avxvnni"),
        Isa::Avx512 => avx2() && avx512(),
        Isa::Avx512Vnni => avx2() && avx512() && is_x86_feature_detected!("avx512vnni"),
        Isa::Neon | Isa::NeonDotprod => false,
    }
}

#[cfg(target_arch = "aarch64")]
fn detect(isa: Isa) -> bool {
    use std::arch::is_aarch64_feature_detected;
    match isa {
        Isa::Scalar => true,
        Isa::Neon => is_aarch64_feature_detected!("neon"),
        Isa::NeonDotprod => is_aarch64_feature_detected!("neon") && is_aarch64_feature_detected!("dotprod"),
        Isa::Avx2 | Isa::AvxVnni | Isa::Avx512 | Isa::Avx512Vnni => false,
    }
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn detect(isa: Isa) -> bool {
    isa == Isa::Scalar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for isa in Isa::ALL {
            assert_eq!(Isa::from_name(isa.name()), Ok(isa));
            assert_eq!(isa.to_string().parse::<Isa>(), Ok(isa));
        }
        assert_eq!(Isa::from_name("sse9"), Err(IsaError::Unknown("sse9".into())));
        assert_eq!("AVX2".parse::<Isa>(), Err(IsaError::Unknown("AVX2".into())));
    }

    #[test]
    fn scalar_is_always_available_and_best_is_available() {
        assert!(Isa::Scalar.is_available());
        assert!(Isa::best().is_available());
    }
}
