//! What every layer kind's generator is given and implements: the layer in
//! its architecture ([`At`]), its step of a forward pass ([`Step`]), and
//! [`LayerGen`], one method per thing generated for a layer.

use crate::targets::Target;
use crate::tokens::{ident, int, runtime};
use nnue_spec::ir::{Arch, Layer, Slice, Source};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

/// Everything generated for one kind of layer (one implementation per
/// [`LayerKind`](nnue_spec::ir::LayerKind), each in its module of
/// `layers/`). A method a kind does not need returns nothing.
pub(crate) trait LayerGen {
    /// Its kind in `ArchInfo`'s list of layers (`Affine (sparse input)`).
    fn describe(&self) -> &'static str;

    /// Its field in `LayerStack` (doc and type), if it has parameters.
    fn field(&self, _at: &At) -> Option<TokenStream> {
        None
    }

    /// The value of that field read from a Stockfish file (an expression
    /// in `LayerStack::read`, reading from `r`).
    fn read(&self, _at: &At) -> Option<TokenStream> {
        None
    }

    /// Its parameters as a bullet file holds them (one tensor of weights,
    /// if it has weights, and one of biases for all stacks).
    fn params(&self) -> Option<Params> {
        None
    }

    /// The number of non-zero weights in its padding columns (an
    /// expression on `self`, a `LayerStack`).
    fn nonzero_padding(&self, _at: &At) -> Option<TokenStream> {
        None
    }

    /// The statement putting its weights in the layout of the SIMD column
    /// kernel, on `self`, a `LayerStack`.
    fn prepare_columns(&self, _at: &At) -> Option<TokenStream> {
        None
    }

    /// The statement laying its weights out for an input packed by AVX2
    /// ([`super::packed`]), on `self`, a `LayerStack`.
    fn order_packed_input(&self, _at: &At) -> Option<TokenStream> {
        None
    }

    /// The earlier layers a SIMD target computes as this one reads them
    /// (their indices in order): they get no step of their own.
    fn fuses(&self, _at: &At, _target: &Target) -> Vec<usize> {
        Vec::new()
    }

    /// The statements computing its output into a local of its name: the
    /// scalar step (`step.target` `None`), or a SIMD target's.
    fn forward(&self, step: &Step) -> TokenStream;

    /// The length of its local in a forward pass on `target`, where longer
    /// than its output (zero-padded).
    fn padded_local(&self, _arch: &Arch, _layer: &Layer, _target: Option<&Target>) -> Option<usize> {
        None
    }

    /// Whether its SIMD step calls the backend's token (`cpu`).
    fn uses_token(&self, _at: &At, _target: &Target) -> bool {
        false
    }

    /// For an activation: the `runtime::simd::Activation` that SIMD
    /// targets compute it with, if their kernels take it.
    fn simd_activation(&self, _layer: &Layer) -> Option<TokenStream> {
        None
    }

    /// Its step of the overflow proof: the ranges of its outputs in a local
    /// of its name, given those of its inputs.
    fn prove(&self, at: &At) -> TokenStream;

    /// The statements writing its random parameters into a Stockfish file
    /// (`random_net_file`, writer `w`, generator `rng`).
    fn random(&self, _at: &At) -> Option<TokenStream> {
        None
    }

    /// The largest value of its output, to size the random weights of a
    /// layer reading it.
    fn output_top(&self) -> i64 {
        1 << 16
    }

    /// The kernel a SIMD target computes it with, in words (the target's
    /// plan), if it is worth a line.
    fn plan(&self, _at: &At, _target: &Target) -> Option<String> {
        None
    }
}

/// The parameters of a layer kind that has some: the runtime type holding
/// them and the types of its weights and biases.
pub(crate) struct Params {
    /// The runtime type (`runtime::params::Affine`).
    pub ty: TokenStream,
    /// `None`: biases only (`Dequantize`).
    pub weight: Option<TokenStream>,
    pub bias: TokenStream,
    /// A zero of those types.
    pub zero: TokenStream,
}

/// Layer `index` of an architecture.
#[derive(Clone, Copy)]
pub(crate) struct At<'a> {
    pub arch: &'a Arch,
    pub index: usize,
    pub layer: &'a Layer,
}

impl<'a> At<'a> {
    pub fn new(arch: &'a Arch, index: usize) -> Self {
        At { arch, index, layer: &arch.layers[index] }
    }

    /// The layer's name: its field and its local.
    pub fn name(&self) -> Ident {
        ident(&self.layer.name)
    }

    /// Its output dimensions.
    pub fn outputs(&self) -> Literal {
        int(self.layer.output_dimensions)
    }

    /// The ranges of its first input in the overflow proof.
    pub fn input_ranges(&self) -> TokenStream {
        ranges(&self.layer.inputs[0], self.arch)
    }
}

/// One layer's step of a forward pass, on the scalar backend or a SIMD
/// target.
pub(crate) struct Step<'a> {
    pub at: At<'a>,
    /// The SIMD target (its token in `cpu`), `None` for the scalar backend.
    pub target: Option<&'a Target>,
    /// Whether the accumulators are read in place (an `Accumulators`
    /// output on a SIMD target): `first` and `second` are the side to
    /// move's and the other side's lanes, `input` their concatenation.
    pub halves: bool,
    /// The length of every layer's local in this pass.
    pub locals: &'a [usize],
    /// The steps of the layers it fuses ([`LayerGen::fuses`]), each
    /// computing that layer in order and tracing it.
    pub fused: Vec<TokenStream>,
}

impl Step<'_> {
    /// An expression of type `&[T; len]` for `slice`.
    pub fn slice(&self, slice: &Slice) -> TokenStream {
        slice_ref(slice, self.at.arch, self.locals)
    }

    /// Its first input, as [`Self::slice`].
    pub fn input(&self) -> TokenStream {
        self.slice(&self.at.layer.inputs[0])
    }
}

/// An expression of type `&[T; len]` for a slice, each layer's local
/// `locals[i]` long.
pub(crate) fn slice_ref(slice: &Slice, arch: &Arch, locals: &[usize]) -> TokenStream {
    let rt = runtime();
    let (source, len) = match slice.source {
        Source::Transformer => (quote!(input), arch.transformer.output_dimensions),
        Source::Layer(i) => {
            let name = ident(&arch.layers[i].name);
            (quote!(&#name), locals[i])
        }
    };
    if slice.start == 0 && slice.len == len {
        source
    } else {
        let (start, n) = (int(slice.start), int(slice.len));
        quote!(#rt::sub::<_, #n>(#source, #start))
    }
}

/// The ranges of a slice in the overflow proof, as `&[Interval]`.
pub(crate) fn ranges(slice: &Slice, arch: &Arch) -> TokenStream {
    let source = match slice.source {
        Source::Transformer => quote!(input),
        Source::Layer(i) => {
            let name = ident(&arch.layers[i].name);
            quote!(#name)
        }
    };
    let (start, end) = (int(slice.start), int(slice.start + slice.len));
    quote!(&#source[#start..#end])
}

/// Whether layer `i` is read by one layer only and by no output.
pub(crate) fn read_once(arch: &Arch, i: usize) -> bool {
    let by_layers = arch.layers.iter().flat_map(|l| &l.inputs).filter(|s| s.source == Source::Layer(i)).count();
    let by_output = arch.output.value.iter().any(|t| t.element.layer == i)
        || arch.output.forward.is_some_and(|f| f.input.layer == i);
    by_layers == 1 && !by_output
}
