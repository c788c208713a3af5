//! `Network`'s methods from the accumulators to the layer stacks' output:
//! the transformer's output (with the list of its non-zero chunks where
//! the first layer is sparse), the forward pass on the backend, and the
//! direct path from the accumulators.

use super::calls::{reads_accumulators, transform};
use crate::dispatch::dispatch;
use crate::tokens::runtime;
use nnue_spec::ir::Arch;
use proc_macro2::TokenStream;
use quote::quote;

/// From `accumulator_values` to `propagate_accumulator`, inside
/// `impl Network`.
pub(super) fn methods(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let transform_into_body = if arch.lists_nonzero_chunks() {
        quote! {
            let mut nonzero = #rt::kernels::ChunkSlots::<NONZERO_CHUNKS>::new();
            self.transform_listed(accumulator, side_to_move, slots, &mut nonzero).0
        }
    } else {
        let transform = transform(arch);
        quote! {
            let order = [side_to_move.index(), side_to_move.flip().index()];
            let bytes = #transform;
            #rt::sub::<_, TRANSFORMED>(bytes, 0)
        }
    };
    let listed_methods = listed(arch);
    let no_list = arch.lists_nonzero_chunks().then(|| quote!(::core::option::Option::None,));
    let propagate = dispatch(
        |m| quote!(#m::propagate(cpu, stack, input, #no_list &mut trace)),
        quote!(stack.propagate_scalar(input, &mut trace)),
    );
    let accumulator_method = direct(arch);
    quote! {
        /// `perspective`'s accumulator lanes in logical order (backends
        /// store them in their packing order).
        pub fn accumulator_values(&self, accumulator: &Accumulator, perspective: #rt::Color) -> ::std::vec::Vec<i16> {
            let mut values = accumulator.values[perspective.index()].to_vec();
            if let ::core::option::Option::Some(lanes) = Self::lane_packing(self.backend) {
                #rt::kernels::layout::unpermute_lanes(&mut values, lanes);
            }
            values
        }

        /// The transformer's output: the side to move's half first.
        pub fn transform(&self, accumulator: &Accumulator, side_to_move: #rt::Color, output: &mut [u8; TRANSFORMED]) {
            let mut slots = #rt::Aligned([::core::mem::MaybeUninit::uninit(); TRANSFORMED]);
            output.copy_from_slice(self.transform_into(accumulator, side_to_move, &mut slots));
        }

        /// [`Self::transform`] into `slots`, which need not be
        /// initialised (every byte is written), returned as bytes.
        pub fn transform_into<'o>(
            &self,
            accumulator: &Accumulator,
            side_to_move: #rt::Color,
            slots: &'o mut [::core::mem::MaybeUninit<u8>; TRANSFORMED],
        ) -> &'o [u8; TRANSFORMED] {
            #transform_into_body
        }

        #listed_methods

        /// The output of layer stack `bucket` for the transformer output
        /// `input`, skip term included.
        pub fn propagate(&self, bucket: usize, input: &[u8; TRANSFORMED]) -> i32 {
            self.propagate_traced(bucket, input, |_, _| {})
        }

        /// [`Self::propagate`], handing every layer's output to `trace`.
        pub fn propagate_traced(
            &self,
            bucket: usize,
            input: &[u8; TRANSFORMED],
            mut trace: impl ::core::ops::FnMut(&'static str, #rt::LayerOutput<'_>),
        ) -> i32 {
            let stack = &self.stacks[bucket];
            #propagate
        }

        #accumulator_method
    }
}

/// Where the first layer's input is sparse: `transform_listed` and
/// `propagate_listed`, the transformer's kernels listing the non-zero
/// chunks of their output for the first layer.
fn listed(arch: &Arch) -> Option<TokenStream> {
    let rt = runtime();
    let transform = transform(arch);
    arch.lists_nonzero_chunks().then(|| {
        let propagate_listed = dispatch(
            |m| quote!(#m::propagate(cpu, stack, input, ::core::option::Option::Some(nonzero), &mut |_, _| {})),
            quote! {{
                let _ = nonzero;
                stack.propagate_scalar(input, &mut |_, _| {})
            }},
        );
        quote! {
            /// [`Self::transform_into`], also listing the non-zero four-byte
            /// chunks of the output in `nonzero` (searched by the backend's
            /// kernel right after it wrote them), for
            /// [`Self::propagate_listed`].
            pub fn transform_listed<'o, 'l>(
                &self,
                accumulator: &Accumulator,
                side_to_move: #rt::Color,
                slots: &'o mut [::core::mem::MaybeUninit<u8>; TRANSFORMED],
                nonzero: &'l mut #rt::kernels::ChunkSlots<NONZERO_CHUNKS>,
            ) -> (&'o [u8; TRANSFORMED], #rt::kernels::ChunkList<'l, NONZERO_CHUNKS>) {
                let order = [side_to_move.index(), side_to_move.flip().index()];
                let (bytes, list) = #transform;
                (#rt::sub::<_, TRANSFORMED>(bytes, 0), list)
            }

            /// [`Self::propagate`] given the list of `input`'s non-zero
            /// chunks that [`Self::transform_listed`] made with it, so the
            /// sparse first layer does not search for them.
            pub fn propagate_listed(&self, bucket: usize, input: &[u8; TRANSFORMED], nonzero: #rt::kernels::ChunkList<'_, NONZERO_CHUNKS>) -> i32 {
                let stack = &self.stacks[bucket];
                #propagate_listed
            }
        }
    })
}

/// Where the SIMD backends evaluate straight from the accumulators
/// ([`reads_accumulators`]): `propagate_accumulator`, and
/// `propagate_transformed` for when it gives `None`.
fn direct(arch: &Arch) -> Option<TokenStream> {
    let rt = runtime();
    reads_accumulators(arch).then(|| {
        let call = dispatch(
            |m| quote!(#m::propagate_accumulator(cpu, &self.stacks[bucket], first, second)),
            quote!(::core::option::Option::None),
        );
        quote! {
            /// Layer stack `bucket`'s output straight from the accumulators
            /// (SIMD backends), without the transformer's output; `None` on
            /// the scalar backend and when the weights need the i32 path.
            fn propagate_accumulator(&self, bucket: usize, accumulator: &Accumulator, side_to_move: #rt::Color) -> ::core::option::Option<i32> {
                // The halves themselves, in registers: an array of their
                // indices would go through memory and be read back before
                // the first load.
                let (first, second) = (&accumulator.values[side_to_move.index()], &accumulator.values[side_to_move.flip().index()]);
                #call
            }

            /// Layer stack `bucket`'s output through the transformer's
            /// output: where [`Self::propagate_accumulator`] gives `None`.
            /// Out of line, so that the direct path's caller does not
            /// reserve the transformer's output on its stack.
            #[inline(never)]
            fn propagate_transformed(&self, bucket: usize, accumulator: &Accumulator, side_to_move: #rt::Color) -> i32 {
                let mut slots = #rt::Aligned([::core::mem::MaybeUninit::uninit(); TRANSFORMED]);
                let transformed = self.transform_into(accumulator, side_to_move, &mut slots);
                self.propagate(bucket, transformed)
            }
        }
    })
}
