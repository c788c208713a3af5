//! `Network`'s evaluation: the layer stack and PSQT bucket of a position,
//! the PSQT value, the positional value through the backend, and the
//! evaluation combining them as Stockfish does.

use super::calls::reads_accumulators;
use crate::dispatch::dispatch;
use crate::tokens::{i32, int, runtime};
use nnue_spec::ir::{Arch, BucketSelect, EvalRule};
use proc_macro2::TokenStream;
use quote::quote;

/// From `bucket` to `evaluate_buckets`, inside `impl Network`.
pub(super) fn methods(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let bucket = bucket(arch);
    let psqt = if arch.transformer.psqt_buckets == 0 {
        quote! {
            let _ = (accumulator, side_to_move, bucket);
            0
        }
    } else {
        quote! {
            let (us, them) = (side_to_move.index(), side_to_move.flip().index());
            accumulator.psqt[us][bucket].wrapping_sub(accumulator.psqt[them][bucket]) / 2
        }
    };
    let scale = i32(arch.output.scale);
    let value = match arch.output.eval {
        EvalRule::SumThenDivide => quote!(psqt.wrapping_add(positional) / #scale),
        EvalRule::DivideThenSum => quote!(psqt / #scale + positional / #scale),
    };
    let value_doc = match arch.output.eval {
        EvalRule::SumThenDivide => format!("`(psqt + positional) / {}`", arch.output.scale),
        EvalRule::DivideThenSum => format!("`psqt / {0} + positional / {0}`", arch.output.scale),
    };
    let (value, value_doc) = match arch.output.clamp {
        None => (value, value_doc),
        Some((min, max)) => {
            let (low, high) = (i32(min), i32(max));
            (quote!((#value).clamp(#low, #high)), format!("{value_doc} clamped to `{min}..={max}`"))
        }
    };
    let value_doc = format!(" What Stockfish's NNUE entry point returns for this architecture: {value_doc}.");
    let positional = positional(arch);
    let buckets_positional = buckets_positional(arch);
    quote! {
        /// The layer stack and PSQT bucket of a position with `piece_count`
        /// pieces (kings included).
        pub fn bucket(piece_count: usize) -> usize {
            #bucket
        }

        /// The PSQT value of `bucket` from the side to move's view.
        pub fn psqt(accumulator: &Accumulator, side_to_move: #rt::Color, bucket: usize) -> i32 {
            #psqt
        }

        #[doc = #value_doc]
        pub fn value(psqt: i32, positional: i32) -> i32 {
            #value
        }

        /// Evaluates a position whose accumulator is computed.
        pub fn evaluate_accumulator(&self, accumulator: &Accumulator, side_to_move: #rt::Color, piece_count: usize) -> #rt::Evaluation {
            let bucket = Self::bucket(piece_count);
            let psqt = Self::psqt(accumulator, side_to_move, bucket);
            #positional
            #rt::Evaluation { bucket, psqt, positional, value: Self::value(psqt, positional) }
        }

        /// Evaluates a position from scratch.
        pub fn evaluate(&self, pos: &impl #rt::Position) -> #rt::Evaluation {
            let mut accumulator = Accumulator::default();
            self.refresh(pos, &mut accumulator);
            self.evaluate_accumulator(&accumulator, pos.side_to_move(), pos.piece_count())
        }

        /// Evaluates a position from scratch in every bucket.
        pub fn evaluate_buckets(&self, pos: &impl #rt::Position) -> #rt::BucketValues {
            let mut accumulator = Accumulator::default();
            self.refresh(pos, &mut accumulator);
            let side_to_move = pos.side_to_move();
            #buckets_positional
            let value = Self::value(psqt[bucket], positional[bucket]);
            #rt::BucketValues { bucket, psqt, positional, value }
        }
    }
}

/// The body of `bucket`: the stack of a piece count.
fn bucket(arch: &Arch) -> TokenStream {
    match arch.stacks.select {
        BucketSelect::Single => quote! {
            let _ = piece_count;
            0
        },
        BucketSelect::PieceCount { divisor, offset } => {
            let (divisor, offset) = (int(divisor), int(offset));
            quote! { (piece_count.saturating_sub(#offset) / #divisor).min(LAYER_STACKS - 1) }
        }
        BucketSelect::Table(table) => {
            let entries = table.iter().map(|&b| int(usize::from(b)));
            quote! {
                const STACK_OF_PIECE_COUNT: [usize; 33] = [#(#entries),*];
                STACK_OF_PIECE_COUNT[piece_count.min(32)]
            }
        }
    }
}

/// In `evaluate_accumulator`: `positional`, the stack's output, the
/// quickest way the architecture allows.
fn positional(arch: &Arch) -> TokenStream {
    let rt = runtime();
    if reads_accumulators(arch) {
        quote! {
            let positional = match self.propagate_accumulator(bucket, accumulator, side_to_move) {
                ::core::option::Option::Some(positional) => positional,
                ::core::option::Option::None => self.propagate_transformed(bucket, accumulator, side_to_move),
            };
        }
    } else if arch.lists_nonzero_chunks() {
        // Each SIMD backend runs the transformer and the layers in one
        // function.
        let evaluate = dispatch(
            |m| quote!(#m::evaluate(cpu, accumulator, order, &self.stacks[bucket])),
            quote! {{
                let mut slots = #rt::Aligned([::core::mem::MaybeUninit::uninit(); TRANSFORMED]);
                let mut nonzero = #rt::kernels::ChunkSlots::<NONZERO_CHUNKS>::new();
                let (transformed, nonzero) = self.transform_listed(accumulator, side_to_move, &mut slots, &mut nonzero);
                self.propagate_listed(bucket, transformed, nonzero)
            }},
        );
        quote! {
            let order = [side_to_move.index(), side_to_move.flip().index()];
            let positional = #evaluate;
        }
    } else {
        quote! {
            let mut slots = #rt::Aligned([::core::mem::MaybeUninit::uninit(); TRANSFORMED]);
            let transformed = self.transform_into(accumulator, side_to_move, &mut slots);
            let positional = self.propagate(bucket, transformed);
        }
    }
}

/// In `evaluate_buckets`: `bucket`, and `psqt` and `positional` of every
/// stack.
fn buckets_positional(arch: &Arch) -> TokenStream {
    let rt = runtime();
    if arch.lists_nonzero_chunks() {
        quote! {
            let mut slots = #rt::Aligned([::core::mem::MaybeUninit::uninit(); TRANSFORMED]);
            let mut nonzero = #rt::kernels::ChunkSlots::<NONZERO_CHUNKS>::new();
            let (transformed, nonzero) = self.transform_listed(&accumulator, side_to_move, &mut slots, &mut nonzero);
            let bucket = Self::bucket(pos.piece_count());
            let psqt: ::std::vec::Vec<i32> = (0..LAYER_STACKS).map(|b| Self::psqt(&accumulator, side_to_move, b)).collect();
            let positional: ::std::vec::Vec<i32> = (0..LAYER_STACKS).map(|b| self.propagate_listed(b, transformed, nonzero)).collect();
        }
    } else {
        quote! {
            let mut slots = #rt::Aligned([::core::mem::MaybeUninit::uninit(); TRANSFORMED]);
            let transformed = self.transform_into(&accumulator, side_to_move, &mut slots);
            let bucket = Self::bucket(pos.piece_count());
            let psqt: ::std::vec::Vec<i32> = (0..LAYER_STACKS).map(|b| Self::psqt(&accumulator, side_to_move, b)).collect();
            let positional: ::std::vec::Vec<i32> = (0..LAYER_STACKS).map(|b| self.propagate(b, transformed)).collect();
        }
    }
}
