//! The plain transformer: a single feature set of i16 weights, one feature
//! per piece (`runtime::params::Transformer`), its rows added and removed
//! by the backend's `accumulate` kernel.

use super::common::{TransformerGen, rebase_base, update_rebased_head};
use crate::dispatch::dispatch;
use crate::tokens::{i32, runtime};
use nnue_spec::ir::{Arch, Encoding};
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct Plain;

impl TransformerGen for Plain {
    fn constants(&self, arch: &Arch) -> (TokenStream, TokenStream) {
        let rt = runtime();
        let feature_type = crate::features::runtime_type(&arch.features[0]);
        (
            quote! {
                /// The input feature set.
                pub type FeatureSet = #feature_type;
            },
            quote!(<FeatureSet as #rt::FeatureSet>::DIMENSIONS),
        )
    }

    fn definition(&self, _arch: &Arch) -> TokenStream {
        let rt = runtime();
        quote! {
            /// The transformer's parameters.
            type Transformer = #rt::params::Transformer<L1, PSQT_BUCKETS>;
        }
    }

    fn read(&self, arch: &Arch) -> TokenStream {
        let rt = runtime();
        let encoding = match arch.encoding {
            Encoding::Raw => quote!(#rt::Encoding::Raw),
            Encoding::Leb128 => quote!(#rt::Encoding::Leb128),
        };
        let load_scale = i32(arch.transformer.load_scale);
        quote!(Transformer::read(&mut r, FEATURES, #encoding, #load_scale)?)
    }

    fn methods(&self, _arch: &Arch) -> TokenStream {
        let rt = runtime();
        let accumulate = dispatch(
            |m| quote!(#m::accumulate(cpu, &self.transformer, base, psqt_base, removed, added, out, psqt_out)),
            quote!(self.transformer.accumulate(base, psqt_base, removed, added, out, psqt_out)),
        );
        quote! {
            /// The active features of `pos` from `perspective`.
            pub fn active_features(pos: &impl #rt::Position, perspective: #rt::Color) -> #rt::FeatureList {
                let mut active = #rt::FeatureList::default();
                <FeatureSet as #rt::FeatureSet>::active_features(pos, perspective, &mut active);
                active
            }

            /// Computes both perspectives' accumulators from scratch.
            pub fn refresh(&self, pos: &impl #rt::Position, accumulator: &mut Accumulator) {
                let mut active = [#rt::FeatureList::default(), #rt::FeatureList::default()];
                <FeatureSet as #rt::FeatureSet>::active_features_both_with(pos, &mut active, |feature| {
                    self.transformer.request_listed_row(feature)
                });
                for (p, active) in active.iter().enumerate() {
                    self.accumulate(
                        &self.transformer.biases,
                        &[0; PSQT_BUCKETS],
                        &[],
                        active.as_slice(),
                        &mut accumulator.values[p],
                        &mut accumulator.psqt[p],
                    );
                }
            }

            /// Updates one perspective incrementally:
            /// `to = from - removed features + added features`.
            pub fn update(
                &self,
                from: &Accumulator,
                to: &mut Accumulator,
                perspective: #rt::Color,
                removed: &[u32],
                added: &[u32],
            ) {
                let p = perspective.index();
                self.accumulate(&from.values[p], &from.psqt[p], removed, added, &mut to.values[p], &mut to.psqt[p]);
            }

            /// The backend's accumulation kernel.
            #[allow(clippy::too_many_arguments)]
            fn accumulate(
                &self,
                base: &[i16; L1],
                psqt_base: &[i32; PSQT_BUCKETS],
                removed: &[u32],
                added: &[u32],
                out: &mut [i16; L1],
                psqt_out: &mut [i32; PSQT_BUCKETS],
            ) {
                #accumulate
            }

        }
    }

    fn incremental(&self, _arch: &Arch) -> Option<TokenStream> {
        let rt = runtime();
        let (update_rebased, rebase_base) = (update_rebased_head(), rebase_base());
        Some(quote! {
            type Changes = #rt::FeatureList;
            type BoardChanges = ();

            fn same_view(perspective: #rt::Color, a: #rt::Square, b: #rt::Square) -> bool {
                <FeatureSet as #rt::FeatureSet>::same_view(perspective, a, b)
            }

            fn feature(perspective: #rt::Color, king: #rt::Square, square: #rt::Square, piece: #rt::Piece) -> ::core::option::Option<usize> {
                <FeatureSet as #rt::FeatureSet>::index(perspective, king, square, piece)
            }

            fn prefetch_update(&self, removed: &Self::Changes, added: &Self::Changes) {
                self.prefetch_piece_rows(removed.as_slice(), added.as_slice())
            }

            fn prefetch_piece_rows(&self, removed: &[u32], added: &[u32]) {
                self.transformer.prefetch_rows(removed, added, #rt::kernels::PREFETCH_LANES)
            }

            fn update(&self, from: &Accumulator, to: &mut Accumulator, perspective: #rt::Color, removed: &Self::Changes, added: &Self::Changes) {
                Network::update(self, from, to, perspective, removed.as_slice(), added.as_slice())
            }

            fn update_from_half(&self, from: &#rt::HalfAccumulator<L1, PSQT_BUCKETS>, to: &mut Accumulator, perspective: #rt::Color, removed: &[u32], added: &[u32]) {
                let p = perspective.index();
                self.accumulate(&from.values, &from.psqt, removed, added, &mut to.values[p], &mut to.psqt[p]);
            }

            /// (One per-piece feature set and no board features: the stack
            /// never rebases; the starting values are summed apart.)
            #update_rebased {
                #rebase_base
                let (values, psqt) = (#rt::kernels::UpdateBase::values(&base), #rt::kernels::UpdateBase::psqt(&base));
                self.accumulate(&values, &psqt, removed.as_slice(), added.as_slice(), &mut to.values[p], &mut to.psqt[p]);
            }
        })
    }

    fn proof(&self, _arch: &Arch) -> TokenStream {
        let rt = runtime();
        quote! {
            let params = #rt::overflow::transformer::TransformerParams {
                biases: &transformer.biases[..],
                weights: &transformer.weights,
                psqt_weights: &transformer.psqt_weights,
                psqt_buckets: PSQT_BUCKETS,
            };
            let psqt = #rt::overflow::transformer::prove(
                &mut proof,
                <FeatureSet as #rt::FeatureSet>::index,
                <FeatureSet as #rt::FeatureSet>::MAX_ACTIVE,
                &params,
            );
        }
    }

    fn kernels(&self, arch: &Arch) -> (TokenStream, TokenStream) {
        (
            if arch.lists_nonzero_chunks() {
                quote!(
                    use super::{Accumulator, LayerStack, Transformer, L1, NONZERO_CHUNKS, PSQT_BUCKETS, TRANSFORMED};
                )
            } else {
                quote!(
                    use super::{Accumulator, LayerStack, Transformer, L1, PSQT_BUCKETS, TRANSFORMED};
                )
            },
            quote! {
            /// `out = base - removed rows + added rows`, values and PSQT values.
            #[allow(clippy::too_many_arguments)]
            pub(super) fn accumulate(
                cpu: Cpu,
                transformer: &Transformer,
                base: &[i16; L1],
                psqt_base: &[i32; PSQT_BUCKETS],
                removed: &[u32],
                added: &[u32],
                out: &mut [i16; L1],
                psqt_out: &mut [i32; PSQT_BUCKETS],
            ) {
                cpu.accumulate::<L1, TILE, PSQT_BUCKETS>(
                    &transformer.weights,
                    &transformer.psqt_weights,
                    base,
                    psqt_base,
                    removed,
                    added,
                    out,
                    psqt_out,
                );
            }

            },
        )
    }
}
