//! `Affine`: i8 weights in rows padded to `padded_inputs`, i32 biases, u8
//! inputs (`runtime::params::Affine`). SIMD targets compute it with the
//! column kernel (weights in column layout, sparse inputs skipped) or the
//! row kernel, as [`Target::affine`] chooses.

use super::common::{At, LayerGen, Params, Step};
use super::packed;
use crate::targets::{self, AffineKernel, Target};
use crate::tokens::{doc, int, runtime};
use nnue_spec::ir::Source;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

pub(crate) struct Affine {
    pub padded_inputs: usize,
    pub sparse: bool,
}

impl LayerGen for Affine {
    fn describe(&self) -> &'static str {
        if self.sparse { "Affine (sparse input)" } else { "Affine" }
    }

    fn field(&self, at: &At) -> Option<TokenStream> {
        let (rt, l, name) = (runtime(), at.layer, at.name());
        let (inputs, outputs, padded) = (int(l.input_dimensions), int(l.output_dimensions), int(self.padded_inputs));
        let doc = doc(&format!(
            "`{}`: {} inputs (rows padded to {}) -> {} outputs.",
            l.name, l.input_dimensions, self.padded_inputs, l.output_dimensions
        ));
        Some(quote! {
            #doc
            #name: #rt::params::Affine<#inputs, #padded, #outputs>
        })
    }

    fn read(&self, at: &At) -> Option<TokenStream> {
        let (rt, name) = (runtime(), at.name());
        let what = format!("layer stack {{stack}} {}", at.layer.name);
        Some(quote! { #name: #rt::params::Affine::read(r, &::std::format!(#what))? })
    }

    fn params(&self) -> Option<Params> {
        let rt = runtime();
        Some(Params { ty: quote!(#rt::params::Affine), weight: Some(quote!(i8)), bias: quote!(i32), zero: quote!(0) })
    }

    fn nonzero_padding(&self, at: &At) -> Option<TokenStream> {
        let name = at.name();
        Some(quote!(self.#name.nonzero_padding()))
    }

    fn prepare_columns(&self, at: &At) -> Option<TokenStream> {
        let name = at.name();
        targets::uses_columns(at.layer).then(|| quote!(self.#name.to_columns();))
    }

    fn order_packed_input(&self, at: &At) -> Option<TokenStream> {
        let (name, order) = (at.name(), packed::order(at.arch, at.index)?);
        Some(quote!(self.#name.order_inputs(&#order);))
    }

    /// The scalar kernel, or the target's column or row kernel on an input
    /// padded with zeros to the row length.
    fn forward(&self, step: &Step) -> TokenStream {
        let (arch, layer) = (step.at.arch, step.at.layer);
        let (name, n, padded) = (step.at.name(), step.at.outputs(), self.padded_inputs);
        let slice = &layer.inputs[0];
        let Some(target) = step.target else {
            let input = step.slice(slice);
            return quote! {
                let mut #name = [0i32; #n];
                stack.#name.propagate(#input, &mut #name);
            };
        };
        // The SIMD kernels read whole padded rows: give them a zero-padded input
        // unless the source's local already is exactly that (all of its values,
        // then zeros up to the row length).
        let (values, local) = match slice.source {
            Source::Transformer => (arch.transformer.output_dimensions, arch.transformer.output_dimensions),
            Source::Layer(i) => (arch.layers[i].output_dimensions, step.locals[i]),
        };
        let (prelude, input) = if slice.start == 0 && slice.len == values && local == padded {
            let source = match slice.source {
                Source::Transformer => quote!(input),
                Source::Layer(i) => {
                    let name = crate::tokens::ident(&arch.layers[i].name);
                    quote!(&#name)
                }
            };
            (quote!(), source)
        } else {
            let padded_name = format_ident!("{}_input", layer.name);
            let (p, len, source) = (int(padded), int(slice.len), step.slice(slice));
            (
                quote! {
                    let mut #padded_name = [0u8; #p];
                    #padded_name[..#len].copy_from_slice(#source);
                },
                quote!(&#padded_name),
            )
        };
        let p = int(padded);
        let call = match target.affine(layer) {
            // The transformer's kernel listed the non-zero chunks of `input`
            // (when its caller kept the list).
            AffineKernel::Columns { wide, regs, sparse: true } if layer.reads_listed_transformer(&arch.transformer) => {
                let method = if wide { quote!(affine_columns_listed) } else { quote!(affine_columns_256_listed) };
                let (chunks, regs) = (int(padded / 4), int(regs));
                quote!(cpu.#method::<#p, #chunks, #n, #regs>(&stack.#name.biases, &stack.#name.weights, stack.#name.paired, #input, nonzero, &mut #name))
            }
            AffineKernel::Columns { wide, regs, sparse } => {
                let method = if wide { quote!(affine_columns) } else { quote!(affine_columns_256) };
                let (chunks, regs) = (int(padded / 4), int(regs));
                quote!(cpu.#method::<#p, #chunks, #n, #regs, #sparse>(&stack.#name.biases, &stack.#name.weights, stack.#name.paired, #input, &mut #name))
            }
            AffineKernel::Rows { wide } => {
                let method = if wide { quote!(affine_rows) } else { quote!(affine_rows_256) };
                quote!(cpu.#method::<#p, #n>(&stack.#name.biases, &stack.#name.weights, #input, &mut #name))
            }
        };
        quote! {
            #prelude
            let mut #name = [0i32; #n];
            #call;
        }
    }

    fn uses_token(&self, _at: &At, _target: &Target) -> bool {
        true
    }

    fn prove(&self, at: &At) -> TokenStream {
        let (rt, name, label) = (runtime(), at.name(), &at.layer.name);
        let (input, padded) = (at.input_ranges(), int(self.padded_inputs));
        // Where the layer reads activations the backend packs, its
        // weights and input ranges in the packs' order (the bytes left
        // out meet zero weights), as the kernel reads them.
        let (prelude, weights, input, decided) = match packed::order(at.arch, at.index) {
            Some(order) => (
                quote! {
                    let (weights, input) = if packed {
                        let order = #order;
                        (
                            #rt::kernels::layout::ordered_inputs(&self.#name.weights, #padded, &order),
                            #rt::kernels::layout::reorder(#input, &order, #rt::overflow::Interval::point(0)),
                        )
                    } else {
                        (self.#name.weights.to_vec(), (#input).to_vec())
                    };
                },
                quote!(&weights),
                quote!(&input),
                quote!(#rt::overflow::layers::PairedSums::of(&weights, #padded)),
            ),
            None => (quote!(), quote!(&self.#name.weights), input, quote!(self.#name.paired)),
        };
        // The i16 sums of two chunks, where the loaded layer lets the
        // column kernel pair them.
        let paired = targets::column_pairs(at.layer).map(|pairs| {
            quote!(#rt::overflow::layers::paired(proof, #label, stack, #weights, #padded, #rt::overflow::layers::ChunkPairs::#pairs, #decided);)
        });
        let value = quote! {{
            #prelude
            #paired
            #rt::overflow::layers::affine(proof, #label, stack, &self.#name.biases, #weights, #padded, #input)
        }};
        quote! { let #name = #value; }
    }

    /// Biases, then weights covering all of i8 (padding columns zero).
    fn random(&self, at: &At) -> Option<TokenStream> {
        let (rt, l, name) = (runtime(), at.layer, at.name());
        let (out, inputs, padded) = (int(l.output_dimensions), int(l.input_dimensions), int(self.padded_inputs));
        Some(quote! {
            let #name = rng.affine_weights(#out, #inputs, #padded);
            w.ints(#rt::Encoding::Raw, &rng.values::<i32>(#out, -8128, 8128));
            w.ints(#rt::Encoding::Raw, &#name);
        })
    }

    fn plan(&self, at: &At, target: &Target) -> Option<String> {
        let l = at.layer;
        Some(match target.affine(l) {
            AffineKernel::Columns { wide, regs, sparse } => format!(
                "`{}`: {}column kernel, {regs} x {}-bit output registers",
                l.name,
                if sparse { "sparse-input " } else { "" },
                target.register_bits(wide)
            ),
            AffineKernel::Rows { wide } => {
                format!("`{}`: row kernel, {}-bit registers", l.name, target.register_bits(wide))
            }
        })
    }
}
