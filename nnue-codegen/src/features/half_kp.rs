//! `HalfKP` (`runtime::features::HalfKP`): one feature per piece but the
//! kings, by its square and kind and the perspective's king square.

use super::common::FeatureGen;
use crate::tokens::runtime;
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct HalfKP;

impl FeatureGen for HalfKP {
    fn runtime_type(&self) -> TokenStream {
        let rt = runtime();
        quote!(#rt::features::HalfKP)
    }

    fn field(&self) -> &'static str {
        "half_kp"
    }
}
