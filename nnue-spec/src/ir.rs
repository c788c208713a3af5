//! The validated, resolved architecture: every size computed, every name
//! resolved to an index, every hash known. Code generation reads only this.

pub use crate::schema::{
    BulletHeader, Compression, Encoding, EvalRule, FeatureSetKind, IntType, Mirror, PieceKind, PlaneOrder,
    PsqtPlacement, StackOrder, SumOrder, TensorLayout,
};

/// A checked architecture.
#[derive(Debug, Clone, PartialEq)]
pub struct Arch {
    /// The name as written in the file (`sfnnv9-small`).
    pub name: String,
    /// The name as a Rust identifier (`sfnnv9_small`): the generated module.
    pub module: String,
    pub description: String,
    /// How a net file is laid out.
    pub format: FileFormat,
    /// The version word of a Stockfish-format file (0 for other formats).
    pub version: u32,
    /// Encoding of the transformer's arrays.
    pub encoding: Encoding,
    /// Where the sets' PSQT weights lie in the file.
    pub psqt_placement: PsqtPlacement,
    pub features: Vec<FeatureSet>,
    pub transformer: Transformer,
    pub stacks: LayerStacks,
    /// The layers of one stack, in evaluation and file order.
    pub layers: Vec<Layer>,
    pub output: Output,
    pub hashes: Hashes,
}

/// How a net file is laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileFormat {
    /// Header, hash words, transformer, layer stacks.
    Stockfish,
    /// Bullet's raw tensors in this order, then zeros up to a multiple of
    /// `pad_to` bytes; the whole compressed as `compression` says. After
    /// `header`, if there is one (which may then say the compression).
    Bullet { tensors: Vec<Tensor>, pad_to: usize, compression: Compression, header: Option<BulletHeader> },
}

/// One tensor of a bullet file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tensor {
    pub param: Param,
    /// Element type in the file.
    pub ty: IntType,
    pub layout: TensorLayout,
    /// Number of elements.
    pub len: usize,
}

/// A parameter array of a network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    /// The rows of the only feature set.
    TransformerWeights,
    /// The rows of feature set number `n` (of several).
    SetWeights(usize),
    TransformerBiases,
    /// The weights of the layer with this index, all stacks.
    Weights(usize),
    /// The biases of the layer with this index, all stacks.
    Biases(usize),
}

/// A feature set with its facts filled in.
#[derive(Debug, Clone, PartialEq)]
pub struct FeatureSet {
    pub kind: FeatureSetKind,
    /// Number of distinct features (rows of the weight matrix).
    pub dimensions: usize,
    /// Most features active at once in a legal position, per perspective.
    pub max_active: usize,
    /// Stockfish's hash word for the set.
    pub hash: u32,
    pub weight: IntType,
    /// Storage of its weights in the file.
    pub encoding: Encoding,
    /// FullThreats: the kinds each kind attacks as a feature, by attacker
    /// in [`PieceKind`] order; empty for the other sets.
    pub targets: Vec<Vec<PieceKind>>,
    /// PieceSquare: its layout.
    pub layout: Option<PieceSquareLayout>,
}

/// A piece-square set's layout, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceSquareLayout {
    /// The bucket of each square a1..h8 of the oriented king (all 64; the
    /// mirrored-away files copy their mirror images).
    pub king_buckets: [u8; 64],
    pub buckets: usize,
    pub mirror: Mirror,
    pub planes: PlaneOrder,
    pub merged_kings: bool,
}

/// The feature transformer.
#[derive(Debug, Clone, PartialEq)]
pub struct Transformer {
    /// Accumulator lanes per perspective (L1).
    pub dimensions: usize,
    pub bias: IntType,
    pub accumulator: IntType,
    pub psqt_buckets: usize,
    pub load_scale: i32,
    pub output: TransformerOutput,
    /// Length of the u8 vector handed to the first layer.
    pub output_dimensions: usize,
}

/// The transformer's output stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransformerOutput {
    ClippedReLU {
        max: i32,
    },
    Pairwise {
        max: i32,
        divisor: i32,
    },
    /// Both accumulators' i16 values.
    Accumulators,
}

impl TransformerOutput {
    /// The type of the values the first layers read.
    pub fn value_type(self) -> ValueType {
        match self {
            TransformerOutput::Accumulators => ValueType::I16,
            _ => ValueType::U8,
        }
    }
}

impl Transformer {
    /// Bytes of the transformer's output buffer (`TRANSFORMED`).
    pub fn output_bytes(&self) -> usize {
        self.output_dimensions * self.output.value_type().bytes()
    }
}

/// Layer stacks and their selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayerStacks {
    pub count: usize,
    pub select: BucketSelect,
}

/// How a bucket is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BucketSelect {
    Single,
    /// `(pieces - offset) / divisor`, at most the last stack.
    PieceCount {
        divisor: usize,
        offset: usize,
    },
    /// The stack for each piece count 0..=32.
    Table([u8; 33]),
}

/// Where a layer reads from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The transformer's u8 output.
    Transformer,
    /// The output of the layer with this index.
    Layer(usize),
}

/// A contiguous range of a source's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slice {
    pub source: Source,
    pub start: usize,
    pub len: usize,
}

/// Value types flowing between layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueType {
    /// Activations.
    U8,
    /// Affine outputs and squared activations.
    I32,
    /// Accumulator values.
    I16,
    /// Float layers.
    F32,
}

impl ValueType {
    /// Bytes of one value.
    pub fn bytes(self) -> usize {
        match self {
            ValueType::U8 => 1,
            ValueType::I16 => 2,
            ValueType::I32 | ValueType::F32 => 4,
        }
    }

    /// The Rust type.
    pub fn rust_name(self) -> &'static str {
        match self {
            ValueType::U8 => "u8",
            ValueType::I16 => "i16",
            ValueType::I32 => "i32",
            ValueType::F32 => "f32",
        }
    }
}

/// One layer of a stack.
#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    pub name: String,
    pub kind: LayerKind,
    /// What the layer reads; several slices only for `Concat`.
    pub inputs: Vec<Slice>,
    pub input_dimensions: usize,
    pub output_dimensions: usize,
    pub output_type: ValueType,
}

/// What a layer computes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LayerKind {
    /// i8 weights (rows padded to `padded_inputs`), i32 biases (zero when
    /// the file has none: `biases` false).
    Affine {
        padded_inputs: usize,
        sparse: bool,
        biases: bool,
    },
    /// i16 weights on u8 or i32 inputs, i32 biases: `sum / divisor + bias`.
    WideAffine {
        divisor: i32,
    },
    /// `clamp(x, 0, max)^2`, to i32.
    SCReLU {
        max: i32,
    },
    /// f32 weights and biases, summed as `order` says.
    FloatAffine {
        order: SumOrder,
    },
    /// `clamp(x, 0, max)` in f32.
    CReLU {
        max: f32,
    },
    /// `x as f32 / divisor`.
    ToFloat {
        divisor: f32,
    },
    /// `(x * multiply) as i32`, truncating.
    ToInt {
        multiply: f32,
    },
    /// `fma(x as f32, multiply, bias)`, f32 biases.
    Dequantize {
        multiply: f32,
    },
    /// `(x * clamp(x + 3, 0, 6)) * (1 / 6)` in f32.
    HardSwish,
    /// Two inputs of one length and type (f32, or i32 wrapping) combined
    /// value by value.
    Elementwise {
        op: ElementwiseOp,
    },
    /// One i32 value to one i32 value.
    Integer {
        op: IntegerOp,
    },
    /// `x + bias`, wrapping, i32 biases.
    Bias,
    /// i32 weights on i32 inputs, i32 biases, wrapping.
    I32Affine,
    ClippedReLU {
        shift: u32,
        max: i32,
    },
    SqrClippedReLU {
        shift: u32,
        max: i32,
    },
    Concat,
}

impl LayerKind {
    /// Whether the layer has weights and biases (an affine layer).
    pub fn is_affine(self) -> bool {
        matches!(
            self,
            LayerKind::Affine { .. }
                | LayerKind::WideAffine { .. }
                | LayerKind::FloatAffine { .. }
                | LayerKind::I32Affine
        )
    }

    /// Whether the layer has parameters: biases, and weights if affine.
    pub fn has_params(self) -> bool {
        self.is_affine() || matches!(self, LayerKind::Dequantize { .. } | LayerKind::Bias)
    }

    /// Whether a file holds the layer's biases (an `Affine` written with
    /// `biases: false` has none).
    pub fn stores_biases(self) -> bool {
        self.has_params() && !matches!(self, LayerKind::Affine { biases: false, .. })
    }
}

/// How an [`LayerKind::Elementwise`] layer combines its two inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElementwiseOp {
    /// `a * b`, rounded to f32.
    Multiply,
    /// `a + b`, rounded to f32.
    Add,
}

/// What an [`LayerKind::Integer`] layer does to each i32 value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntegerOp {
    /// `clamp(x, min, max)`.
    Clamp { min: i32, max: i32 },
    /// `x >> n`, arithmetic.
    ShiftRight(u32),
    /// `x << n`, wrapping.
    ShiftLeft(u32),
    /// `x * x`, wrapping.
    Square,
}

/// One i32 value of a layer's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Element {
    pub layer: usize,
    pub index: usize,
}

/// One value of a sum: added, or subtracted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Term {
    pub element: Element,
    pub subtract: bool,
}

/// How the result is formed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// The stack's value: the sum of these terms, in wrapping i32
    /// arithmetic.
    pub value: Vec<Term>,
    /// `value * multiply / divide`.
    pub rescale: Option<Rescale>,
    pub forward: Option<Forward>,
    pub scale: i32,
    pub eval: EvalRule,
    /// The result clamped to `min..=max` last.
    pub clamp: Option<(i32, i32)>,
}

/// The stack value's factor `value * multiply / divide`, the product
/// formed in `width` (wrapping in `I32`), the quotient truncated toward
/// zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rescale {
    pub multiply: i32,
    pub divide: i32,
    pub width: crate::schema::ProductWidth,
}

/// The skip term `input * multiply / divide` (the product in 64 bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Forward {
    pub input: Element,
    pub multiply: i32,
    pub divide: i32,
}

/// The hash words a net file of this architecture carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hashes {
    /// In the header: `transformer ^ layer_stack`.
    pub header: u32,
    /// Before the transformer's parameters.
    pub transformer: u32,
    /// Before each layer stack's parameters.
    pub layer_stack: u32,
}

impl Layer {
    /// Whether the transformer kernels list the non-zero four-byte chunks
    /// of their output for this layer as they write it: a sparse-input
    /// affine layer reading all of the transformer's u8 output, unpadded,
    /// through the column kernel (outputs a multiple of 8).
    pub fn reads_listed_transformer(&self, transformer: &Transformer) -> bool {
        let whole = transformer.output_dimensions;
        matches!(self.kind, LayerKind::Affine { sparse: true, padded_inputs, .. } if padded_inputs == whole)
            && matches!(self.inputs[..], [Slice { source: Source::Transformer, start: 0, len }] if len == whole)
            && transformer.output.value_type() == ValueType::U8
            && self.output_dimensions.is_multiple_of(8)
            && whole.is_multiple_of(4)
            && whole / 4 <= 1 << 16
    }
}

impl Arch {
    /// Whether the transformer kernels list the non-zero chunks of their
    /// output ([`Layer::reads_listed_transformer`] holds for some layer).
    pub fn lists_nonzero_chunks(&self) -> bool {
        self.layers.iter().any(|l| l.reads_listed_transformer(&self.transformer))
    }

    /// Whether the transformer is the plain one: a single feature set with
    /// i16 weights, one feature per piece. Otherwise it is composed: every
    /// set has its own rows, added one set after the other on a refresh.
    pub fn is_plain(&self) -> bool {
        matches!(self.features.as_slice(), [f] if f.weight == IntType::I16 && f.kind.per_piece())
    }

    /// Whether net files are in bullet's raw format.
    pub fn is_bullet(&self) -> bool {
        matches!(self.format, FileFormat::Bullet { .. })
    }

    /// Total number of feature rows over all feature sets.
    pub fn feature_dimensions(&self) -> usize {
        self.features.iter().map(|f| f.dimensions).sum()
    }
}

impl IntType {
    /// The Rust type name.
    pub fn rust_name(self) -> &'static str {
        match self {
            IntType::I8 => "i8",
            IntType::I16 => "i16",
            IntType::I32 => "i32",
            IntType::F32 => "f32",
        }
    }
}
