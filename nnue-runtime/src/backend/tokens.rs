//! What a backend token runs, one macro for every ISA: the token types
//! (in [`crate::simd`]) get safe methods that run the [`crate::kernels`]
//! instantiated for the ISA's vector types inside `#[target_feature]`
//! functions. The kernels of a forward pass (affine layers, activations,
//! and the transformer's listing kernels where an evaluation runs in one
//! function) are methods of [`Inside`](crate::simd::Inside)`<Token>`
//! instead, which the token's `inside` hands out: generated code calls
//! them from its own `#[target_feature(enable = Token::FEATURES)]`
//! functions, into which they are inlined. Calling those functions is the
//! one place generated code is `unsafe`.

/// The kernels of every row's token of the instruction-set table
/// ([`nnue_isa::simd_isas!`]) whose architecture this build is for:
/// expanded in `x86` and in `aarch64`, where the row's types are in scope.
macro_rules! token_kernels {
    (() $({
        name: $name:literal, variant: $variant:ident, module: $module:ident, title: $title:literal, arch: $arch:literal, simd: $simd:ident,
        features: $features:literal, detect: [$($detect:literal),*],
        lanes: $lanes:literal, permutes_lanes: $permutes:literal, max_tile: $max_tile:literal, dot_lanes: $dot_lanes:literal, packs_activations: $packs:literal,
        types: ($lanes_ty:ident, $dot:ident, $dot256:ident, $activations:ident),
        doc: $doc:literal,
    })*) => {
        $(
            #[cfg(target_arch = $arch)]
            token_kernel!($variant, $features, $lanes_ty, $dot, $dot256, $activations);
        )*
    };
}

/// `token_kernel!(Token, "features", Lanes, Dot, Dot256, Activations)`.
macro_rules! token_kernel {
    ($token:ident, $features:literal, $lanes:ty, $dot:ty, $dot256:ty, $activations:ty) => {
        impl $token {
            /// [`crate::kernels::accumulate`] with this ISA's registers.
            #[allow(clippy::too_many_arguments)]
            pub fn accumulate<const L1: usize, const TILE: usize, const B: usize>(
                self,
                weights: &[i16],
                psqt_weights: &[i32],
                base: &[i16; L1],
                psqt_base: &[i32; B],
                removed: &[u32],
                added: &[u32],
                out: &mut [i16; L1],
                psqt_out: &mut [i32; B],
            ) {
                /// # Safety
                /// The CPU supports the token's instruction set.
                #[target_feature(enable = $features)]
                #[allow(clippy::too_many_arguments)]
                unsafe fn run<const L1: usize, const TILE: usize, const B: usize>(
                    weights: &[i16],
                    psqt_weights: &[i32],
                    base: &[i16; L1],
                    psqt_base: &[i32; B],
                    removed: &[u32],
                    added: &[u32],
                    out: &mut [i16; L1],
                    psqt_out: &mut [i32; B],
                ) {
                    // SAFETY: this function's target features are enabled.
                    unsafe {
                        $crate::kernels::accumulate::<$lanes, L1, TILE, B>(
                            weights, psqt_weights, base, psqt_base, removed, added, out, psqt_out,
                        )
                    }
                }
                // SAFETY: the token exists only if the CPU supports the ISA.
                unsafe { run::<L1, TILE, B>(weights, psqt_weights, base, psqt_base, removed, added, out, psqt_out) }
            }

            /// [`crate::kernels::update_sets`] with this ISA's registers.
            pub fn update_sets<
                S: $crate::kernels::SetUpdates,
                Bs: $crate::kernels::UpdateBase<L1, B>,
                const L1: usize,
                const TILE: usize,
                const B: usize,
            >(
                self,
                sets: &S,
                base: &Bs,
                out: &mut [i16; L1],
                psqt_out: &mut [i32; B],
            ) {
                /// # Safety
                /// The CPU supports the token's instruction set.
                #[target_feature(enable = $features)]
                unsafe fn run<
                    S: $crate::kernels::SetUpdates,
                    Bs: $crate::kernels::UpdateBase<L1, B>,
                    const L1: usize,
                    const TILE: usize,
                    const B: usize,
                >(
                    sets: &S,
                    base: &Bs,
                    out: &mut [i16; L1],
                    psqt_out: &mut [i32; B],
                ) {
                    // SAFETY: this function's target features are enabled.
                    unsafe { $crate::kernels::update_sets::<$lanes, S, Bs, L1, TILE, B>(sets, base, out, psqt_out) }
                }
                // SAFETY: the token exists only if the CPU supports the ISA.
                unsafe { run::<S, Bs, L1, TILE, B>(sets, base, out, psqt_out) }
            }

            token_kernel!(@transform $token, $features, $lanes, transform_clip, transform_clip_listed, [MAX: i16]);
            token_kernel!(@transform $token, $features, $lanes, transform_pairwise_mulhi, transform_pairwise_mulhi_listed, [MAX: i16, SHL: i32]);
            token_kernel!(@transform $token, $features, $lanes, transform_pairwise_mulhi_signed, transform_pairwise_mulhi_signed_listed, [MAX: i16, SHL: i32]);
            token_kernel!(@transform $token, $features, $lanes, transform_pairwise_mullo, transform_pairwise_mullo_listed, [MAX: i16, SHR: i32]);
        }

        impl $crate::simd::Inside<$token> {
            token_kernel!(@transform_inside $lanes, $dot, transform_clip_listed, [MAX: i16]);
            token_kernel!(@transform_inside $lanes, $dot, transform_pairwise_mulhi_listed, [MAX: i16, SHL: i32]);
            token_kernel!(@transform_inside $lanes, $dot, transform_pairwise_mulhi_signed_listed, [MAX: i16, SHL: i32]);
            token_kernel!(@transform_inside $lanes, $dot, transform_pairwise_mullo_listed, [MAX: i16, SHR: i32]);
            token_kernel!(@affine affine_columns, affine_columns_listed, affine_rows, $dot);
            token_kernel!(@affine affine_columns_256, affine_columns_256_listed, affine_rows_256, $dot256);

            /// [`crate::simd::Activations::clipped_relu`] with this ISA's
            /// registers, inlined into the `#[target_feature]` function
            /// calling it.
            #[inline(always)]
            pub fn clipped_relu<const N: usize, const SHIFT: i32>(self, input: &[i32; N], max: i16, out: &mut [u8; N]) {
                // SAFETY: as for the affine kernels: an `Inside` exists only
                // if the CPU supports the ISA.
                unsafe { <$activations as $crate::simd::Activations>::clipped_relu::<N, SHIFT>(input, max, out) }
            }

            /// [`crate::simd::Activations::sqr_clipped_relu`] with this
            /// ISA's registers, inlined into the `#[target_feature]`
            /// function calling it.
            #[inline(always)]
            pub fn sqr_clipped_relu<const N: usize, const SHIFT_AFTER_16: i32>(self, input: &[i32; N], max: i16, out: &mut [u8; N]) {
                // SAFETY: as above.
                unsafe { <$activations as $crate::simd::Activations>::sqr_clipped_relu::<N, SHIFT_AFTER_16>(input, max, out) }
            }

            /// [`crate::kernels::screlu_affine`] with this ISA's widest dot
            /// products, inlined into the `#[target_feature]` function
            /// calling it.
            #[inline(always)]
            pub fn screlu_affine<const IN: usize, const OUT: usize>(self, input: &[u8; IN], max: i16, weights: &[i16], sums: &mut [i32; OUT]) {
                // SAFETY: as for the affine kernels below: an `Inside` exists
                // only if the CPU supports the ISA.
                unsafe { $crate::kernels::screlu_affine::<$dot, IN, OUT>(input, max, weights, sums) }
            }

            /// [`crate::kernels::i32_affine_pairs`] with this ISA's widest
            /// registers, inlined into the `#[target_feature]` function
            /// calling it: false when it declines.
            #[inline(always)]
            pub fn i32_affine_pairs<const IN: usize, const OUT: usize, const REGS: usize>(
                self,
                biases: &[i32; OUT],
                pairs: &[[[i16; 2]; OUT]],
                input: &[i32; IN],
                out: &mut [i32; OUT],
            ) -> bool {
                // SAFETY: as above.
                unsafe { $crate::kernels::i32_affine_pairs::<$dot, IN, OUT, REGS>(biases, pairs, input, out) }
            }

            /// [`crate::kernels::screlu_affine_accumulators`] with this
            /// ISA's widest dot products, inlined into the
            /// `#[target_feature]` function calling it.
            #[inline(always)]
            pub fn screlu_affine_accumulators<const L1: usize, const OUT: usize>(
                self,
                first: &[i16; L1],
                second: &[i16; L1],
                max: i16,
                weights: &[i16],
                sums: &mut [i32; OUT],
            ) {
                // SAFETY: as above.
                unsafe { $crate::kernels::screlu_affine_accumulators::<$dot, L1, OUT>(first, second, max, weights, sums) }
            }
        }
    };

    (@transform $token:ident, $features:literal, $lanes:ty, $kernel:ident, $listed:ident, [$($param:ident: $ty:ty),*]) => {
        #[doc = concat!("[`crate::kernels::", stringify!($kernel), "`] with this ISA's registers.")]
        pub fn $kernel<'o, const L1: usize, $(const $param: $ty),*>(
            self,
            acc: &[[i16; L1]; 2],
            order: [usize; 2],
            out: &'o mut [::core::mem::MaybeUninit<u8>],
        ) -> &'o mut [u8] {
            /// # Safety
            /// The CPU supports the token's instruction set.
            #[target_feature(enable = $features)]
            unsafe fn run<'o, const L1: usize, $(const $param: $ty),*>(
                acc: &[[i16; L1]; 2],
                order: [usize; 2],
                out: &'o mut [::core::mem::MaybeUninit<u8>],
            ) -> &'o mut [u8] {
                // SAFETY: this function's target features are enabled.
                unsafe { $crate::kernels::$kernel::<$lanes, L1, $($param),*>(acc, order, out) }
            }
            // SAFETY: the token exists only if the CPU supports the ISA.
            unsafe { run::<L1, $($param),*>(acc, order, out) }
        }

        #[doc = concat!("[`Self::", stringify!($kernel), "`], also listing the non-zero four-byte chunks of the")]
        /// output in `list` (searched register by register as the output
        /// is stored, or right after it is written, while it is in L1, as
        /// [`crate::kernels::search_while_storing`] chooses for this CPU and `L1`);
        /// `CHUNKS` is the output's bytes over 4.
        pub fn $listed<'o, 'l, const L1: usize, $(const $param: $ty,)* const CHUNKS: usize>(
            self,
            acc: &[[i16; L1]; 2],
            order: [usize; 2],
            out: &'o mut [::core::mem::MaybeUninit<u8>],
            list: &'l mut $crate::kernels::ChunkSlots<CHUNKS>,
        ) -> (&'o mut [u8], $crate::kernels::ChunkList<'l, CHUNKS>) {
            /// [`Inside`](crate::simd::Inside)'s form of this method,
            /// compiled for the instruction set.
            #[target_feature(enable = $features)]
            fn run<'o, 'l, const L1: usize, $(const $param: $ty,)* const CHUNKS: usize>(
                cpu: $crate::simd::Inside<$token>,
                acc: &[[i16; L1]; 2],
                order: [usize; 2],
                out: &'o mut [::core::mem::MaybeUninit<u8>],
                list: &'l mut $crate::kernels::ChunkSlots<CHUNKS>,
            ) -> (&'o mut [u8], $crate::kernels::ChunkList<'l, CHUNKS>) {
                cpu.$listed::<L1, $($param,)* CHUNKS>(acc, order, out, list)
            }
            // SAFETY: the token exists only if the CPU supports the ISA.
            unsafe { run::<L1, $($param,)* CHUNKS>(self.inside(), acc, order, out, list) }
        }
    };

    (@transform_inside $lanes:ty, $dot:ty, $listed:ident, [$($param:ident: $ty:ty),*]) => {
        #[doc = concat!("The token's `", stringify!($listed), "`, inlined into the `#[target_feature]` function")]
        /// calling it (one that runs the transformer and the layers).
        #[inline(always)]
        pub fn $listed<'o, 'l, const L1: usize, $(const $param: $ty,)* const CHUNKS: usize>(
            self,
            acc: &[[i16; L1]; 2],
            order: [usize; 2],
            out: &'o mut [::core::mem::MaybeUninit<u8>],
            list: &'l mut $crate::kernels::ChunkSlots<CHUNKS>,
        ) -> (&'o mut [u8], $crate::kernels::ChunkList<'l, CHUNKS>) {
            let while_storing = $crate::kernels::search_while_storing(L1);
            // SAFETY: an `Inside` exists only if the CPU supports the ISA;
            // the kernel checks that `CHUNKS` is the output's length over 4.
            unsafe { $crate::kernels::$listed::<$lanes, $dot, L1, $($param,)* CHUNKS>(acc, order, out, list, while_storing) }
        }
    };

    (@affine $columns:ident, $listed:ident, $rows:ident, $dot:ty) => {
        /// [`crate::kernels::affine_columns`] with this ISA's dot products of
        /// this width, inlined into the `#[target_feature]` function calling it.
        #[inline(always)]
        pub fn $columns<const PADDED: usize, const CHUNKS: usize, const OUT: usize, const REGS: usize, const SPARSE: bool>(
            self,
            biases: &[i32; OUT],
            weights: &[i8],
            paired: $crate::overflow::layers::PairedSums,
            input: &[u8; PADDED],
            out: &mut [i32; OUT],
        ) {
            // SAFETY: an `Inside` is made only from a token, which exists
            // only if the CPU supports the ISA. (Inlined into a function
            // compiled for the ISA, the kernel becomes its instructions;
            // anywhere else its intrinsics would be calls, slower but still
            // correct on this CPU. tools/check-inlined-kernels.sh checks that the
            // generated code has no such calls.)
            unsafe { $crate::kernels::affine_columns::<$dot, PADDED, CHUNKS, OUT, REGS, SPARSE>(biases, weights, paired, input, out) }
        }

        /// [`crate::kernels::affine_columns_listed`] of a sparse input with
        /// this ISA's dot products of this width, inlined into the
        /// `#[target_feature]` function calling it: the non-zero chunks are
        /// `nonzero` where the input's producer listed them, else searched.
        #[inline(always)]
        pub fn $listed<const PADDED: usize, const CHUNKS: usize, const OUT: usize, const REGS: usize>(
            self,
            biases: &[i32; OUT],
            weights: &[i8],
            paired: $crate::overflow::layers::PairedSums,
            input: &[u8; PADDED],
            nonzero: ::core::option::Option<$crate::kernels::ChunkList<'_, CHUNKS>>,
            out: &mut [i32; OUT],
        ) {
            // SAFETY: as for the column kernel above.
            unsafe {
                $crate::kernels::affine_columns_listed::<$dot, PADDED, CHUNKS, OUT, REGS, true>(biases, weights, paired, input, nonzero, out)
            }
        }

        /// [`crate::kernels::affine_rows`] with this ISA's dot products of
        /// this width, inlined into the `#[target_feature]` function calling it.
        #[inline(always)]
        pub fn $rows<const PADDED: usize, const OUT: usize>(
            self,
            biases: &[i32; OUT],
            weights: &[i8],
            input: &[u8; PADDED],
            out: &mut [i32; OUT],
        ) {
            // SAFETY: as for the column kernel above.
            unsafe { $crate::kernels::affine_rows::<$dot, PADDED, OUT>(biases, weights, input, out) }
        }
    };
}
