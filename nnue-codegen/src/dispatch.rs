//! Calls into the network's backend: a `match` on `self.backend`, the
//! scalar code in one arm, each SIMD target's module in its own.

use crate::targets::TARGETS;
use crate::tokens::{ident, runtime};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// `match self.backend`: `scalar` on the scalar backend, `call` of a
/// target's module (its token in `cpu`) on each SIMD backend.
pub(crate) fn dispatch(call: impl Fn(&Ident) -> TokenStream, scalar: TokenStream) -> TokenStream {
    let rt = runtime();
    let arms = TARGETS.iter().map(|t| {
        let (variant, module, arch_name) = (ident(t.variant), ident(t.module), t.arch);
        let call = call(&module);
        quote! {
            #[cfg(target_arch = #arch_name)]
            #rt::Backend::#variant(cpu) => #call,
        }
    });
    quote! {
        match self.backend {
            #rt::Backend::Scalar => #scalar,
            #(#arms)*
        }
    }
}
