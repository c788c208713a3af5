//! The overflow proof of a loaded net: the transformer's bounds over legal
//! positions, then each layer stack's forward pass on intervals, mirroring
//! the scalar forward pass layer by layer (each layer's step from its kind,
//! [`LayerGen::prove`](crate::layers::LayerGen::prove)).

use crate::tokens::{lit, runtime};
use nnue_spec::ir::{Arch, EvalRule, TransformerOutput};
use proc_macro2::TokenStream;
use quote::quote;

pub fn generate(arch: &Arch) -> TokenStream {
    let rt = runtime();
    // The range of every transformer output: for the accumulators
    // themselves, all of i16.
    let (low, top) = match arch.transformer.output {
        TransformerOutput::ClippedReLU { max } => (0, i64::from(max)),
        TransformerOutput::Pairwise { max, divisor } => (0, i64::from(max) * i64::from(max) / i64::from(divisor)),
        TransformerOutput::Accumulators => (i64::from(i16::MIN), i64::from(i16::MAX)),
    };
    let (low, top) = (lit(low), lit(top));
    let scale = lit(i64::from(arch.output.scale));
    let combine = match arch.output.eval {
        EvalRule::SumThenDivide => quote!(SumThenDivide),
        EvalRule::DivideThenSum => quote!(DivideThenSum),
    };
    let transformer = crate::transformer::of(arch).proof(arch);
    // With activations packed by AVX2, the layers reading them are proved
    // as their weights are then laid out (`packed`).
    let packs = crate::layers::packed::any(arch);
    let (packed_param, packed_arg) =
        if packs { (quote!(, packed: bool), quote!(, packed)) } else { (quote!(), quote!()) };
    let steps = crate::layers::each(arch, |kind, at| Some(kind.prove(at)));
    let result = crate::output::prove_result(arch);
    quote! {
        /// Bounds every integer a net computes, for every legal position:
        /// the accumulators, then each layer stack and its evaluation.
        fn prove(transformer: &Transformer, stacks: &[LayerStack] #packed_param) -> #rt::OverflowProof {
            let mut proof = #rt::OverflowProof::default();
            #transformer
            let transformed = #rt::overflow::Interval::new(#low, #top);
            for (stack, layers) in stacks.iter().enumerate() {
                let positional = layers.prove(stack, transformed, &mut proof #packed_arg);
                let psqt = psqt.get(stack).copied();
                let combine = #rt::overflow::layers::Combine::#combine;
                #rt::overflow::layers::evaluation(&mut proof, stack, psqt, positional, #scale, combine);
            }
            proof
        }

        impl LayerStack {
            /// The range of this stack's output when every transformer output
            /// lies in `input`; records each layer's bounds.
            fn prove(&self, stack: usize, input: #rt::overflow::Interval, proof: &mut #rt::OverflowProof #packed_param) -> #rt::overflow::Interval {
                let input = ::std::vec![input; TRANSFORMED];
                #(#steps)*
                #result
            }
        }
    }
}
