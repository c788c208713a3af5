//! `Network`'s loading: reading a Stockfish file through a `NetReader` or
//! a bullet file from memory, proving that no integer can overflow, and
//! laying the weights out for the backend.

use crate::targets::TARGETS;
use crate::tokens::{ident, runtime};
use nnue_spec::ir::{Arch, Compression, FileFormat, TransformerOutput};
use proc_macro2::TokenStream;
use quote::quote;

/// From `from_bytes` to `from_file_with_isa`, inside `impl Network`.
pub(super) fn methods(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let load = if arch.is_bullet() { bullet(arch) } else { stockfish(arch) };
    let lane_packing = if arch.transformer.output == TransformerOutput::Accumulators {
        // The layers read the lanes in order: they stay in order.
        quote! {
            let _ = backend;
            ::core::option::Option::None
        }
    } else {
        quote!(backend.accumulator_lanes())
    };
    let assemble = assemble(arch);
    let packs_activations = packs_activations(arch);
    quote! {
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

        #assemble

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
    }
}

/// Loading a bullet file: checked by its size first, from memory; or, when
/// the file is zstd-compressed, decoded as it is read (from memory, or
/// streamed from disk), its decoded size checked as it ends.
fn bullet(arch: &Arch) -> TokenStream {
    let rt = runtime();
    // A file read whole, then loaded from memory.
    let from_whole_file = quote! {
        /// Loads a net file from disk as `options` say (see
        /// [`Self::from_bytes_with`]).
        pub fn from_file_with(
            path: impl ::core::convert::AsRef<::std::path::Path>,
            options: #rt::LoadOptions,
        ) -> ::core::result::Result<Self, #rt::LoadError> {
            Self::from_bytes_with(&#rt::read_file(path.as_ref())?, options)
        }
    };
    let FileFormat::Bullet { compression, header, .. } = arch.format else { unreachable!("a bullet architecture") };
    if header.is_some() {
        return quote! {
            /// Loads a net file from memory as `options` say. Checks its
            /// CBNF header against the architecture, then reads every
            /// tensor after it: as they are (the file must be `FILE_BYTES`
            /// long), or decoded as they are read when the header's flag
            /// says they are zstd-compressed (they must decode to
            /// `FILE_BYTES` less the header). Proves that no integer can
            /// overflow (an error if one can, unless `options` allow it),
            /// and lays the weights out for the backend.
            pub fn from_bytes_with(bytes: &[u8], options: #rt::LoadOptions) -> ::core::result::Result<Self, #rt::LoadError> {
                let backend = #rt::Backend::new(options.backend_isa()?)?;
                let (zstd, tensors) = HEADER.read(bytes, NAME)?;
                let tensor_bytes = FILE_BYTES - #rt::format::cbnf::BYTES;
                let reader = if zstd {
                    #rt::format::bullet::BulletReader::zstd(tensors, NAME, tensor_bytes)?
                } else if bytes.len() != FILE_BYTES {
                    return ::core::result::Result::Err(#rt::LoadError::Size { arch: NAME, expected: FILE_BYTES, actual: bytes.len() });
                } else {
                    #rt::format::bullet::BulletReader::new(tensors, NAME, tensor_bytes)?
                };
                let (transformer, stacks) = read_bullet(reader)?;
                Self::assemble(backend, ::std::string::String::new(), transformer, stacks, options)
            }

            #from_whole_file
        };
    }
    match compression {
        Compression::None => quote! {
            /// Loads a net file from memory as `options` say. Checks the
            /// file's size, reads every tensor, proves that no integer can
            /// overflow (an error if one can, unless `options` allow it),
            /// and lays the weights out for the backend.
            pub fn from_bytes_with(bytes: &[u8], options: #rt::LoadOptions) -> ::core::result::Result<Self, #rt::LoadError> {
                let backend = #rt::Backend::new(options.backend_isa()?)?;
                let (transformer, stacks) = read_bullet(#rt::format::bullet::BulletReader::new(bytes, NAME, FILE_BYTES)?)?;
                Self::assemble(backend, ::std::string::String::new(), transformer, stacks, options)
            }

            #from_whole_file
        },
        Compression::Zstd => quote! {
            /// Loads a zstd-compressed net file from memory as `options`
            /// say. Decodes it as it reads every tensor (it must decode to
            /// `FILE_BYTES`), proves that no integer can overflow (an error
            /// if one can, unless `options` allow it), and lays the weights
            /// out for the backend.
            pub fn from_bytes_with(bytes: &[u8], options: #rt::LoadOptions) -> ::core::result::Result<Self, #rt::LoadError> {
                let backend = #rt::Backend::new(options.backend_isa()?)?;
                let (transformer, stacks) = read_bullet(#rt::format::bullet::BulletReader::zstd(bytes, NAME, FILE_BYTES)?)?;
                Self::assemble(backend, ::std::string::String::new(), transformer, stacks, options)
            }

            /// Loads a zstd-compressed net file from disk as `options` say
            /// (see [`Self::from_bytes_with`]), decoding it as it is read:
            /// neither the file nor its decoded bytes are ever in memory
            /// whole.
            pub fn from_file_with(
                path: impl ::core::convert::AsRef<::std::path::Path>,
                options: #rt::LoadOptions,
            ) -> ::core::result::Result<Self, #rt::LoadError> {
                let path = path.as_ref();
                let file = ::std::fs::File::open(path)
                    .map_err(|source| #rt::LoadError::Io { path: path.to_owned(), source })?;
                let backend = #rt::Backend::new(options.backend_isa()?)?;
                let reader = #rt::format::bullet::BulletReader::zstd(
                    ::std::io::BufReader::with_capacity(1 << 16, file),
                    NAME,
                    FILE_BYTES,
                )?;
                let (transformer, stacks) = read_bullet(reader)?;
                Self::assemble(backend, ::std::string::String::new(), transformer, stacks, options)
            }
        },
    }
}

/// Loading a Stockfish file: through a `NetReader`, from memory or from a
/// file a chunk at a time.
fn stockfish(arch: &Arch) -> TokenStream {
    let rt = runtime();
    let read_transformer = crate::transformer::of(arch).read(arch);
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
}

/// `assemble`: the network of the parameters read, proved and laid out
/// for the backend.
fn assemble(arch: &Arch) -> TokenStream {
    let rt = runtime();
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
    let prepare_accumulator_order = crate::layers::wide_affine::prepare_accumulator_order(arch);
    quote! {
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
    }
}

/// Where some layer reads packed activations: `packs_activations`, whether
/// a backend packs them.
fn packs_activations(arch: &Arch) -> Option<TokenStream> {
    let rt = runtime();
    crate::layers::packed::any(arch).then(|| {
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
    })
}
