//! One layer stack: its parameters (one field per layer that has any), how
//! they are read and laid out, and its scalar forward pass. What each
//! layer contributes comes from its kind (`layers`).

use crate::forward::propagate_body;
use crate::layers;
use crate::tokens::runtime;
use nnue_spec::ir::Arch;
use proc_macro2::TokenStream;
use quote::quote;

pub fn generate(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let fields = layers::each(arch, |kind, at| kind.field(at));
    let read = if arch.is_bullet() { crate::bullet::stack_from_tensors(arch) } else { read(arch) };
    let padding = layers::each(arch, |kind, at| kind.nonzero_padding(at));
    let padding = if padding.is_empty() { quote!(0) } else { quote!(#(#padding)+*) };
    let columns = layers::each(arch, |kind, at| kind.prepare_columns(at));
    let body = propagate_body(arch, None, false);
    let packed = layers::each(arch, |kind, at| kind.order_packed_input(at));
    let order_packed = (!packed.is_empty()).then(|| {
        quote! {
            /// Lays out the inputs of the layers that read activations
            /// packed by AVX2 in the packs' order (before the column
            /// layout).
            fn order_packed_inputs(&mut self) {
                #(#packed)*
            }
        }
    });
    quote! {
        /// The parameters of one layer stack.
        pub struct LayerStack {
            #(#fields,)*
        }

        impl LayerStack {
            #read

            /// Non-zero weights in the padding columns of this stack's layers.
            fn nonzero_padding(&self) -> usize {
                #padding
            }

            /// Puts the weights of layers computed by the SIMD column kernel
            /// into column layout.
            fn prepare_columns(&mut self) {
                #(#columns)*
            }

            #order_packed

            /// The scalar forward pass.
            fn propagate_scalar(
                &self,
                input: &[u8; TRANSFORMED],
                trace: &mut impl ::core::ops::FnMut(&'static str, #rt::LayerOutput<'_>),
            ) -> i32 {
                let stack = self;
                #body
            }
        }
    }
}

/// `LayerStack::read` for a Stockfish file: the stack's hash word, then
/// each layer's parameters.
fn read(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let reads = layers::each(arch, |kind, at| kind.read(at));
    quote! {
        /// Reads stack number `stack`: its hash word, then each affine
        /// layer's biases and weights.
        fn read(r: &mut #rt::NetReader<'_>, stack: usize) -> ::core::result::Result<Self, #rt::LoadError> {
            r.expect_hash(&::std::format!("layer stack {stack} hash"), LAYER_STACK_HASH)?;
            ::core::result::Result::Ok(LayerStack { #(#reads,)* })
        }
    }
}
