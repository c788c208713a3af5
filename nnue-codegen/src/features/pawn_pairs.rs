//! `PP_3Wide` (`runtime::features::PawnPairs`): one feature per pair of
//! pawns on the same or adjacent files.

use super::common::FeatureGen;
use crate::tokens::runtime;
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct PawnPairs;

impl FeatureGen for PawnPairs {
    fn runtime_type(&self) -> TokenStream {
        let rt = runtime();
        quote!(#rt::features::PawnPairs)
    }

    fn field(&self) -> &'static str {
        "pp_3wide"
    }
}
