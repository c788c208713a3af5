//! The backend token types, one macro for every ISA: a token exists only
//! after run-time detection found its instruction set, so holding one
//! proves that the CPU runs the ISA's instructions (what the `unsafe`
//! traits of [`crate::simd`] require). [`Inside`](crate::simd::Inside)
//! is the same proof inside a function compiled for the ISA
//! (`#[target_feature(enable = Token::FEATURES)]`), which the token's
//! `inside` hands out. What a token runs (the kernels instantiated for
//! its ISA's vector types) is defined above the kernels, in
//! [`crate::backend`].

/// Every row's token of the instruction-set table ([`nnue_isa::simd_isas!`])
/// whose architecture this build is for: expanded in `x86` and in
/// `aarch64`.
macro_rules! backend_tokens {
    (() $({
        name: $name:literal, variant: $variant:ident, module: $module:ident, title: $title:literal, arch: $arch:literal, simd: $simd:ident,
        features: $features:literal, detect: [$($detect:literal),*],
        lanes: $lanes:literal, permutes_lanes: $permutes:literal, max_tile: $max_tile:literal, dot_lanes: $dot_lanes:literal, packs_activations: $packs:literal,
        types: ($lanes_ty:ident, $dot:ident, $dot256:ident, $activations:ident),
        doc: $doc:literal,
    })*) => {
        $(
            #[cfg(target_arch = $arch)]
            backend_token!(#[doc = $doc] $variant, crate::Isa::$variant, $features);
        )*
    };
}

/// `backend_token!(doc, Token, Isa::X, "features")`.
macro_rules! backend_token {
    ($(#[$doc:meta])* $token:ident, $isa:expr, $features:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $token(());

        impl $token {
            /// The token, if this CPU supports the instruction set.
            pub fn new() -> Option<Self> {
                $isa.is_available().then_some($token(()))
            }

            /// The instruction-set features this token proves, as
            /// `#[target_feature(enable = ...)]` takes them. Generated code
            /// compiles each forward pass for exactly these.
            pub const FEATURES: &'static str = $features;

            /// The token as [`Inside`](crate::simd::Inside), whose kernel
            /// methods are `#[inline(always)]`: generated code calls them
            /// from a function compiled with [`Self::FEATURES`] (a layer
            /// stack's forward pass), so that every kernel becomes that
            /// function's own instructions.
            #[inline(always)]
            pub fn inside(self) -> $crate::simd::Inside<Self> {
                $crate::simd::Inside(self)
            }
        }
    };
}
