//! What each kind of feature transformer's generator implements
//! ([`TransformerGen`]).

use crate::tokens::runtime;
use nnue_spec::ir::Arch;
use proc_macro2::TokenStream;
use quote::quote;

/// Everything generated for one kind of feature transformer: the plain
/// one (`plain`) or the composed one (`composed`).
pub(crate) trait TransformerGen {
    /// The `FeatureSet` type alias where there is one feature set, and the
    /// expression of the features' total number (checked against
    /// `FEATURES`).
    fn constants(&self, arch: &Arch) -> (TokenStream, TokenStream);

    /// The `Transformer` type: the parameters, their reading and layout.
    fn definition(&self, arch: &Arch) -> TokenStream;

    /// The expression reading the transformer from a Stockfish file's
    /// reader `r`, the hash word already read.
    fn read(&self, arch: &Arch) -> TokenStream;

    /// `Network`'s methods computing accumulators: `refresh` and the
    /// backend's row kernels.
    fn methods(&self, arch: &Arch) -> TokenStream;

    /// The incremental part of `runtime::Network` (features, changes,
    /// updates); `None` where the network does not implement it.
    fn incremental(&self, arch: &Arch) -> Option<TokenStream>;

    /// The transformer's part of the overflow proof, the PSQT ranges in
    /// `psqt`.
    fn proof(&self, arch: &Arch) -> TokenStream;

    /// In a SIMD target's module: its imports from the architecture's
    /// module, and the transformer's row kernels.
    fn kernels(&self, arch: &Arch) -> (TokenStream, TokenStream);
}

/// The signature of `runtime::Network::update_rebased` and its first
/// statements, the same for every transformer: `p` the perspective's index
/// and `base` the update's start, `from[p] - minus + plus`.
pub(crate) fn update_rebased_head() -> TokenStream {
    let rt = runtime();
    quote! {
        fn update_rebased(
            &self,
            from: &Accumulator,
            minus: &#rt::HalfAccumulator<L1, PSQT_BUCKETS>,
            plus: &#rt::HalfAccumulator<L1, PSQT_BUCKETS>,
            to: &mut Accumulator,
            perspective: #rt::Color,
            removed: &Self::Changes,
            added: &Self::Changes,
        )
    }
}

/// The start of a rebased update (see [`update_rebased_head`]).
pub(crate) fn rebase_base() -> TokenStream {
    let rt = runtime();
    quote! {
        let p = perspective.index();
        let base = #rt::kernels::Rebase {
            from: #rt::kernels::Base { values: &from.values[p], psqt: &from.psqt[p] },
            minus: #rt::kernels::Base { values: &minus.values, psqt: &minus.psqt },
            plus: #rt::kernels::Base { values: &plus.values, psqt: &plus.psqt },
        };
    }
}
