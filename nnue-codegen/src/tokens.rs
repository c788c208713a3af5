//! Small helpers for building tokens.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

/// The path through which generated code reaches the runtime: the facade
/// crate `nnue` re-exports `nnue-runtime` as `__private` (hidden; engines
/// and tools use its documented paths, the crate root and `nnue::runtime`).
pub const RUNTIME: &str = "::nnue::__private";

/// An identifier.
pub fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// A `#[doc = " ..."]` attribute (formatted as `/// ...`).
pub fn doc(text: &str) -> TokenStream {
    let text = format!(" {text}");
    quote! { #[doc = #text] }
}

/// An unsuffixed integer literal (`usize` and friends are inferred).
pub fn int(v: usize) -> Literal {
    Literal::usize_unsuffixed(v)
}

/// An integer literal without suffix (its type is inferred).
pub fn lit(v: i64) -> TokenStream {
    let lit = Literal::u64_unsuffixed(v.unsigned_abs());
    if v < 0 { quote!(-#lit) } else { quote!(#lit) }
}

/// An `i32` literal without suffix.
/// (`i32::MIN` and `i32::MAX` by name).
pub fn i32(v: i32) -> TokenStream {
    match v {
        i32::MIN => quote!(i32::MIN),
        i32::MAX => quote!(i32::MAX),
        _ => {
            let lit = Literal::u32_unsuffixed(v.unsigned_abs());
            if v < 0 { quote!(-#lit) } else { quote!(#lit) }
        }
    }
}

/// A hexadecimal `u32` literal such as `0x1C10_20F2`.
pub fn hex(v: u32) -> Literal {
    format!("0x{:04X}_{:04X}", v >> 16, v & 0xFFFF).parse().expect("a valid literal")
}

/// The runtime path, as tokens.
pub fn runtime() -> TokenStream {
    RUNTIME.parse().expect("a valid path")
}
