//! `HalfKAv2_hm` (`runtime::features::HalfKAv2Hm`): `HalfKAv2` with the
//! board mirrored so that the perspective's king stands on files e-h (32
//! king buckets).

use super::common::FeatureGen;
use crate::tokens::runtime;
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct HalfKAv2Hm;

impl FeatureGen for HalfKAv2Hm {
    fn runtime_type(&self) -> TokenStream {
        let rt = runtime();
        quote!(#rt::features::HalfKAv2Hm)
    }

    fn field(&self) -> &'static str {
        "half_ka_v2_hm"
    }
}
