//! Instruction sets: names, run-time detection (once), and choice.
//!
//! Which backends exist and which features each needs is the table in
//! `nnue-isa` ([`nnue_isa::simd_isas!`]); `Isa`, its names and detection are
//! derived from it here, as `Backend`, the tokens and the code generator's
//! targets are elsewhere. Detection uses `is_x86_feature_detected!` (and
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

/// The backends: scalar, then one per row of the instruction-set table
/// ([`nnue_isa::simd_isas!`]), in its order.
macro_rules! isa_enum {
    (() $({
        name: $name:literal, variant: $variant:ident, module: $module:ident, title: $title:literal, arch: $arch:literal, simd: $simd:ident,
        features: $features:literal, detect: [$($detect:tt),*],
        lanes: $lanes:literal, permutes_lanes: $permutes:literal, max_tile: $max_tile:literal, dot_lanes: $dot_lanes:literal, packs_activations: $packs:literal,
        types: ($lanes_ty:ident, $dot:ident, $dot256:ident, $activations:ident),
        doc: $doc:literal,
    })*) => {
        /// A kernel backend.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Isa {
            /// Plain Rust: the reference every other backend equals bit for bit.
            Scalar,
            $(#[doc = $doc] $variant,)*
        }

        impl Isa {
            /// Every backend, slowest first per architecture.
            pub const ALL: [Isa; 1 $(+ { let _ = $name; 1 })*] = [Isa::Scalar, $(Isa::$variant),*];

            /// The name used by `--isa` and `NNUE_ISA`.
            pub fn name(self) -> &'static str {
                match self {
                    Isa::Scalar => "scalar",
                    $(Isa::$variant => $name,)*
                }
            }

            /// The `target_arch` the backend exists on (`None`: every one).
            const fn target_arch(self) -> Option<&'static str> {
                match self {
                    Isa::Scalar => None,
                    $(Isa::$variant => Some($arch),)*
                }
            }
        }

        /// Whether this CPU runs `isa`: every feature of its row, asked
        /// once each (cached by the standard library, or known at compile
        /// time where the build enables them).
        fn detect(isa: Isa) -> bool {
            match isa {
                Isa::Scalar => true,
                $(Isa::$variant => {
                    #[cfg(target_arch = $arch)]
                    {
                        true $(&& detected!($simd, $detect))*
                    }
                    #[cfg(not(target_arch = $arch))]
                    {
                        false
                    }
                })*
            }
        }
    };
}

/// Run-time detection of one feature on its architecture.
macro_rules! detected {
    (x86, $feature:tt) => {
        std::arch::is_x86_feature_detected!($feature)
    };
    (aarch64, $feature:tt) => {
        std::arch::is_aarch64_feature_detected!($feature)
    };
}

nnue_isa::simd_isas!(isa_enum);

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
    /// The backends compiled for this target architecture (the others never
    /// are available): scalar and those of the table's rows for it.
    pub const NATIVE: &'static [Isa] = {
        const ALL: usize = Isa::ALL.len();
        const NATIVE: ([Isa; ALL], usize) = {
            let mut native = [Isa::Scalar; ALL];
            let (mut n, mut i) = (0, 0);
            while i < ALL {
                let isa = Isa::ALL[i];
                let here = match isa.target_arch() {
                    None => true,
                    Some(arch) => same(arch, TARGET_ARCH),
                };
                if here {
                    native[n] = isa;
                    n += 1;
                }
                i += 1;
            }
            (native, n)
        };
        NATIVE.0.split_at(NATIVE.1).0
    };

    /// The backend with this name.
    pub fn from_name(name: &str) -> Result<Isa, IsaError> {
        Isa::ALL.into_iter().find(|i| i.name() == name).ok_or_else(|| IsaError::Unknown(name.to_owned()))
    }

    /// Whether this CPU can run the backend (detected once).
    pub fn is_available(self) -> bool {
        static AVAILABLE: OnceLock<[bool; Isa::ALL.len()]> = OnceLock::new();
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

/// Whether two strings are equal (in a `const`).
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// `target_arch` of this build.
const TARGET_ARCH: &str = if cfg!(target_arch = "x86_64") {
    "x86_64"
} else if cfg!(target_arch = "aarch64") {
    "aarch64"
} else {
    "other"
};

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
