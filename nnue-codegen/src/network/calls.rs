//! What several of `Network`'s methods compute through the backend: the
//! transformer's output, and whether the layers can read the accumulators
//! directly.

use crate::dispatch::dispatch;
use crate::tokens::{i32, runtime};
use nnue_spec::ir::{Arch, TransformerOutput};
use proc_macro2::TokenStream;
use quote::quote;

/// The transformer's output of `accumulator` (perspectives in `order`)
/// into `slots`, on the backend: its bytes, and where the architecture
/// [lists the non-zero chunks](Arch::lists_nonzero_chunks) their list in
/// `nonzero` too (the scalar one by a search after it).
pub(super) fn transform(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let scalar_transform = scalar_transform(arch);
    if arch.lists_nonzero_chunks() {
        dispatch(
            |m| quote!(#m::transform(cpu, accumulator, order, slots, nonzero)),
            quote! {{
                let bytes = #scalar_transform;
                let list = #rt::kernels::ChunkList::search(bytes, nonzero);
                (bytes, list)
            }},
        )
    } else {
        dispatch(|m| quote!(#m::transform(cpu, accumulator, order, slots)), scalar_transform)
    }
}

/// The scalar transformer output into `slots`, as bytes.
fn scalar_transform(arch: &Arch) -> TokenStream {
    let rt = runtime();
    match arch.transformer.output {
        TransformerOutput::ClippedReLU { max } => {
            let max = i32(max);
            quote!(#rt::scalar::transform_clip(&accumulator.values, order, #max, slots))
        }
        TransformerOutput::Pairwise { max, divisor } => {
            let (max, divisor) = (i32(max), i32(divisor));
            quote!(#rt::scalar::transform_pairwise(&accumulator.values, order, #max, #divisor, slots))
        }
        TransformerOutput::Accumulators => {
            quote!(#rt::scalar::transform_accumulators(&accumulator.values, order, slots))
        }
    }
}

/// Whether the SIMD backends evaluate straight from the accumulators: a
/// stack of an SCReLU and one i16-weight layer (in 16-bit products), and
/// the layers of an `Accumulators` output (reading the lanes in place).
pub(super) fn reads_accumulators(arch: &Arch) -> bool {
    crate::layers::wide_affine::screlu_of_accumulators(arch).is_some()
        || arch.transformer.output == TransformerOutput::Accumulators
}
