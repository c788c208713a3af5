//! `FullThreats`: one feature per piece attacking another piece of a kind
//! it targets. The architecture's module defines its targets
//! (`THREAT_TARGETS`) and the set of them (`ThreatFeatures`, the runtime's
//! `FullThreats<THREAT_TARGETS>`).

use super::common::FeatureGen;
use crate::tokens::{ident, runtime};
use nnue_spec::ir::FeatureSet;
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct FullThreats;

impl FeatureGen for FullThreats {
    fn runtime_type(&self) -> TokenStream {
        quote!(ThreatFeatures)
    }

    fn field(&self) -> &'static str {
        "full_threats"
    }

    /// `ThreatFeatures`, FullThreats with the targets of `set`.
    fn definitions(&self, set: &FeatureSet) -> Option<TokenStream> {
        let rt = runtime();
        let rows = set.targets.iter().map(|kinds| {
            let kinds = kinds.iter().map(|k| ident(&format!("{k:?}")));
            quote!(&[#(#rt::PieceKind::#kinds),*])
        });
        Some(quote! {
            /// For each attacking kind (pawn, knight, bishop, rook, queen, king),
            /// the kinds whose attack by it is a threat feature.
            pub const THREAT_TARGETS: u64 = #rt::features::threat_targets([#(#rows),*]);
            /// FullThreats with this architecture's targets.
            pub type ThreatFeatures = #rt::features::FullThreats<THREAT_TARGETS>;
        })
    }

    /// One attacker per square, each with its most attacked pieces.
    fn bound_apart(&self, _set: &FeatureSet) -> (TokenStream, Option<TokenStream>) {
        (quote!(threats::prove::<THREAT_TARGETS, _>), None)
    }
}
