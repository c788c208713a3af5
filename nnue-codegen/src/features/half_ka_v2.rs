//! `HalfKAv2` (`runtime::features::HalfKAv2`): one feature per piece, kings
//! included (both on one plane), by its square and kind and the
//! perspective's king square.

use super::common::FeatureGen;
use crate::tokens::runtime;
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct HalfKAv2;

impl FeatureGen for HalfKAv2 {
    fn runtime_type(&self) -> TokenStream {
        let rt = runtime();
        quote!(#rt::features::HalfKAv2)
    }

    fn field(&self) -> &'static str {
        "half_ka_v2"
    }
}
