//! The composed transformer: several feature sets (or one whose weights are
//! not i16, or whose features are not one per piece) summed into one
//! accumulator. Each set has its own rows, of its own weight type and
//! encoding; a refresh adds the biases, then every set's active rows, set
//! after set. Stockfish keeps one accumulator per set and adds them lane by
//! lane before the output stage; as both sums wrap in i16 (and the proof
//! shows that neither wraps), one accumulator is the same.
//!
//! The file holds the biases, then every set's weights in list order,
//! followed either by one block of every set's PSQT weights in list order or
//! (`psqt_weights: AfterEachSet`) each set's weights by its PSQT weights.

use super::common::{TransformerGen, rebase_base, update_rebased_head};
use crate::features::{self, as_trait, dimensions, field, max_active, runtime_type};
use crate::targets::TARGETS;
use crate::tokens::{doc, i32, ident, int, runtime};
use nnue_spec::feature_sets;
use nnue_spec::ir::{Arch, Encoding, FeatureSet, FeatureSetKind, PsqtPlacement};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

pub(crate) struct Composed;

impl TransformerGen for Composed {
    fn constants(&self, arch: &Arch) -> (TokenStream, TokenStream) {
        let dimensions = arch.features.iter().map(dimensions);
        (quote!(), quote!(#(#dimensions)+*))
    }

    fn definition(&self, arch: &Arch) -> TokenStream {
        definition(arch)
    }

    fn read(&self, _arch: &Arch) -> TokenStream {
        quote!(Transformer::read(&mut r)?)
    }

    fn methods(&self, arch: &Arch) -> TokenStream {
        methods(arch)
    }

    fn incremental(&self, arch: &Arch) -> Option<TokenStream> {
        incremental(arch)
    }

    fn proof(&self, arch: &Arch) -> TokenStream {
        proof(arch)
    }

    fn kernels(&self, arch: &Arch) -> (TokenStream, TokenStream) {
        let rt = runtime();
        (
            if arch.lists_nonzero_chunks() {
                quote!(
                    use super::{Accumulator, LayerStack, L1, NONZERO_CHUNKS, PSQT_BUCKETS, TRANSFORMED};
                )
            } else {
                quote!(
                    use super::{Accumulator, LayerStack, L1, PSQT_BUCKETS, TRANSFORMED};
                )
            },
            quote! {
                /// `values = base` with every set's removed rows subtracted
                /// and added rows added, the same for `psqt`: an update from
                /// the parent's accumulator, in one pass over the lanes.
                pub(super) fn update_sets<S: #rt::kernels::SetUpdates, B: #rt::kernels::UpdateBase<L1, PSQT_BUCKETS>>(
                    cpu: Cpu,
                    sets: &S,
                    base: &B,
                    values: &mut [i16; L1],
                    psqt: &mut [i32; PSQT_BUCKETS],
                ) {
                    cpu.update_sets::<S, B, L1, TILE, PSQT_BUCKETS>(sets, base, values, psqt);
                }
            },
        )
    }
}

fn encoding(encoding: Encoding) -> TokenStream {
    let rt = runtime();
    match encoding {
        Encoding::Raw => quote!(#rt::Encoding::Raw),
        Encoding::Leb128 => quote!(#rt::Encoding::Leb128),
    }
}

/// The `Transformer` struct and its loading.
fn definition(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let fields = arch.features.iter().map(|f| {
        let (name, weight) = (field(f), ident(f.weight.rust_name()));
        let doc = doc(&format!(
            "{}: {} rows of L1 {} weights and of PSQT_BUCKETS PSQT weights.",
            feature_sets::name(f.kind),
            f.dimensions,
            f.weight.rust_name()
        ));
        quote! { #doc #name: #rt::params::FeatureRows<#weight> }
    });
    let names: Vec<Ident> = arch.features.iter().map(field).collect();
    let scale = i32(arch.transformer.load_scale);
    let file_encoding = encoding(arch.encoding);
    let psqt_each = arch.transformer.psqt_buckets > 0 && arch.psqt_placement == PsqtPlacement::AfterEachSet;
    let reads = arch.features.iter().map(|f| {
        let (name, weight, dims) = (field(f), ident(f.weight.rust_name()), dimensions(f));
        let what = format!("{} weights", feature_sets::name(f.kind));
        let encoding = encoding(f.encoding);
        let psqt = psqt_each.then(|| {
            let what = format!("{} PSQT weights", feature_sets::name(f.kind));
            quote!(r.ints(#what, #file_encoding, 1, &mut #name.psqt_weights)?;)
        });
        quote! {
            let mut #name = #rt::params::FeatureRows::<#weight>::zeroed(#dims, L1, PSQT_BUCKETS);
            r.ints(#what, #encoding, #scale, &mut #name.weights)?;
            #psqt
        }
    });
    let psqt = (arch.transformer.psqt_buckets > 0 && !psqt_each).then(|| {
        quote! {
            r.int_parts("transformer PSQT weights", #file_encoding, &mut [#(&mut #names.psqt_weights[..]),*])?;
        }
    });
    // A bullet file is read tensor by tensor (`crate::bullet`).
    let read = (!arch.is_bullet()).then(|| {
        quote! {
            /// Reads the biases and every feature set's weights and PSQT
            /// weights, in file order (the hash word already read).
            fn read(r: &mut #rt::NetReader<'_>) -> ::core::result::Result<Self, #rt::LoadError> {
                let mut biases = ::std::boxed::Box::new(#rt::Aligned([0i16; L1]));
                r.ints("transformer biases", #file_encoding, #scale, &mut biases[..])?;
                #(#reads)*
                #psqt
                ::core::result::Result::Ok(Transformer { biases, #(#names),* })
            }
        }
    });
    quote! {
        /// The transformer's parameters: the biases and every feature set's
        /// rows, in file order.
        pub struct Transformer {
            biases: ::std::boxed::Box<#rt::Aligned<[i16; L1]>>,
            #(#fields,)*
        }

        impl Transformer {
            #read

            /// Stores the lanes in the packing order of `lanes`-wide
            /// registers, as the SIMD kernels expect.
            fn permute_lanes(&mut self, lanes: usize) {
                #rt::kernels::layout::permute_lanes(&mut self.biases[..], lanes);
                #(self.#names.permute_lanes(lanes);)*
            }
        }
    }
}

/// `refresh` and the row-adding kernel's dispatch, methods of `Network`.
fn methods(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let actives = arch.features.iter().map(|f| {
        let (set, active) = (as_trait(f), format_ident!("{}_active", field(f)));
        if f.kind.per_piece() {
            quote! {
                let mut #active = [#rt::FeatureList::default(), #rt::FeatureList::default()];
                #set::active_features_both(pos, &mut #active);
            }
        } else {
            let max = max_active(f);
            quote! {
                let mut #active: [#rt::features::FeatureBuffer<{ #max }>; 2] = ::core::default::Default::default();
                #set::for_each_active_both(pos, |perspective, feature| #active[perspective.index()].push(feature));
            }
        }
    });
    let sets = set_updates(arch, |_, f| {
        let active = format_ident!("{}_active", field(f));
        (quote!(&[]), quote!(#active[p].as_slice()))
    });
    let arms = TARGETS.iter().map(|t| {
        let (variant, module, arch_name) = (ident(t.variant), ident(t.module), t.arch);
        quote! {
            #[cfg(target_arch = #arch_name)]
            #rt::Backend::#variant(cpu) => #module::update_sets(cpu, sets, base, values, psqt),
        }
    });
    let update_sets = update_sets(arch);
    quote! {
        #update_sets

        /// Computes both perspectives' accumulators from scratch: the
        /// biases plus every feature set's active rows.
        pub fn refresh(&self, pos: &impl #rt::Position, accumulator: &mut Accumulator) {
            #(#actives)*
            for p in 0..2 {
                let sets = #sets;
                let base = #rt::kernels::Base { values: &self.transformer.biases, psqt: &[0; PSQT_BUCKETS] };
                self.apply_sets(&sets, &base, &mut accumulator.values[p], &mut accumulator.psqt[p]);
            }
        }

        /// The backend's kernel: `values = base` with every set's removed
        /// rows subtracted and added rows added, the same for `psqt`.
        fn apply_sets<S: #rt::kernels::SetUpdates, B: #rt::kernels::UpdateBase<L1, PSQT_BUCKETS>>(
            &self,
            sets: &S,
            base: &B,
            values: &mut [i16; L1],
            psqt: &mut [i32; PSQT_BUCKETS],
        ) {
            match self.backend {
                #rt::Backend::Scalar => {
                    *values = base.values();
                    *psqt = base.psqt();
                    #rt::kernels::SetUpdates::scalar(sets, values, psqt);
                }
                #(#arms)*
            }
        }
    }
}

/// The `runtime::kernels::SetUpdate`s of every feature set
/// (a tuple when there are several), each set's removed and added features
/// given by `features` (of the set's place among the sets, and the set).
fn set_updates(arch: &Arch, features: impl Fn(usize, &FeatureSet) -> (TokenStream, TokenStream)) -> TokenStream {
    let rt = runtime();
    let parts: Vec<TokenStream> = arch
        .features
        .iter()
        .enumerate()
        .map(|(k, f)| {
            let name = field(f);
            let (removed, added) = features(k, f);
            quote! {
                #rt::kernels::SetUpdate {
                    weights: &self.transformer.#name.weights,
                    psqt_weights: &self.transformer.#name.psqt_weights,
                    removed: #removed,
                    added: #added,
                }
            }
        })
        .collect();
    if parts.len() == 1 { quote!(#(#parts)*) } else { quote!((#(#parts,)*)) }
}

/// The transformer part of the overflow proof; the PSQT ranges in `psqt`.
/// The first per-piece set is bounded over its king views; with FullThreats
/// next to it, both together, square by square (a piece's row and its
/// attacks come with the same piece), and PP_3Wide with them (a pair comes
/// with its pawns; priced where that leaves i16, `overflow::pairwise`);
/// every other set by its rows alone (FullThreats alone: one attacker per
/// square).
fn proof(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let first = arch.features.iter().position(|f| f.kind.per_piece());
    let threats = arch.features.iter().position(|f| f.kind == FeatureSetKind::FullThreats);
    let joint = first.zip(threats);
    let pairs = joint.and(arch.features.iter().position(|f| f.kind == FeatureSetKind::PP_3Wide));
    let separate: Vec<&FeatureSet> = arch
        .features
        .iter()
        .enumerate()
        .filter(|&(i, _)| Some(i) != first && (joint.is_none() || Some(i) != threats) && Some(i) != pairs)
        .map(|(_, f)| f)
        .collect();
    let count = crate::tokens::int(separate.len());
    let others = separate.iter().map(|f| bound_apart(f));
    let psqt = match (first.map(|i| &arch.features[i]), joint) {
        (Some(f), Some((_, t))) => {
            let (params, ty, threats) = (transformer_params(f), runtime_type(f), field(&arch.features[t]));
            let pairs = match pairs.map(|p| &arch.features[p]) {
                Some(p) => {
                    let (bound, name) = (bound_apart(p), field(p));
                    quote! {
                        let pair_rows = #bound;
                        let pairs = ::core::option::Option::Some((&transformer.#name.weights[..], &pair_rows));
                    }
                }
                None => quote! {
                    let pairs = ::core::option::Option::<(&[i8], &#rt::overflow::rows::SetBound)>::None;
                },
            };
            quote! {
                #params
                #pairs
                #rt::overflow::threats::prove_joint::<THREAT_TARGETS, _, _, _>(
                    &mut proof,
                    <#ty as #rt::FeatureSet>::index,
                    &params,
                    &transformer.#threats.weights,
                    &transformer.#threats.psqt_weights,
                    pairs,
                    &others,
                )
            }
        }
        (Some(f), None) => {
            let (params, ty, max) = (transformer_params(f), runtime_type(f), max_active(f));
            quote! {
                #params
                #rt::overflow::transformer::prove_with(
                    &mut proof,
                    <#ty as #rt::FeatureSet>::index,
                    #max,
                    &params,
                    &others,
                )
            }
        }
        (None, _) => quote! {
            #rt::overflow::transformer::prove_rows_only(&mut proof, &transformer.biases[..], PSQT_BUCKETS, &others)
        },
    };
    quote! {
        let others: [#rt::overflow::rows::SetBound; #count] = [#(#others),*];
        let psqt = { #psqt };
    }
}

/// A set bounded apart from the per-piece set, as its kind says
/// ([`FeatureGen::bound_apart`](crate::features::FeatureGen::bound_apart)):
/// FullThreats by one attacker per square, each with its most attacked
/// pieces; any other by its `MAX_ACTIVE` largest rows.
fn bound_apart(f: &FeatureSet) -> TokenStream {
    let rt = runtime();
    let (name, label) = (field(f), feature_sets::name(f.kind));
    let (prove, max) = features::of(f.kind).bound_apart(f);
    let max = max.iter();
    quote! {
        #rt::overflow::#prove(
            &mut proof,
            #label,
            &transformer.#name.weights,
            L1,
            &transformer.#name.psqt_weights,
            PSQT_BUCKETS,
            #(#max,)*
        )
    }
}

/// `params`, the per-piece set `f` with the biases, as the transformer's
/// proof takes them.
fn transformer_params(f: &FeatureSet) -> TokenStream {
    let rt = runtime();
    let name = field(f);
    quote! {
        let params = #rt::overflow::transformer::TransformerParams {
            biases: &transformer.biases[..],
            weights: &transformer.#name.weights,
            psqt_weights: &transformer.#name.psqt_weights,
            psqt_buckets: PSQT_BUCKETS,
        };
    }
}

/// Whether the network implements `runtime::Network`: a piece has at most
/// one per-piece feature (the trait's `feature`), so at most one per-piece
/// set; FullThreats sets come through `board_features`.
pub(super) fn is_incremental(arch: &Arch) -> bool {
    arch.features.iter().filter(|f| f.kind.per_piece()).count() <= 1
}

/// The place of the per-piece set among the sets (their number when there
/// is none): the list `runtime::features::SetLists` pushes to.
fn piece_set(arch: &Arch) -> usize {
    arch.features.iter().position(|f| f.kind.per_piece()).unwrap_or(arch.features.len())
}

/// The incremental part of `runtime::Network` for a composed transformer
/// (`None` when it has more than one per-piece set): each update's features
/// listed set by set ([`runtime::features::SetLists`]), each numbered within
/// its set.
fn incremental(arch: &Arch) -> Option<TokenStream> {
    if !is_incremental(arch) {
        return None;
    }
    let rt = runtime();
    let (update_rebased, rebase_base) = (update_rebased_head(), rebase_base());
    let add_board_features = add_board_features(arch);
    let board_features = arch.features.iter().any(|f| !f.kind.per_piece());
    // A king move is an update only if every set sees the board as before.
    let same_views = arch.features.iter().map(|f| {
        let set = as_trait(f);
        quote!(#set::same_view(perspective, a, b))
    });
    // The board sets alone (a king move the per-piece sets see otherwise is
    // then computed from the parent's accumulator, see `update_rebased`).
    let same_board_views: Vec<TokenStream> = arch
        .features
        .iter()
        .filter(|f| !f.kind.per_piece())
        .map(|f| {
            let set = as_trait(f);
            quote!(#set::same_view(perspective, a, b))
        })
        .collect();
    let same_board_view = (!same_board_views.is_empty()).then(|| {
        quote! {
            fn same_board_view(perspective: #rt::Color, a: #rt::Square, b: #rt::Square) -> bool {
                #(#same_board_views)&&*
            }
        }
    });
    let max = arch.features.iter().map(max_active);
    let (sets, pieces) = (arch.features.len(), piece_set(arch));
    let (set_count, piece_list) = (int(sets), int(pieces));
    let feature = match arch.features.iter().find(|f| f.kind.per_piece()) {
        Some(f) => {
            let ty = runtime_type(f);
            quote!(<#ty as #rt::FeatureSet>::index(perspective, king, square, piece))
        }
        None => quote! {
            let _ = (perspective, king, square, piece);
            ::core::option::Option::None
        },
    };
    // Each set whose features depend on more than one piece, and its place
    // among all the sets: its part of `BoardChanges` (a tuple, one element
    // per such set).
    let board_sets: Vec<(&FeatureSet, usize)> =
        arch.features.iter().enumerate().filter(|(_, f)| !f.kind.per_piece()).map(|(k, f)| (f, k)).collect();
    let board_types = board_sets.iter().map(|(f, _)| {
        let set = as_trait(f);
        quote!(#set::Changes)
    });
    let find = board_sets.iter().enumerate().map(|(i, (f, _))| {
        let (set, i) = (as_trait(f), syn::Index::from(i));
        quote!(#set::board_changes(before, after, &mut changes.#i);)
    });
    let features = board_sets.iter().enumerate().map(|(i, &(f, k))| {
        let (set, i, k) = (as_trait(f), syn::Index::from(i), int(k));
        quote!(#set::features_of(perspective, king, &changes.#i, removed.set_mut(#k), added.set_mut(#k));)
    });
    let unused = board_sets.is_empty().then(|| quote!(let _ = (perspective, king, changes, removed, added);));
    // The per-piece set's features alone (none without such a set).
    let unused_pieces = (pieces == sets).then(|| quote!(let _ = (removed, added);));
    let lists =
        arch.features.iter().map(|f| if f.kind.per_piece() { quote!((removed, added)) } else { quote!((&[], &[])) });
    let prefetch_piece_rows = quote! {
        #unused_pieces
        self.prefetch_lists([#(#lists),*]);
    };
    let piece_sets = set_updates(arch, |_, f| {
        if f.kind.per_piece() { (quote!(removed), quote!(added)) } else { (quote!(&[]), quote!(&[])) }
    });
    let update_pieces = quote! {
        #unused_pieces
        let sets = #piece_sets;
        self.apply_sets(&sets, &base, &mut to.values[p], &mut to.psqt[p]);
    };
    Some(quote! {
        const BOARD_FEATURES: bool = #board_features;
        type Changes = #rt::features::SetLists<#set_count, { #(#max)+* }, #piece_list>;
        type BoardChanges = (#(#board_types,)*);

        fn feature(perspective: #rt::Color, king: #rt::Square, square: #rt::Square, piece: #rt::Piece) -> ::core::option::Option<usize> {
            #feature
        }

        fn same_view(perspective: #rt::Color, a: #rt::Square, b: #rt::Square) -> bool {
            #(#same_views)&&*
        }

        #same_board_view

        fn board_changes(before: &#rt::Placement, after: &#rt::Placement, changes: &mut Self::BoardChanges) {
            let _ = (before, after);
            #(#find)*
        }

        fn board_features(
            perspective: #rt::Color,
            king: #rt::Square,
            changes: &Self::BoardChanges,
            removed: &mut Self::Changes,
            added: &mut Self::Changes,
        ) {
            #unused
            #(#features)*
        }

        fn prefetch_update(&self, removed: &Self::Changes, added: &Self::Changes) {
            self.prefetch_sets(removed, added);
        }

        fn prefetch_piece_rows(&self, removed: &[u32], added: &[u32]) {
            #prefetch_piece_rows
        }

        fn update(&self, from: &Accumulator, to: &mut Accumulator, perspective: #rt::Color, removed: &Self::Changes, added: &Self::Changes) {
            let p = perspective.index();
            let base = #rt::kernels::Base { values: &from.values[p], psqt: &from.psqt[p] };
            self.update_sets(removed, added, &base, &mut to.values[p], &mut to.psqt[p]);
        }

        fn update_from_half(&self, from: &#rt::HalfAccumulator<L1, PSQT_BUCKETS>, to: &mut Accumulator, perspective: #rt::Color, removed: &[u32], added: &[u32]) {
            let p = perspective.index();
            let base = #rt::kernels::Base { values: &from.values, psqt: &from.psqt };
            #update_pieces
        }

        #update_rebased {
            #rebase_base
            self.update_sets(removed, added, &base, &mut to.values[p], &mut to.psqt[p]);
        }

        #add_board_features
    })
}

/// `Network::add_board_features` of a composed transformer with board
/// features: each board set's active features listed into its own list,
/// added to the entry's part in one pass.
fn add_board_features(arch: &Arch) -> Option<TokenStream> {
    if arch.features.iter().all(|f| f.kind.per_piece()) {
        return None;
    }
    let rt = runtime();
    let lists = arch.features.iter().enumerate().filter(|(_, f)| !f.kind.per_piece()).map(|(k, f)| {
        let (set, k) = (as_trait(f), int(k));
        quote!(#set::active_on(board, perspective, king, active.set_mut(#k));)
    });
    let sets = set_updates(arch, |k, f| {
        let k = int(k);
        if f.kind.per_piece() { (quote!(&[]), quote!(&[])) } else { (quote!(&[]), quote!(active.set(#k))) }
    });
    Some(quote! {
        fn add_board_features(
            &self,
            from: &#rt::HalfAccumulator<L1, PSQT_BUCKETS>,
            to: &mut Accumulator,
            perspective: #rt::Color,
            king: #rt::Square,
            board: &#rt::Bitboards,
        ) {
            let mut active = <Network as #rt::Network>::Changes::default();
            #(#lists)*
            let p = perspective.index();
            let base = #rt::kernels::Base { values: &from.values, psqt: &from.psqt };
            let sets = #sets;
            self.apply_sets(&sets, &base, &mut to.values[p], &mut to.psqt[p]);
        }
    })
}

/// `update_sets`, a method of `Network` when it is incremental: every set's
/// rows of an update applied in one pass; `prefetch_sets` and
/// `prefetch_lists`, the requests for the rows (`kernels::prefetch_sets`).
fn update_sets(arch: &Arch) -> Option<TokenStream> {
    if !is_incremental(arch) {
        return None;
    }
    let rt = runtime();
    let sets = set_updates(arch, |k, _| {
        let k = int(k);
        (quote!(removed.set(#k)), quote!(added.set(#k)))
    });
    let lists = (0..arch.features.len()).map(int).map(|k| quote!((removed.set(#k), added.set(#k))));
    let count = int(arch.features.len());
    let rows = arch.features.iter().map(|f| {
        let name = field(f);
        quote! {
            #rt::kernels::SetRows::new(
                &self.transformer.#name.weights,
                L1,
                &self.transformer.#name.psqt_weights,
                PSQT_BUCKETS,
            )
        }
    });
    Some(quote! {
        /// `values = base` minus the rows of `removed`, plus those of
        /// `added`, the same for `psqt`.
        fn update_sets<B: #rt::kernels::UpdateBase<L1, PSQT_BUCKETS>>(
            &self,
            removed: &<Network as #rt::Network>::Changes,
            added: &<Network as #rt::Network>::Changes,
            base: &B,
            values: &mut [i16; L1],
            psqt: &mut [i32; PSQT_BUCKETS],
        ) {
            let sets = #sets;
            self.apply_sets(&sets, base, values, psqt);
        }

        /// Starts loading the first lanes of the rows of `removed` and
        /// `added` and their PSQT rows.
        fn prefetch_sets(&self, removed: &<Network as #rt::Network>::Changes, added: &<Network as #rt::Network>::Changes) {
            self.prefetch_lists([#(#lists),*]);
        }

        /// `prefetch_sets` for each set's removed and added features.
        fn prefetch_lists(&self, lists: [(&[u32], &[u32]); #count]) {
            let rows = [#(#rows),*];
            #rt::kernels::prefetch_sets(lists, rows);
        }
    })
}
