//! `PieceSquare`: one feature per piece, by its square and kind and the
//! perspective's king bucket, in the layout the architecture file gives.
//! The architecture's module defines that layout (`PieceSquareLayout`) and
//! the set of it (`PieceSquareFeatures`, the runtime's `PieceSquare`).

use super::common::FeatureGen;
use crate::tokens::{hex, ident, int, runtime};
use nnue_spec::ir::{FeatureSet, PlaneOrder};
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) struct PieceSquare;

impl FeatureGen for PieceSquare {
    fn runtime_type(&self) -> TokenStream {
        quote!(PieceSquareFeatures)
    }

    fn field(&self) -> &'static str {
        "piece_square"
    }

    /// `PieceSquareFeatures`, the piece-square set of `set`'s layout.
    fn definitions(&self, set: &FeatureSet) -> Option<TokenStream> {
        let rt = runtime();
        let layout = set.layout.as_ref().expect("a validated PieceSquare set has a layout");
        let buckets = layout.king_buckets.iter().map(|&b| int(usize::from(b)));
        let count = int(layout.buckets);
        let hash = hex(set.hash);
        let mirror = ident(&format!("{:?}", layout.mirror));
        let planes = ident(match layout.planes {
            PlaneOrder::SideMajor => "SideMajor",
            PlaneOrder::Interleaved => "Interleaved",
        });
        let merged = layout.merged_kings;
        Some(quote! {
            /// The piece-square set's layout, as the architecture file gives it.
            pub struct PieceSquareLayout;

            impl #rt::features::PieceSquareLayout for PieceSquareLayout {
                const NAME: &'static str = "PieceSquare";
                const HASH: u32 = #hash;
                /// The bucket of each square a1..h8 of the perspective's oriented king.
                const KING_BUCKETS: [u8; 64] = [#(#buckets),*];
                const BUCKETS: usize = #count;
                const MIRROR: #rt::features::Mirror = #rt::features::Mirror::#mirror;
                const PLANE_ORDER: #rt::features::PlaneOrder = #rt::features::PlaneOrder::#planes;
                const MERGED_KINGS: bool = #merged;
            }

            /// The piece-square feature set of this layout.
            pub type PieceSquareFeatures = #rt::features::PieceSquare<PieceSquareLayout>;
        })
    }
}
