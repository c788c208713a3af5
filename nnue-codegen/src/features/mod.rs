//! Code generation by feature-set kind: one module per [`FeatureSetKind`],
//! holding everything generated for a set of that kind ([`FeatureGen`]):
//! the type implementing it, the items the architecture's module defines
//! for it, its field in a composed transformer, how the overflow proof
//! bounds it apart. The transformers (`constants`, `composed`, `network`)
//! ask each set its part.
//!
//! A new feature-set kind is a new module here (its features in
//! `nnue-runtime`, its facts in `nnue-spec`) and its arm in [`of`].

mod common;
mod full_threats;
mod half_ka_v2;
mod half_ka_v2_hm;
mod half_kp;
mod pawn_pairs;
mod piece_square;

use crate::tokens::ident;
pub(crate) use common::FeatureGen;
use nnue_spec::ir::{FeatureSet, FeatureSetKind};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// The generator of a feature set of `kind`.
pub(crate) fn of(kind: FeatureSetKind) -> &'static dyn FeatureGen {
    match kind {
        FeatureSetKind::HalfKP => &half_kp::HalfKP,
        FeatureSetKind::HalfKAv2 => &half_ka_v2::HalfKAv2,
        FeatureSetKind::HalfKAv2_hm => &half_ka_v2_hm::HalfKAv2Hm,
        FeatureSetKind::FullThreats => &full_threats::FullThreats,
        FeatureSetKind::PP_3Wide => &pawn_pairs::PawnPairs,
        FeatureSetKind::PieceSquare => &piece_square::PieceSquare,
    }
}

/// The type implementing `set`.
pub(crate) fn runtime_type(set: &FeatureSet) -> TokenStream {
    of(set.kind).runtime_type()
}

/// `set`'s field in a composed transformer.
pub(crate) fn field(set: &FeatureSet) -> Ident {
    ident(of(set.kind).field())
}

/// `set`'s type as the trait it implements ([`FeatureGen::as_trait`]).
pub(crate) fn as_trait(set: &FeatureSet) -> TokenStream {
    of(set.kind).as_trait(set)
}

/// The runtime's number of features of a set.
pub(crate) fn dimensions(set: &FeatureSet) -> TokenStream {
    let set = as_trait(set);
    quote!(#set::DIMENSIONS)
}

/// The runtime's most active features of a set.
pub(crate) fn max_active(set: &FeatureSet) -> TokenStream {
    let set = as_trait(set);
    quote!(#set::MAX_ACTIVE)
}
