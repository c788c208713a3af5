//! The network type: loading a file, computing accumulators, evaluating.

use crate::tokens::{i32, int, runtime};
use nnue_spec::ir::{Arch, BucketSelect, Encoding, EvalRule, TransformerOutput};
use proc_macro2::TokenStream;
use quote::quote;

pub fn generate(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let encoding = match arch.encoding {
        Encoding::Raw => quote!(#rt::Encoding::Raw),
        Encoding::Leb128 => quote!(#rt::Encoding::Leb128),
    };
    let load_scale = i32(arch.transformer.load_scale);
    let transform = transform(arch);
    let bucket = match arch.stacks.select {
        BucketSelect::Single => quote! {
            let _ = piece_count;
            0
        },
        BucketSelect::PieceCount { divisor } => {
            let divisor = int(divisor);
            quote! { (piece_count.saturating_sub(1) / #divisor).min(LAYER_STACKS - 1) }
        }
    };
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
    let value_doc = format!(" What Stockfish's NNUE entry point returns for this architecture: {value_doc}.");
    quote! {
        /// A loaded network: the transformer and every layer stack.
        pub struct Network {
            description: ::std::string::String,
            transformer: #rt::scalar::Transformer<L1, PSQT_BUCKETS>,
            stacks: ::std::boxed::Box<[LayerStack]>,
        }

        impl Network {
            /// Loads a net file from memory (for example `include_bytes!`):
            /// checks version and hashes, reads every parameter, and rejects
            /// trailing bytes.
            pub fn from_bytes(bytes: &[u8]) -> ::core::result::Result<Self, #rt::LoadError> {
                let mut r = #rt::NetReader::new(bytes, NAME);
                let header = r.expect_header(VERSION, HEADER_HASH)?;
                r.expect_hash("the transformer hash", TRANSFORMER_HASH)?;
                let transformer = #rt::scalar::Transformer::read(&mut r, FEATURES, #encoding, #load_scale)?;
                let stacks = (0..LAYER_STACKS)
                    .map(|stack| LayerStack::read(&mut r, stack))
                    .collect::<::core::result::Result<_, _>>()?;
                r.finish()?;
                ::core::result::Result::Ok(Network { description: header.description, transformer, stacks })
            }

            /// Loads a net file from disk.
            pub fn from_file(path: impl ::core::convert::AsRef<::std::path::Path>) -> ::core::result::Result<Self, #rt::LoadError> {
                Self::from_bytes(&#rt::read_file(path.as_ref())?)
            }

            /// The description stored in the file.
            pub fn description(&self) -> &str {
                &self.description
            }

            /// Layer stack number `bucket`.
            pub fn layer_stack(&self, bucket: usize) -> &LayerStack {
                &self.stacks[bucket]
            }

            /// Computes both perspectives' accumulators from scratch.
            pub fn refresh(&self, pos: &impl #rt::Position, accumulator: &mut Accumulator) {
                for perspective in [#rt::Color::White, #rt::Color::Black] {
                    let mut active = #rt::FeatureList::default();
                    <FeatureSet as #rt::FeatureSet>::active_features(pos, perspective, &mut active);
                    let p = perspective.index();
                    self.transformer.refresh(active.as_slice(), &mut accumulator.values[p], &mut accumulator.psqt[p]);
                }
            }

            /// The transformer's output: the side to move's half first.
            pub fn transform(&self, accumulator: &Accumulator, side_to_move: #rt::Color, output: &mut [u8; TRANSFORMED]) {
                #transform
            }

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
                let mut transformed = [0u8; TRANSFORMED];
                self.transform(accumulator, side_to_move, &mut transformed);
                let psqt = Self::psqt(accumulator, side_to_move, bucket);
                let positional = self.stacks[bucket].propagate(&transformed);
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
                let mut transformed = [0u8; TRANSFORMED];
                self.transform(&accumulator, side_to_move, &mut transformed);
                let bucket = Self::bucket(pos.piece_count());
                let psqt: ::std::vec::Vec<i32> = (0..LAYER_STACKS).map(|b| Self::psqt(&accumulator, side_to_move, b)).collect();
                let positional: ::std::vec::Vec<i32> = self.stacks.iter().map(|s| s.propagate(&transformed)).collect();
                let value = Self::value(psqt[bucket], positional[bucket]);
                #rt::BucketValues { bucket, psqt, positional, value }
            }
        }

        impl #rt::AnyNetwork for Network {
            fn arch(&self) -> &'static #rt::ArchInfo {
                &ARCH
            }

            fn description(&self) -> &str {
                &self.description
            }

            fn nonzero_padding(&self) -> usize {
                self.stacks.iter().map(LayerStack::nonzero_padding).sum()
            }

            fn evaluate_board(&self, pos: &#rt::Board) -> #rt::BucketValues {
                self.evaluate_buckets(pos)
            }
        }

        /// This architecture in a registry of architectures.
        pub const ENTRY: #rt::ArchEntry = #rt::ArchEntry {
            info: &ARCH,
            load: |bytes| ::core::result::Result::Ok(::std::boxed::Box::new(Network::from_bytes(bytes)?)),
        };
    }
}

/// The body of `transform`.
fn transform(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let (half, call) = match arch.transformer.output {
        TransformerOutput::ClippedReLU { max } => {
            let max = i32(max);
            (quote!(L1), quote!(#rt::scalar::clipped_output(values, #max, out)))
        }
        TransformerOutput::Pairwise { max, divisor } => {
            let (max, divisor) = (i32(max), i32(divisor));
            (quote!(L1 / 2), quote!(#rt::scalar::pairwise_output(values, #max, #divisor, out)))
        }
    };
    quote! {
        let (first, second) = output.split_at_mut(#half);
        for (out, perspective) in [(first, side_to_move), (second, side_to_move.flip())] {
            let values = &accumulator.values[perspective.index()];
            #call;
        }
    }
}
