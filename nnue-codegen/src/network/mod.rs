//! The network type: loading a file for a backend, dispatching to the
//! backend's kernels, computing accumulators, evaluating. `impl Network`
//! in parts: loading (`load`), the accumulators (the transformer's kind,
//! `crate::transformer`), the transformer's output and the layer stacks
//! (`propagate`), the evaluation (`evaluate`); then the traits it
//! implements (`traits`).

mod calls;
mod evaluate;
mod load;
mod propagate;
mod traits;

use crate::tokens::runtime;
use nnue_spec::ir::Arch;
use proc_macro2::TokenStream;
use quote::quote;

pub fn generate(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let transformer = crate::transformer::of(arch);
    let transformer_type = transformer.definition(arch);
    let bullet_read = arch.is_bullet().then(|| crate::bullet::read(arch));
    let loading = load::methods(arch);
    let accumulator_methods = transformer.methods(arch);
    let propagation = propagate::methods(arch);
    let evaluation = evaluate::methods(arch);
    let impls = traits::impls(arch);
    quote! {
        #transformer_type

        #bullet_read

        /// A loaded network: the transformer and every layer stack, laid out
        /// for the backend chosen when it was loaded. Shared read-only
        /// between threads.
        pub struct Network {
            description: ::std::string::String,
            backend: #rt::Backend,
            transformer: Transformer,
            stacks: ::std::boxed::Box<[LayerStack]>,
            proof: #rt::OverflowProof,
        }

        impl Network {
            #loading

            /// The bounds on every integer this net computes, proven when it
            /// was loaded (see the runtime's `overflow` module).
            pub fn overflow_proof(&self) -> &#rt::OverflowProof {
                &self.proof
            }

            /// The description stored in the file.
            pub fn description(&self) -> &str {
                &self.description
            }

            /// The backend the network runs on.
            pub fn isa(&self) -> #rt::Isa {
                self.backend.isa()
            }

            #accumulator_methods

            #propagation

            #evaluation
        }

        #impls
    }
}
