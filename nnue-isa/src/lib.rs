//! The instruction sets nnue has SIMD backends for, in one table.
//!
//! The runtime derives from it its `Isa` enum, detection, `Backend`, the
//! backend tokens and the tests' `for_each_dot!`; the code generator its
//! targets (register widths and counts, features to compile for). A new
//! backend is a row here, its vector types in `nnue-runtime/src/simd/`, and
//! nothing else listed by hand.
//!
//! [`simd_isas!`] hands the rows to a macro of the caller's:
//!
//! ```
//! macro_rules! names {
//!     ($extra:tt $({ name: $name:literal, $($field:ident: $value:tt,)* })*) => { [$($name),*] };
//! }
//! assert_eq!(nnue_isa::simd_isas!(names), ["avx2", "avx-vnni", "avx512", "avx512-vnni", "neon", "neon-dotprod"]);
//! ```

/// Expands `$callback! { ($($extra)*) { row } ... }` with one row per SIMD
/// instruction set, x86-64 first, slowest first per architecture (the order
/// of `Isa`: the best a CPU runs is the last it has). Every row has these
/// fields, in this order:
///
/// - `name`: as `--isa` and `NNUE_ISA` spell it;
/// - `variant`: the `Isa` and `Backend` variant, and the token type;
/// - `module`: the generated kernel module;
/// - `title`: a name for people;
/// - `arch`: the `target_arch` it exists on;
/// - `simd`: its module under the runtime's `simd` (`x86`, `aarch64`);
/// - `features`: what `#[target_feature(enable = ..)]` compiles its kernels
///   for (the token proves them);
/// - `detect`: the same features one by one, as run-time detection asks for
///   them (a test checks both agree);
/// - `lanes`: i16 accumulator lanes per register;
/// - `permutes_lanes`: whether its packs leave the transformer's lanes in an
///   order of their own (per block of `lanes`), which weights are laid out
///   for at load;
/// - `max_tile`: accumulator registers a tile may hold;
/// - `dot_lanes`: i32 lanes of its widest dot-product register;
/// - `packs_activations`: whether its activations leave their bytes in the
///   packs' order for the next layer (whose weights are laid out for it);
/// - `types`: its vector types in the runtime (`Lanes`, `Dot`, the 256-bit
///   `Dot` of narrow layers, `Activations`);
/// - `doc`: a sentence on it.
#[macro_export]
macro_rules! simd_isas {
    ($($callback:ident)::+ $(, $($extra:tt)*)?) => {
        $($callback)::+! {
            ($($($extra)*)?)
            {
                name: "avx2", variant: Avx2, module: avx2, title: "AVX2", arch: "x86_64", simd: x86,
                features: "avx2,fma,popcnt", detect: ["avx2", "fma", "popcnt"],
                lanes: 16, permutes_lanes: true, max_tile: 16, dot_lanes: 8, packs_activations: true,
                types: (Avx2Lanes, Avx2Dot, Avx2Dot, Avx2Activations),
                doc: "AVX2: 16 accumulator lanes per register, `vpmaddubsw` dot products.",
            }
            {
                name: "avx-vnni", variant: AvxVnni, module: avx_vnni, title: "AVX2 + AVX-VNNI", arch: "x86_64", simd: x86,
                features: "avx2,fma,popcnt,avxvnni", detect: ["avx2", "fma", "popcnt", "avxvnni"],
                lanes: 16, permutes_lanes: true, max_tile: 16, dot_lanes: 8, packs_activations: true,
                types: (Avx2Lanes, AvxVnniDot, AvxVnniDot, Avx2Activations),
                doc: "AVX2 with AVX-VNNI `vpdpbusd` dot products.",
            }
            {
                name: "avx512", variant: Avx512, module: avx512, title: "AVX-512 F/BW/VL", arch: "x86_64", simd: x86,
                features: "avx2,fma,popcnt,avx512f,avx512bw,avx512vl", detect: ["avx2", "fma", "popcnt", "avx512f", "avx512bw", "avx512vl"],
                lanes: 32, permutes_lanes: true, max_tile: 16, dot_lanes: 16, packs_activations: false,
                types: (Avx512Lanes, Avx512Dot, Avx2Dot, Avx512Activations),
                doc: "AVX-512 F/BW/VL: 32 accumulator lanes per register, 512-bit `vpmaddubsw` dot products (256-bit for narrow layers).",
            }
            {
                name: "avx512-vnni", variant: Avx512Vnni, module: avx512_vnni, title: "AVX-512 F/BW/VL + VNNI", arch: "x86_64", simd: x86,
                features: "avx2,fma,popcnt,avx512f,avx512bw,avx512vl,avx512vnni", detect: ["avx2", "fma", "popcnt", "avx512f", "avx512bw", "avx512vl", "avx512vnni"],
                lanes: 32, permutes_lanes: true, max_tile: 16, dot_lanes: 16, packs_activations: false,
                types: (Avx512Lanes, Avx512VnniDot, Avx512VnniDot256, Avx512Activations),
                doc: "AVX-512 with AVX-512 VNNI `vpdpbusd` (512-bit, and 256-bit for narrow layers).",
            }
            {
                name: "neon", variant: Neon, module: neon, title: "NEON", arch: "aarch64", simd: aarch64,
                features: "neon", detect: ["neon"],
                lanes: 8, permutes_lanes: false, max_tile: 16, dot_lanes: 4, packs_activations: false,
                types: (NeonLanes, NeonDot, NeonDot, NeonActivations),
                doc: "NEON: 8 accumulator lanes per register (32 vector registers: 16 for a tile), dot products from widening multiplies and pairwise additions.",
            }
            {
                name: "neon-dotprod", variant: NeonDotprod, module: neon_dotprod, title: "NEON + dot product", arch: "aarch64", simd: aarch64,
                features: "neon,dotprod", detect: ["neon", "dotprod"],
                lanes: 8, permutes_lanes: false, max_tile: 16, dot_lanes: 4, packs_activations: false,
                types: (NeonLanes, NeonDotprodDot, NeonDotprodDot, NeonActivations),
                doc: "NEON with `sdot` dot products.",
            }
        }
    };
}

/// What [`simd_isas!`] says of one instruction set, as data (for code that
/// reads the table at run time rather than expanding it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimdIsa {
    pub name: &'static str,
    pub variant: &'static str,
    pub module: &'static str,
    pub title: &'static str,
    pub arch: &'static str,
    pub simd: &'static str,
    pub features: &'static str,
    pub detect: &'static [&'static str],
    pub lanes: usize,
    pub permutes_lanes: bool,
    pub max_tile: usize,
    pub dot_lanes: usize,
    pub packs_activations: bool,
    pub doc: &'static str,
}

macro_rules! as_data {
    (() $({
        name: $name:literal, variant: $variant:ident, module: $module:ident, title: $title:literal, arch: $arch:literal, simd: $simd:ident,
        features: $features:literal, detect: [$($detect:literal),*],
        lanes: $lanes:literal, permutes_lanes: $permutes:literal, max_tile: $max_tile:literal, dot_lanes: $dot_lanes:literal, packs_activations: $packs:literal,
        types: ($lanes_ty:ident, $dot:ident, $dot256:ident, $activations:ident),
        doc: $doc:literal,
    })*) => {
        /// Every row of [`simd_isas!`], in order.
        pub const SIMD_ISAS: &[SimdIsa] = &[$(SimdIsa {
            name: $name,
            variant: stringify!($variant),
            module: stringify!($module),
            title: $title,
            arch: $arch,
            simd: stringify!($simd),
            features: $features,
            detect: &[$($detect),*],
            lanes: $lanes,
            permutes_lanes: $permutes,
            max_tile: $max_tile,
            dot_lanes: $dot_lanes,
            packs_activations: $packs,
            doc: $doc,
        }),*];
    };
}

simd_isas!(as_data);

#[cfg(test)]
mod tests {
    use super::SIMD_ISAS;

    /// `features` and `detect` list the same features, and names, variants
    /// and modules are distinct.
    #[test]
    fn rows_agree() {
        for isa in SIMD_ISAS {
            assert_eq!(isa.features.split(',').collect::<Vec<_>>(), isa.detect, "{}", isa.name);
            assert_eq!(isa.module, isa.name.replace('-', "_"), "{}", isa.name);
        }
        for (i, a) in SIMD_ISAS.iter().enumerate() {
            for b in &SIMD_ISAS[i + 1..] {
                assert!(a.name != b.name && a.variant != b.variant, "{} and {}", a.name, b.name);
            }
        }
    }
}
