//! The generated forward passes are compiled with the `#[target_feature]`
//! features of the code generator's target table; the backend tokens that
//! make calling them safe prove the features of the runtime's table. The
//! two must name the same features for every target.

use nnue_codegen::targets::TARGETS;

/// The runtime token's features for a target module, on the architecture
/// this test is compiled for (None for the other architecture's targets).
fn token_features(module: &str) -> Option<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        use nnue::runtime::simd::x86::{Avx2, Avx512, Avx512Vnni, AvxVnni};
        match module {
            "avx2" => return Some(Avx2::FEATURES),
            "avx_vnni" => return Some(AvxVnni::FEATURES),
            "avx512" => return Some(Avx512::FEATURES),
            "avx512_vnni" => return Some(Avx512Vnni::FEATURES),
            _ => {}
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        use nnue::runtime::simd::aarch64::{Neon, NeonDotprod};
        match module {
            "neon" => return Some(Neon::FEATURES),
            "neon_dotprod" => return Some(NeonDotprod::FEATURES),
            _ => {}
        }
    }
    let _ = module;
    None
}

#[test]
fn forward_passes_are_compiled_for_what_their_tokens_prove() {
    let mut checked = 0;
    for target in TARGETS {
        let Some(features) = token_features(target.module) else {
            assert_ne!(target.arch, std::env::consts::ARCH, "no token for target {}", target.module);
            continue;
        };
        assert_eq!(target.arch, std::env::consts::ARCH, "{}", target.module);
        assert_eq!(target.features, features, "target {}", target.module);
        checked += 1;
    }
    assert!(checked >= 2, "only {checked} targets of this architecture");
}
