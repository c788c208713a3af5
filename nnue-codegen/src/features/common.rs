//! What every feature-set kind's generator implements ([`FeatureGen`]).

use crate::tokens::runtime;
use nnue_spec::ir::FeatureSet;
use proc_macro2::TokenStream;
use quote::quote;

/// Everything generated for one kind of feature set (one implementation per
/// [`FeatureSetKind`](nnue_spec::ir::FeatureSetKind), each in its module of
/// `features/`).
pub(crate) trait FeatureGen {
    /// The type implementing the set: the runtime's, or one the
    /// architecture's module defines ([`Self::definitions`]).
    fn runtime_type(&self) -> TokenStream;

    /// Its field in a composed transformer (`half_ka_v2_hm`).
    fn field(&self) -> &'static str;

    /// The items the architecture's module defines for `set` (its type and
    /// constants), after the module's sizes.
    fn definitions(&self, _set: &FeatureSet) -> Option<TokenStream> {
        None
    }

    /// `set`'s type as the trait it implements: `FeatureSet` (one feature
    /// per piece) or `BoardFeatures` (features of several pieces).
    fn as_trait(&self, set: &FeatureSet) -> TokenStream {
        let (rt, ty) = (runtime(), self.runtime_type());
        if set.kind.per_piece() {
            quote!(<#ty as #rt::FeatureSet>)
        } else {
            quote!(<#ty as #rt::features::BoardFeatures>)
        }
    }

    /// How the overflow proof bounds `set`'s rows apart from the other
    /// sets: the function under `runtime::overflow` and, if it takes one,
    /// the most features active at once. By default its `MAX_ACTIVE`
    /// largest rows.
    fn bound_apart(&self, set: &FeatureSet) -> (TokenStream, Option<TokenStream>) {
        let set = self.as_trait(set);
        (quote!(rows::prove), Some(quote!(#set::MAX_ACTIVE)))
    }
}
