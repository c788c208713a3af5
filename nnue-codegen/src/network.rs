//! The network type: loading a file for a backend, dispatching to the
//! backend's kernels, computing accumulators, evaluating.

use crate::targets::TARGETS;
use crate::tokens::{i32, ident, int, runtime};
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
    let scalar_transform = scalar_transform(arch);
    let dispatch = |call: &dyn Fn(&proc_macro2::Ident) -> TokenStream, scalar: TokenStream| {
        let arms = TARGETS.iter().map(|t| {
            let (variant, module, arch_name) = (ident(t.variant), ident(t.module), t.arch);
            let call = call(&module);
            quote! {
                #[cfg(target_arch = #arch_name)]
                #rt::Backend::#variant(cpu) => #call,
            }
        });
        quote! {
            match self.backend {
                #rt::Backend::Scalar => #scalar,
                #(#arms)*
            }
        }
    };
    let accumulate = dispatch(
        &|m| quote!(#m::accumulate(cpu, &self.transformer, base, psqt_base, removed, added, out, psqt_out)),
        quote!(self.transformer.accumulate(base, psqt_base, removed, added, out, psqt_out)),
    );
    // Where the first layer's input is sparse, the transformer's kernels
    // list its non-zero chunks (the scalar one by a search after it).
    let listed = arch.lists_nonzero_chunks();
    let transform = if listed {
        dispatch(
            &|m| quote!(#m::transform(cpu, accumulator, order, slots, nonzero)),
            quote! {{
                let bytes = #scalar_transform;
                let list = #rt::kernels::ChunkList::search(bytes, nonzero);
                (bytes, list)
            }},
        )
    } else {
        dispatch(&|m| quote!(#m::transform(cpu, accumulator, order, slots)), scalar_transform)
    };
    let no_list = listed.then(|| quote!(::core::option::Option::None,));
    let propagate = dispatch(
        &|m| quote!(#m::propagate(cpu, stack, input, #no_list &mut trace)),
        quote!(stack.propagate_scalar(input, &mut trace)),
    );
    let listed_methods = listed.then(|| {
        let propagate_listed = dispatch(
            &|m| quote!(#m::propagate(cpu, stack, input, ::core::option::Option::Some(nonzero), &mut |_, _| {})),
            quote! {{
                let _ = nonzero;
                stack.propagate_scalar(input, &mut |_, _| {})
            }},
        );
        quote! {
            /// [`Self::transform_into`], also listing the non-zero four-byte
            /// chunks of the output in `nonzero` (searched by the backend's
            /// kernel right after it wrote them), for
            /// [`Self::propagate_listed`].
            pub fn transform_listed<'o, 'l>(
                &self,
                accumulator: &Accumulator,
                side_to_move: #rt::Color,
                slots: &'o mut [::core::mem::MaybeUninit<u8>; TRANSFORMED],
                nonzero: &'l mut #rt::kernels::ChunkSlots<NONZERO_CHUNKS>,
            ) -> (&'o [u8; TRANSFORMED], #rt::kernels::ChunkList<'l, NONZERO_CHUNKS>) {
                let order = [side_to_move.index(), side_to_move.flip().index()];
                let (bytes, list) = #transform;
                (#rt::sub::<_, TRANSFORMED>(bytes, 0), list)
            }

            /// [`Self::propagate`] given the list of `input`'s non-zero
            /// chunks that [`Self::transform_listed`] made with it, so the
            /// sparse first layer does not search for them.
            pub fn propagate_listed(&self, bucket: usize, input: &[u8; TRANSFORMED], nonzero: #rt::kernels::ChunkList<'_, NONZERO_CHUNKS>) -> i32 {
                let stack = &self.stacks[bucket];
                #propagate_listed
            }
        }
    });
    let transform_into_body = if listed {
        quote! {
            let mut nonzero = #rt::kernels::ChunkSlots::<NONZERO_CHUNKS>::new();
            self.transform_listed(accumulator, side_to_move, slots, &mut nonzero).0
        }
    } else {
        quote! {
            let order = [side_to_move.index(), side_to_move.flip().index()];
            let bytes = #transform;
            #rt::sub::<_, TRANSFORMED>(bytes, 0)
        }
    };

    // The SIMD backends evaluate straight from the accumulators a stack of
    // an SCReLU and one i16-weight layer (in 16-bit products), and the
    // layers of an `Accumulators` output (reading the lanes in place).
    let direct = crate::layers::wide_affine::screlu_of_accumulators(arch).is_some() || arch.transformer.output == TransformerOutput::Accumulators;
    let accumulator_path = direct.then(|| {
        let call = dispatch(
            &|m| quote!(#m::propagate_accumulator(cpu, &self.stacks[bucket], first, second)),
            quote!(::core::option::Option::None),
        );
        let method = quote! {
            /// Layer stack `bucket`'s output straight from the accumulators
            /// (SIMD backends), without the transformer's output; `None` on
            /// the scalar backend and when the weights need the i32 path.
            fn propagate_accumulator(&self, bucket: usize, accumulator: &Accumulator, side_to_move: #rt::Color) -> ::core::option::Option<i32> {
                // The halves themselves, in registers: an array of their
                // indices would go through memory and be read back before
                // the first load.
                let (first, second) = (&accumulator.values[side_to_move.index()], &accumulator.values[side_to_move.flip().index()]);
                #call
            }

            /// Layer stack `bucket`'s output through the transformer's
            /// output: where [`Self::propagate_accumulator`] gives `None`.
            /// Out of line, so that the direct path's caller does not
            /// reserve the transformer's output on its stack.
            #[inline(never)]
            fn propagate_transformed(&self, bucket: usize, accumulator: &Accumulator, side_to_move: #rt::Color) -> i32 {
                let mut slots = #rt::Aligned([::core::mem::MaybeUninit::uninit(); TRANSFORMED]);
                let transformed = self.transform_into(accumulator, side_to_move, &mut slots);
                self.propagate(bucket, transformed)
            }
        };
        let prepare = crate::layers::wide_affine::prepare_accumulator_order(arch);
        (method, prepare)
    });
    let (accumulator_method, prepare_accumulator_order) = accumulator_path.clone().unzip();
    let prepare_accumulator_order = prepare_accumulator_order.flatten();
    let positional = if accumulator_path.is_some() {
        quote! {
            let positional = match self.propagate_accumulator(bucket, accumulator, side_to_move) {
                ::core::option::Option::Some(positional) => positional,
                ::core::option::Option::None => self.propagate_transformed(bucket, accumulator, side_to_move),
            };
        }
    } else if listed {
        // Each SIMD backend runs the transformer and the layers in one
        // function.
        let evaluate = dispatch(
            &|m| quote!(#m::evaluate(cpu, accumulator, order, &self.stacks[bucket])),
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
    };
    let bucket = match arch.stacks.select {
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
    let plain = arch.is_plain();
    let transformer_type = if plain {
        quote! {
            /// The transformer's parameters.
            type Transformer = #rt::scalar::Transformer<L1, PSQT_BUCKETS>;
        }
    } else {
        crate::composed::transformer(arch)
    };
    let read_transformer = if plain {
        quote!(Transformer::read(&mut r, FEATURES, #encoding, #load_scale)?)
    } else {
        quote!(Transformer::read(&mut r)?)
    };
    // Loading from memory and from a file: a Stockfish file is read
    // through a `NetReader` (from a file, a chunk at a time); a bullet file,
    // small and checked by its size first, from memory.
    let load = if arch.is_bullet() {
        quote! {
            /// Loads a net file from memory as `options` say. Checks the
            /// file's size, reads every tensor, proves that no integer can
            /// overflow (an error if one can, unless `options` allow it),
            /// and lays the weights out for the backend.
            pub fn from_bytes_with(bytes: &[u8], options: #rt::LoadOptions) -> ::core::result::Result<Self, #rt::LoadError> {
                let backend = #rt::Backend::new(options.backend_isa()?)?;
                let (transformer, stacks) = read_bullet(bytes)?;
                Self::assemble(backend, ::std::string::String::new(), transformer, stacks, options)
            }

            /// Loads a net file from disk as `options` say (see
            /// [`Self::from_bytes_with`]).
            pub fn from_file_with(
                path: impl ::core::convert::AsRef<::std::path::Path>,
                options: #rt::LoadOptions,
            ) -> ::core::result::Result<Self, #rt::LoadError> {
                Self::from_bytes_with(&#rt::read_file(path.as_ref())?, options)
            }
        }
    } else {
        quote! {
            /// Loads a net file from memory as `options` say. Checks version
            /// and hashes, reads every parameter, rejects trailing bytes,
            /// proves that no integer can overflow (an error if one can,
            /// unless `options` allow it), and lays the weights out for the
            /// backend.
            pub fn from_bytes_with(bytes: &[u8], options: #rt::LoadOptions) -> ::core::result::Result<Self, #rt::LoadError> {
                Self::read_with(#rt::NetReader::new(bytes, NAME), options)
            }

            /// Loads a net file from disk as `options` say (see
            /// [`Self::from_bytes_with`]), reading it in order a chunk at a
            /// time: the file is never in memory whole.
            pub fn from_file_with(
                path: impl ::core::convert::AsRef<::std::path::Path>,
                options: #rt::LoadOptions,
            ) -> ::core::result::Result<Self, #rt::LoadError> {
                Self::read_with(#rt::NetReader::open(path.as_ref(), NAME)?, options)
            }

            /// Reads a net file through `r` as `options` say.
            fn read_with(mut r: #rt::NetReader<'_>, options: #rt::LoadOptions) -> ::core::result::Result<Self, #rt::LoadError> {
                let backend = #rt::Backend::new(options.backend_isa()?)?;
                let header = r.expect_header(VERSION, HEADER_HASH)?;
                r.expect_hash("the transformer hash", TRANSFORMER_HASH)?;
                let transformer = #read_transformer;
                let stacks: ::std::boxed::Box<[LayerStack]> = (0..LAYER_STACKS)
                    .map(|stack| LayerStack::read(&mut r, stack))
                    .collect::<::core::result::Result<_, _>>()?;
                r.finish()?;
                Self::assemble(backend, header.description, transformer, stacks, options)
            }
        }
    };
    let lane_packing = if arch.transformer.output == TransformerOutput::Accumulators {
        // The layers read the lanes in order: they stay in order.
        quote! {
            let _ = backend;
            ::core::option::Option::None
        }
    } else {
        quote!(backend.accumulator_lanes())
    };
    // Layers reading activations that AVX2 leaves in the packs' order
    // (`layers::packed`): proved and laid out in that order for the
    // backends whose activations pack.
    let packs = crate::layers::packed::any(arch);
    let prove_packed = if packs {
        quote! {
            let packed = Self::packs_activations(backend);
            let proof = prove(&transformer, &stacks, packed);
        }
    } else {
        quote!(let proof = prove(&transformer, &stacks);)
    };
    let order_packed = packs.then(|| {
        quote! {
            if packed {
                network.stacks.iter_mut().for_each(LayerStack::order_packed_inputs);
            }
        }
    });
    let packs_activations = packs.then(|| {
        let arms = TARGETS.iter().filter(|t| t.packs_activations).map(|t| {
            let (arch, variant) = (t.arch, ident(t.variant));
            quote! {
                #[cfg(target_arch = #arch)]
                #rt::Backend::#variant(_) => true,
            }
        });
        quote! {
            /// Whether `backend`'s activations leave their bytes in the
            /// packs' order for the next layer.
            fn packs_activations(backend: #rt::Backend) -> bool {
                match backend {
                    #(#arms)*
                    _ => false,
                }
            }
        }
    });
    let bullet_read = arch.is_bullet().then(|| crate::bullet::read(arch));
    let accumulator_methods = if plain {
        quote! {
            /// The active features of `pos` from `perspective`.
            pub fn active_features(pos: &impl #rt::Position, perspective: #rt::Color) -> #rt::FeatureList {
                let mut active = #rt::FeatureList::default();
                <FeatureSet as #rt::FeatureSet>::active_features(pos, perspective, &mut active);
                active
            }

            /// Computes both perspectives' accumulators from scratch.
            pub fn refresh(&self, pos: &impl #rt::Position, accumulator: &mut Accumulator) {
                let mut active = [#rt::FeatureList::default(), #rt::FeatureList::default()];
                <FeatureSet as #rt::FeatureSet>::active_features_both_with(pos, &mut active, |feature| {
                    self.transformer.request_listed_row(feature)
                });
                for (p, active) in active.iter().enumerate() {
                    self.accumulate(
                        &self.transformer.biases,
                        &[0; PSQT_BUCKETS],
                        &[],
                        active.as_slice(),
                        &mut accumulator.values[p],
                        &mut accumulator.psqt[p],
                    );
                }
            }

            /// Updates one perspective incrementally:
            /// `to = from - removed features + added features`.
            pub fn update(
                &self,
                from: &Accumulator,
                to: &mut Accumulator,
                perspective: #rt::Color,
                removed: &[u32],
                added: &[u32],
            ) {
                let p = perspective.index();
                self.accumulate(&from.values[p], &from.psqt[p], removed, added, &mut to.values[p], &mut to.psqt[p]);
            }

            /// The backend's accumulation kernel.
            #[allow(clippy::too_many_arguments)]
            fn accumulate(
                &self,
                base: &[i16; L1],
                psqt_base: &[i32; PSQT_BUCKETS],
                removed: &[u32],
                added: &[u32],
                out: &mut [i16; L1],
                psqt_out: &mut [i32; PSQT_BUCKETS],
            ) {
                #accumulate
            }

        }
    } else {
        crate::composed::methods(arch)
    };
    // The accumulator stack, refresh cache and engine code reach a network
    // through this trait: its incremental updates add and remove rows of
    // the features a move changes. A composed transformer implements it when
    // a piece has at most one per-piece feature (see `composed::incremental`).
    let incremental = if plain {
        Some(quote! {
            type Changes = #rt::FeatureList;
            type BoardChanges = ();

            fn same_view(perspective: #rt::Color, a: #rt::Square, b: #rt::Square) -> bool {
                <FeatureSet as #rt::FeatureSet>::same_view(perspective, a, b)
            }

            fn feature(perspective: #rt::Color, king: #rt::Square, square: #rt::Square, piece: #rt::Piece) -> ::core::option::Option<usize> {
                <FeatureSet as #rt::FeatureSet>::index(perspective, king, square, piece)
            }

            fn prefetch_update(&self, removed: &[u32], added: &[u32]) {
                self.transformer.prefetch_rows(removed, added, #rt::kernels::PREFETCH_LANES)
            }

            fn update(&self, from: &Accumulator, to: &mut Accumulator, perspective: #rt::Color, removed: &[u32], added: &[u32]) {
                Network::update(self, from, to, perspective, removed, added)
            }

            fn update_from_half(&self, from: &#rt::HalfAccumulator<L1, PSQT_BUCKETS>, to: &mut Accumulator, perspective: #rt::Color, removed: &[u32], added: &[u32]) {
                let p = perspective.index();
                self.accumulate(&from.values, &from.psqt, removed, added, &mut to.values[p], &mut to.psqt[p]);
            }
        })
    } else {
        crate::composed::incremental(arch)
    };
    let evaluate_buckets_positional = if listed {
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
    };
    let transformed_type = if listed {
        quote!(#rt::SparseTransformed<TRANSFORMED, NONZERO_CHUNKS>)
    } else {
        quote!(#rt::Aligned<[u8; TRANSFORMED]>)
    };
    let new_transformed = if listed { quote!(#rt::SparseTransformed::new()) } else { quote!(#rt::Aligned([0; TRANSFORMED])) };
    let transformed_methods = if listed {
        quote! {
            fn transform(&self, accumulator: &Accumulator, stm: #rt::Color, output: &mut #transformed_type) {
                let mut slots = #rt::Aligned([::core::mem::MaybeUninit::uninit(); TRANSFORMED]);
                let mut nonzero = #rt::kernels::ChunkSlots::<NONZERO_CHUNKS>::new();
                let (bytes, list) = self.transform_listed(accumulator, stm, &mut slots, &mut nonzero);
                output.set(bytes, list);
            }

            fn forward(&self, bucket: usize, transformed: &#transformed_type) -> i32 {
                self.propagate_listed(bucket, transformed.bytes(), transformed.nonzero())
            }
        }
    } else {
        quote! {
            fn transform(&self, accumulator: &Accumulator, stm: #rt::Color, output: &mut #transformed_type) {
                Network::transform(self, accumulator, stm, output)
            }

            fn forward(&self, bucket: usize, transformed: &#transformed_type) -> i32 {
                self.propagate(bucket, transformed)
            }
        }
    };
    let network_impl = incremental.map(|incremental| {
        quote! {
        impl #rt::Network for Network {
            const L1: usize = L1;
            const TRANSFORMED: usize = TRANSFORMED;
            const LAYER_STACKS: usize = LAYER_STACKS;
            type Accumulator = Accumulator;
            type Half = #rt::HalfAccumulator<L1, PSQT_BUCKETS>;
            type Transformed = #transformed_type;

            #incremental

            fn load_with(bytes: &[u8], options: #rt::LoadOptions) -> ::core::result::Result<Self, #rt::LoadError> {
                Self::from_bytes_with(bytes, options)
            }

            fn overflow_proof(&self) -> &#rt::OverflowProof {
                &self.proof
            }

            fn isa(&self) -> #rt::Isa {
                self.backend.isa()
            }

            fn new_transformed() -> #transformed_type {
                #new_transformed
            }

            fn refresh(&self, pos: &impl #rt::Position, accumulator: &mut Accumulator) {
                Network::refresh(self, pos, accumulator)
            }

            fn empty_half(&self) -> #rt::HalfAccumulator<L1, PSQT_BUCKETS> {
                #rt::HalfAccumulator { values: **self.transformer.biases, psqt: [0; PSQT_BUCKETS] }
            }

            fn store_half(from: &Accumulator, perspective: #rt::Color, to: &mut #rt::HalfAccumulator<L1, PSQT_BUCKETS>) {
                let p = perspective.index();
                to.values = from.values[p];
                to.psqt = from.psqt[p];
            }

            fn load_half(from: &#rt::HalfAccumulator<L1, PSQT_BUCKETS>, to: &mut Accumulator, perspective: #rt::Color) {
                let p = perspective.index();
                to.values[p] = from.values;
                to.psqt[p] = from.psqt;
            }

            #transformed_methods

            fn evaluate_accumulator(&self, accumulator: &Accumulator, stm: #rt::Color, piece_count: usize) -> #rt::Evaluation {
                Network::evaluate_accumulator(self, accumulator, stm, piece_count)
            }
        }

        }
    });
    quote! {
        #transformer_type

        #bullet_read

        /// A loaded network: the transformer and every layer stack, laid out
        /// for the backend chosen when it was loaded. Shared read-only
        /// between threads.
        pub struct Network {
            description: ::std::string::String,
            backend: #rt::Backend,
            transformer: Transformer,
            stacks: ::std::boxed::Box<[LayerStack]>,
            proof: #rt::OverflowProof,
        }

        impl Network {
            /// Loads a net file from memory (for example `include_bytes!`) for
            /// the backend named by `NNUE_ISA`, else the best this CPU runs.
            pub fn from_bytes(bytes: &[u8]) -> ::core::result::Result<Self, #rt::LoadError> {
                Self::from_bytes_with(bytes, #rt::LoadOptions::default())
            }

            /// Loads a net file from memory for backend `isa` (an error if
            /// this CPU lacks it).
            pub fn from_bytes_with_isa(bytes: &[u8], isa: #rt::Isa) -> ::core::result::Result<Self, #rt::LoadError> {
                Self::from_bytes_with(bytes, #rt::LoadOptions::isa(isa))
            }

            #load

            /// The network of the parameters read, for `backend`: proves
            /// that no integer can overflow (an error if one can, unless
            /// `options` allow it) and lays the weights out for the backend.
            fn assemble(
                backend: #rt::Backend,
                description: ::std::string::String,
                transformer: Transformer,
                stacks: ::std::boxed::Box<[LayerStack]>,
                options: #rt::LoadOptions,
            ) -> ::core::result::Result<Self, #rt::LoadError> {
                #prove_packed
                if !options.allow_overflow {
                    proof.check()?;
                }
                let mut network = Network { description, backend, transformer, stacks, proof };
                if let ::core::option::Option::Some(lanes) = Self::lane_packing(backend) {
                    network.transformer.permute_lanes(lanes);
                }
                #order_packed
                if backend != #rt::Backend::Scalar {
                    network.stacks.iter_mut().for_each(LayerStack::prepare_columns);
                }
                #prepare_accumulator_order
                ::core::result::Result::Ok(network)
            }

            #packs_activations

            /// The register width whose packing order `backend` stores the
            /// accumulator lanes in, if it permutes them.
            fn lane_packing(backend: #rt::Backend) -> ::core::option::Option<usize> {
                #lane_packing
            }

            /// Loads a net file from disk (see [`Self::from_bytes`]).
            pub fn from_file(path: impl ::core::convert::AsRef<::std::path::Path>) -> ::core::result::Result<Self, #rt::LoadError> {
                Self::from_file_with(path, #rt::LoadOptions::default())
            }

            /// Loads a net file from disk for backend `isa`.
            pub fn from_file_with_isa(
                path: impl ::core::convert::AsRef<::std::path::Path>,
                isa: #rt::Isa,
            ) -> ::core::result::Result<Self, #rt::LoadError> {
                Self::from_file_with(path, #rt::LoadOptions::isa(isa))
            }

            /// The bounds on every integer this net computes, proven when it
            /// was loaded (see the runtime's `overflow` module).
            pub fn overflow_proof(&self) -> &#rt::OverflowProof {
                &self.proof
            }

            /// The description stored in the file.
            pub fn description(&self) -> &str {
                &self.description
            }

            /// The backend the network runs on.
            pub fn isa(&self) -> #rt::Isa {
                self.backend.isa()
            }

            #accumulator_methods

            /// `perspective`'s accumulator lanes in logical order (backends
            /// store them in their packing order).
            pub fn accumulator_values(&self, accumulator: &Accumulator, perspective: #rt::Color) -> ::std::vec::Vec<i16> {
                let mut values = accumulator.values[perspective.index()].to_vec();
                if let ::core::option::Option::Some(lanes) = Self::lane_packing(self.backend) {
                    #rt::kernels::layout::unpermute_lanes(&mut values, lanes);
                }
                values
            }

            /// The transformer's output: the side to move's half first.
            pub fn transform(&self, accumulator: &Accumulator, side_to_move: #rt::Color, output: &mut [u8; TRANSFORMED]) {
                let mut slots = #rt::Aligned([::core::mem::MaybeUninit::uninit(); TRANSFORMED]);
                output.copy_from_slice(self.transform_into(accumulator, side_to_move, &mut slots));
            }

            /// [`Self::transform`] into `slots`, which need not be
            /// initialised (every byte is written), returned as bytes.
            pub fn transform_into<'o>(
                &self,
                accumulator: &Accumulator,
                side_to_move: #rt::Color,
                slots: &'o mut [::core::mem::MaybeUninit<u8>; TRANSFORMED],
            ) -> &'o [u8; TRANSFORMED] {
                #transform_into_body
            }

            #listed_methods

            /// The output of layer stack `bucket` for the transformer output
            /// `input`, skip term included.
            pub fn propagate(&self, bucket: usize, input: &[u8; TRANSFORMED]) -> i32 {
                self.propagate_traced(bucket, input, |_, _| {})
            }

            /// [`Self::propagate`], handing every layer's output to `trace`.
            pub fn propagate_traced(
                &self,
                bucket: usize,
                input: &[u8; TRANSFORMED],
                mut trace: impl ::core::ops::FnMut(&'static str, #rt::LayerOutput<'_>),
            ) -> i32 {
                let stack = &self.stacks[bucket];
                #propagate
            }

            #accumulator_method

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
                #evaluate_buckets_positional
                let value = Self::value(psqt[bucket], positional[bucket]);
                #rt::BucketValues { bucket, psqt, positional, value }
            }
        }

        #network_impl

        impl #rt::AnyNetwork for Network {
            fn arch(&self) -> &'static #rt::ArchInfo {
                &ARCH
            }

            fn description(&self) -> &str {
                &self.description
            }

            fn isa(&self) -> #rt::Isa {
                self.backend.isa()
            }

            fn as_any(&self) -> &dyn ::core::any::Any {
                self
            }

            fn nonzero_padding(&self) -> usize {
                self.stacks.iter().map(LayerStack::nonzero_padding).sum()
            }

            fn evaluate_board(&self, pos: &#rt::Board) -> #rt::BucketValues {
                self.evaluate_buckets(pos)
            }

            fn overflow_proof(&self) -> &#rt::OverflowProof {
                &self.proof
            }
        }

        /// This architecture in a registry of architectures.
        pub const ENTRY: #rt::ArchEntry = #rt::ArchEntry {
            info: &ARCH,
            load: |bytes, options| ::core::result::Result::Ok(::std::boxed::Box::new(Network::from_bytes_with(bytes, options)?)),
            load_file: |path, options| ::core::result::Result::Ok(::std::boxed::Box::new(Network::from_file_with(path, options)?)),
        };
    }
}

/// The scalar transformer output into `slots`, as bytes.
fn scalar_transform(arch: &Arch) -> TokenStream {
    let rt = runtime();
    match arch.transformer.output {
        TransformerOutput::ClippedReLU { max } => {
            let max = i32(max);
            quote!(#rt::scalar::transform_clip(&accumulator.values, order, #max, slots))
        }
        TransformerOutput::Pairwise { max, divisor } => {
            let (max, divisor) = (i32(max), i32(divisor));
            quote!(#rt::scalar::transform_pairwise(&accumulator.values, order, #max, #divisor, slots))
        }
        TransformerOutput::Accumulators => quote!(#rt::scalar::transform_accumulators(&accumulator.values, order, slots)),
    }
}
