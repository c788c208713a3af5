//! The RON schema of an architecture file, exactly as written by a user.
//!
//! These types are deserialised by `ron` and then checked and resolved by
//! [`crate::validate`] into the IR ([`crate::ir`]). Every field is documented
//! in `archs/README.md`; keep the two in step.

use serde::Deserialize;

/// The top-level `Network(...)` of an architecture file.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename = "Network", deny_unknown_fields)]
pub struct NetworkSpec {
    /// Name of the architecture; also the name of the generated module.
    pub name: String,
    /// Free text shown by `nnue info`.
    #[serde(default)]
    pub description: String,
    /// What identifies a net file of this architecture.
    pub file: FileSpec,
    /// The input feature sets, summed into one accumulator.
    pub features: Vec<FeatureSpec>,
    /// The feature transformer (the accumulator and its output stage).
    pub transformer: TransformerSpec,
    /// How many layer stacks there are and how one is chosen.
    pub layer_stacks: LayerStacksSpec,
    /// The layers of one layer stack, in evaluation and file order.
    pub layers: Vec<LayerSpec>,
    /// How the final value is formed.
    pub output: OutputSpec,
}

/// What a net file of this architecture starts with and how it is encoded.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileSpec {
    /// The file format: Stockfish's (a header, hash words, the transformer,
    /// then each layer stack) or bullet's raw tensors.
    #[serde(default)]
    pub format: FileFormat,
    /// Stockfish format: the version word at offset 0 (`version: 0x...`, no
    /// `Some`). A bullet file has none.
    #[serde(default, deserialize_with = "present")]
    pub version: Option<u32>,
    /// How the header, transformer and layer-stack hashes are computed.
    #[serde(default)]
    pub hash: HashScheme,
    /// How the transformer's arrays are stored.
    #[serde(default)]
    pub transformer_encoding: Encoding,
    /// Where the feature sets' PSQT weights are stored.
    #[serde(default)]
    pub psqt_weights: PsqtPlacement,
}

/// How a net file is laid out.
#[derive(Debug, Clone, Default, Deserialize)]
pub enum FileFormat {
    /// Stockfish's: version, header hash and description, then the
    /// transformer and each layer stack behind their hash words.
    #[default]
    Stockfish,
    /// The `bullet` trainer's raw format: no header, the tensors back to back
    /// in the order listed, little-endian, then zeros up to a multiple of
    /// `pad_to` bytes.
    Bullet {
        tensors: Vec<TensorSpec>,
        #[serde(default = "one_usize")]
        pad_to: usize,
        /// How the whole file is compressed (`None` by default).
        #[serde(default)]
        compression: Compression,
        /// A header before the tensors (`header: Cbnf(..)`, no `Some`);
        /// none by default.
        #[serde(default, deserialize_with = "present")]
        header: Option<BulletHeader>,
    },
}

/// A header before a bullet file's tensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum BulletHeader {
    /// Stormphrax's 64 bytes: `CBNF`, version 1, flags (zstd-compressed
    /// body, mirrored, merged kings, pairwise), the engine's architecture
    /// and activation ids, the hidden size, the king buckets (bit 7: threat
    /// inputs), the output buckets and a name. Checked against the
    /// architecture on loading; its zstd flag says whether the rest of the
    /// file is compressed.
    Cbnf {
        /// The engine's architecture id (5: Stormphrax's layered net with a
        /// dual activation and a skip over L2).
        arch: u8,
        /// The engine's activation id (0: clipped ReLU).
        activation: u8,
    },
}

/// The compression of a whole net file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub enum Compression {
    /// Stored as it is.
    #[default]
    None,
    /// One zstd frame (Viridithas's nets, and Stormphrax's when its
    /// header's flag says so), decoded as it is read.
    Zstd,
}

fn one_usize() -> usize {
    1
}

/// One tensor of a bullet file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TensorSpec {
    /// What it holds: `transformer.weights`, `transformer.biases`,
    /// `<layer>.weights` or `<layer>.biases` (an affine layer; a
    /// `Dequantize` layer has biases only). With several feature sets each
    /// has its rows in a tensor of its own, `transformer.<set>.weights`
    /// (`transformer.FullThreats.weights`).
    pub tensor: String,
    /// Its element type in the file (widened on load to the type the
    /// parameter has).
    #[serde(rename = "type")]
    pub ty: IntType,
    /// Layer weights: the order of their values (the transformer's weights
    /// are one row of L1 values per feature).
    #[serde(default, deserialize_with = "present")]
    pub layout: Option<TensorLayout>,
}

/// The order of a layer's weights in a bullet file. With several layer
/// stacks (output buckets) the outputs of all stacks count as one output
/// axis, stack by stack: `stack * outputs + output`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub enum TensorLayout {
    /// For each input, every output (bullet's raw layout; output buckets
    /// interleaved): `input * (stacks * outputs) + stack * outputs + output`.
    #[default]
    InputMajor,
    /// For each output, every input (transposed): `(stack * outputs +
    /// output) * inputs + input`.
    OutputMajor,
    /// Stack by stack (all of stack 0's weights, then stack 1's, ..), each
    /// stack's weights in the order given: `stack * (outputs * inputs) +`
    /// the place of the weight within its stack.
    Stacked(StackOrder),
}

/// The order of one layer stack's weights within a [`TensorLayout::Stacked`]
/// tensor (`outputs` and `inputs` of one stack).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum StackOrder {
    /// For each input, every output: `input * outputs + output`.
    InputMajor,
    /// For each output, every input: `output * inputs + input`.
    OutputMajor,
    /// Inputs in blocks of `n`: for each block, for each output, the
    /// block's `n` weights (`(input / n) * outputs * n + output * n + input
    /// % n`; the order of `dpbusd`-style kernels that multiply four bytes of
    /// input with four of weights, `n` = 4).
    InputBlocks(usize),
}

/// Where the PSQT weights of the feature sets lie in a file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub enum PsqtPlacement {
    /// One block after every set's weights, holding every set's PSQT
    /// weights in list order (Stockfish 12 to 18).
    #[default]
    AfterAllSets,
    /// Each set's PSQT weights in a block of their own right after its
    /// weights (Stockfish 19).
    AfterEachSet,
}

/// Hash words guarding a file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub enum HashScheme {
    /// Stockfish's formulas up to Stockfish 18: the transformer's word is
    /// the first feature set's word `^ 2 * L1`.
    #[default]
    Stockfish,
    /// Stockfish 19's: the transformer's word combines every feature set's
    /// word in list order (`word = rotate_left(word, 1) ^ set`) `^ 2 * L1`.
    /// The same as `Stockfish` for one feature set.
    StockfishAllSets,
}

/// Storage of an integer array.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub enum Encoding {
    /// Little-endian, fixed width.
    #[default]
    Raw,
    /// Stockfish's `COMPRESSED_LEB128` blocks (signed LEB128 behind a magic
    /// string and a byte count).
    Leb128,
}

/// Element types of weights, biases, accumulators and file tensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
pub enum IntType {
    I8,
    I16,
    I32,
    /// IEEE single precision (float layers of bullet nets).
    F32,
}

/// Feature sets the runtime knows how to index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[allow(non_camel_case_types)]
pub enum FeatureSetKind {
    /// Stockfish 12: king square x non-king piece square, 41024 inputs.
    HalfKP,
    /// Stockfish 14: king square x piece square (kings included), 45056 inputs.
    HalfKAv2,
    /// Stockfish 14.1 and later: HalfKAv2 with the king mirrored onto files e-h,
    /// 32 king buckets, 22528 inputs.
    HalfKAv2_hm,
    /// Stockfish 18 and 19: one feature per piece attacking another piece,
    /// for the kinds of its `targets`; 79856 inputs with Stockfish 18's.
    FullThreats,
    /// Stockfish 19: one feature per pair of pawns (of either colour) on the
    /// same or adjacent files, 4560 inputs.
    PP_3Wide,
    /// One feature per piece in a bucket of the own king's square, as its
    /// `layout` describes (king buckets, mirroring, plane order).
    PieceSquare,
}

impl FeatureSetKind {
    /// Whether a set has one feature per piece (a function of the
    /// perspective, its king square and the piece's square and kind), so
    /// that a move changes a few features. FullThreats and PP_3Wide depend
    /// on pairs of pieces.
    pub fn per_piece(self) -> bool {
        !matches!(self, FeatureSetKind::FullThreats | FeatureSetKind::PP_3Wide)
    }
}

/// The layout of a `PieceSquare` set.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceSquareSpec {
    /// The bucket of each square of the perspective's own king, on the board
    /// seen from the perspective (ranks flipped for black) and mirrored as
    /// `mirror` says: 64 entries a1, b1, .. h8; or, when mirrored, 32 for the
    /// four files the king then stands on, rank by rank. `king_buckets:
    /// None` in the file is one bucket (no king buckets): 64 zeros.
    #[serde(deserialize_with = "king_buckets")]
    pub king_buckets: Vec<u8>,
    #[serde(default)]
    pub mirror: Mirror,
    #[serde(default)]
    pub planes: PlaneOrder,
    /// Both kings in one plane (11 planes instead of 12): the last with
    /// `Interleaved` planes, the own king's with `SideMajor` ones.
    #[serde(default)]
    pub merged_kings: bool,
}

/// `king_buckets: [..]`, or `king_buckets: None` for one bucket (every
/// square in bucket 0: 64 zeros).
fn king_buckets<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    struct Buckets;
    impl<'de> serde::de::Visitor<'de> for Buckets {
        type Value = Vec<u8>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list of king buckets, or `None` for one bucket")
        }
        fn visit_none<E: serde::de::Error>(self) -> Result<Vec<u8>, E> {
            Ok(vec![0; 64])
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
            let mut buckets = Vec::new();
            while let Some(bucket) = seq.next_element()? {
                buckets.push(bucket);
            }
            Ok(buckets)
        }
    }
    d.deserialize_any(Buckets)
}

/// When a perspective's board is mirrored (files flipped).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub enum Mirror {
    #[default]
    None,
    /// When its king stands on files a-d (Stockfish's HalfKAv2_hm).
    KingOnAToD,
    /// When its king stands on files e-h (bullet nets).
    KingOnEToH,
}

/// The order of a piece-square set's planes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub enum PlaneOrder {
    /// Own pawn, own knight, .. own king, then the opponent's: `384 *
    /// (colour != perspective) + 64 * kind` (bullet).
    #[default]
    SideMajor,
    /// Own pawn, their pawn, own knight, .. (Stockfish).
    Interleaved,
}

/// The kinds of piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
pub enum PieceKind {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

/// Which kinds each kind attacks as a FullThreats feature (either colour).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThreatTargets {
    pub pawn: Vec<PieceKind>,
    pub knight: Vec<PieceKind>,
    pub bishop: Vec<PieceKind>,
    pub rook: Vec<PieceKind>,
    pub queen: Vec<PieceKind>,
    pub king: Vec<PieceKind>,
}

/// One feature set feeding the accumulator.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeatureSpec {
    /// Which feature set.
    pub set: FeatureSetKind,
    /// Type of its weights (added into the accumulator).
    #[serde(default = "default_ft_type")]
    pub weight: IntType,
    /// Storage of its weights (`encoding: Raw`, no `Some`); by default
    /// `file.transformer_encoding`.
    #[serde(default, deserialize_with = "present")]
    pub encoding: Option<Encoding>,
    /// The set's hash word (`hash: 0x...`, no `Some`); by default the
    /// catalogue's word of the set.
    #[serde(default, deserialize_with = "present")]
    pub hash: Option<u32>,
    /// FullThreats only: which kinds each kind attacks as a feature; by
    /// default Stockfish 18's table.
    #[serde(default, deserialize_with = "present")]
    pub targets: Option<ThreatTargets>,
    /// PieceSquare only (and required there): its layout.
    #[serde(default, deserialize_with = "present")]
    pub layout: Option<PieceSquareSpec>,
}

/// An optional field written as its bare value.
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

fn default_ft_type() -> IntType {
    IntType::I16
}

/// The feature transformer.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TransformerSpec {
    /// Accumulator width per perspective (L1).
    pub dimensions: usize,
    /// Type of the biases.
    #[serde(default = "default_ft_type")]
    pub bias: IntType,
    /// Type of the accumulator lanes.
    #[serde(default = "default_ft_type")]
    pub accumulator: IntType,
    /// Number of PSQT buckets (i32 weights per feature); 0 for none.
    #[serde(default)]
    pub psqt_buckets: usize,
    /// Biases and weights are multiplied by this when loaded (Stockfish 17.1
    /// stores them halved and doubles them on load).
    #[serde(default = "one")]
    pub load_scale: i32,
    /// How the two accumulators become the u8 input of the first layer.
    pub output: TransformerOutput,
}

fn one() -> i32 {
    1
}

fn yes() -> bool {
    true
}

/// The transformer's output stage.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum TransformerOutput {
    /// `clamp(acc, 0, max)` for both perspectives: 2 x L1 outputs.
    ClippedReLU {
        #[serde(default = "default_max")]
        max: i32,
    },
    /// Both accumulators as they are, the side to move's first: 2 x L1 i16
    /// values (for layers that activate them themselves, e.g. `SCReLU`).
    Accumulators,
    /// `clamp(a, 0, max) * clamp(b, 0, max) / divisor` where a is in the first
    /// half of a perspective's accumulator and b the matching lane of the
    /// second half: 2 x L1/2 = L1 outputs.
    Pairwise {
        #[serde(default = "default_max")]
        max: i32,
        #[serde(default = "default_divisor")]
        divisor: i32,
    },
}

fn default_max() -> i32 {
    127
}

fn default_divisor() -> i32 {
    128
}

/// Layer stacks: the layers are repeated this many times, one chosen per eval.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayerStacksSpec {
    pub count: usize,
    pub select: BucketSelect,
}

/// How the layer stack (and PSQT bucket) is chosen for a position.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum BucketSelect {
    /// Always bucket 0.
    Single,
    /// `(pieces on the board, kings included, - offset) / divisor`; the
    /// offset is 1 by default (Stockfish), 2 in bullet's material buckets.
    PieceCount {
        divisor: usize,
        #[serde(default = "one_usize")]
        offset: usize,
    },
    /// The bucket for each piece count 0..=32 (33 entries).
    Table(Vec<usize>),
}

/// One layer of a layer stack.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum LayerSpec {
    /// `out[o] = bias[o] + sum_i weight[o][i] * in[i]` in wrapping i32:
    /// i8 weights on u8 inputs, i16 weights on u8 or i32 inputs, or i32
    /// weights on i32 inputs.
    Affine {
        name: String,
        input: String,
        outputs: usize,
        /// Evaluate only the non-zero input chunks (a kernel choice; same
        /// result; i8 weights only).
        #[serde(default)]
        sparse: bool,
        /// The weights' type: I8 (Stockfish), I16, I32 or F32.
        #[serde(default = "default_affine_weight")]
        weight: IntType,
        /// I16 weights: the sum is divided by this, truncating toward zero,
        /// before the bias is added (`sum / QA + bias`, bullet's SCReLU
        /// output layers).
        #[serde(default = "one")]
        divisor: i32,
        /// F32 weights (required there): the order of the sum, part of the
        /// result (`sum: Sequential`, no `Some`).
        #[serde(default, deserialize_with = "present")]
        sum: Option<SumOrder>,
        /// Whether the layer has biases (`biases: false`: none in the file,
        /// the sums as they are, e.g. before a `Dequantize` that adds f32
        /// biases).
        #[serde(default = "yes")]
        biases: bool,
    },
    /// `clamp(in, 0, max)`, f32 -> f32 (bullet's CReLU of float layers).
    CReLU { name: String, input: String, max: f32 },
    /// `in as f32 / divisor` (rounded to nearest), i32 -> f32.
    ToFloat { name: String, input: String, divisor: f32 },
    /// `in * multiply` in f32, truncated toward zero to an i32 (saturating),
    /// f32 -> i32.
    ToInt { name: String, input: String, multiply: f32 },
    /// `fma(in as f32, multiply, bias)`, i32 -> f32, in one rounding, with
    /// one f32 bias per output (and layer stack): the i32 sums of an integer
    /// layer turned into a float layer's values (`<name>.biases` in a
    /// bullet file).
    Dequantize { name: String, input: String, multiply: f32 },
    /// `clamp(in, 0, max)^2`, u8, i16 or i32 -> i32 (bullet's SCReLU with
    /// `max` = QA).
    SCReLU { name: String, input: String, max: i32 },
    /// `clamp(in >> shift, 0, max)`, i32 -> u8.
    ClippedReLU {
        name: String,
        input: String,
        #[serde(default = "default_shift")]
        shift: u32,
        #[serde(default = "default_max")]
        max: i32,
    },
    /// `min((in * in) >> shift, max)` in 64-bit, i32 -> u8.
    SqrClippedReLU {
        name: String,
        input: String,
        #[serde(default = "default_sqr_shift")]
        shift: u32,
        #[serde(default = "default_max")]
        max: i32,
    },
    /// The inputs one after the other.
    Concat { name: String, inputs: Vec<String> },
    /// `(x * clamp(x + 3, 0, 6)) * (1 / 6)` in f32, each step rounded (no
    /// fused multiply-add), f32 -> f32.
    HardSwish { name: String, input: String },
    /// The products of two f32 references of one length, value by value
    /// (a gate times a linear part: SwiGLU).
    Multiply { name: String, inputs: Vec<String> },
    /// The sums of two references of one length and type, value by value:
    /// f32 (a residual connection), or wrapping i32 (a skip connection).
    Add { name: String, inputs: Vec<String> },
    /// `clamp(in, min, max)`, i32 -> i32 (either bound may be left out).
    Clamp {
        name: String,
        input: String,
        #[serde(default = "i32_min")]
        min: i32,
        #[serde(default = "i32_max")]
        max: i32,
    },
    /// `in >> by`, arithmetic (rounding toward negative infinity), i32 ->
    /// i32.
    ShiftRight { name: String, input: String, by: u32 },
    /// `in << by`, wrapping, i32 -> i32.
    ShiftLeft { name: String, input: String, by: u32 },
    /// `in * in`, wrapping, i32 -> i32.
    Square { name: String, input: String },
    /// `in + bias`, wrapping, i32 -> i32, one i32 bias per value (and
    /// layer stack): `<name>.biases` in a bullet file (an integer layer's
    /// biases added after its sum was shifted).
    Bias { name: String, input: String },
}

fn i32_min() -> i32 {
    i32::MIN
}

fn i32_max() -> i32 {
    i32::MAX
}

/// The order in which a float layer sums its products.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum SumOrder {
    /// Per output: the bias, then for each input in order `out = out + x *
    /// w`, the product and the sum each rounded to f32 (no fused
    /// multiply-add).
    Sequential,
    /// Per output: the bias, then for each input in order `out =
    /// fma(input, weight, out)`, one rounding per input.
    Fused,
    /// Per output: `lanes` partial sums starting at zero, input `i` added
    /// to partial `i % lanes` by a fused multiply-add, in input order; the
    /// partials then halved pairwise (`p[j] + p[j + lanes / 2]`, rounded)
    /// until one is left; then the bias added. The order of a SIMD kernel
    /// with `lanes` f32 lanes and a halving horizontal sum.
    FusedLanes(usize),
}

fn default_affine_weight() -> IntType {
    IntType::I8
}

fn default_shift() -> u32 {
    6
}

fn default_sqr_shift() -> u32 {
    19
}

/// How a layer stack's output and the PSQT value become the result.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputSpec {
    /// The i32 value of the layer stack: one value, e.g. `"fc_2"` or
    /// `"fc_2[0]"`, or a sum and difference of several, e.g.
    /// `"fc_2 + fc_0[30] - fc_0[31]"` (wrapping i32 arithmetic).
    pub value: String,
    /// `value * multiply / divide`, truncated toward zero, before the skip
    /// term is added; the product in 64 bits unless `width` says `I32`.
    #[serde(default)]
    pub rescale: Option<Rescale>,
    /// A skip connection added to the layer-stack output.
    #[serde(default)]
    pub forward: Option<ForwardSpec>,
    /// The final division (Stockfish's OutputScale, 16).
    #[serde(default = "default_scale")]
    pub scale: i32,
    /// The result clamped to `min..=max` last (`clamp: (min: .., max:
    /// ..)`, no `Some`; an engine keeping evaluations off its mate
    /// scores).
    #[serde(default, deserialize_with = "present")]
    pub clamp: Option<Bounds>,
    /// How psqt and positional values are combined.
    pub eval: EvalRule,
}

fn default_scale() -> i32 {
    16
}

/// An inclusive range of i32 values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bounds {
    pub min: i32,
    pub max: i32,
}

/// A factor `x * multiply / divide`, the division truncating toward zero.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rescale {
    pub multiply: i32,
    pub divide: i32,
    /// The width the engine forms the product in: `I64` (exact; the
    /// default, as Stockfish) or `I32` (wrapping, as an engine that
    /// multiplies in `int`/`i32`, Reckless for one).
    #[serde(default = "default_product_width")]
    pub width: ProductWidth,
}

/// The integer width of a product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
pub enum ProductWidth {
    /// Wrapping 32-bit arithmetic.
    I32,
    /// 64-bit arithmetic (exact for two i32 factors).
    I64,
}

fn default_product_width() -> ProductWidth {
    ProductWidth::I64
}

/// `positional += input * multiply / divide`, in wrapping i32 arithmetic.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForwardSpec {
    /// One i32 value, e.g. `"fc_0[15]"`.
    pub input: String,
    pub multiply: i32,
    pub divide: i32,
}

/// How the value of the entry point is formed from psqt p and positional q.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum EvalRule {
    /// `(p + q) / scale` (Stockfish 12 to 16.1).
    SumThenDivide,
    /// `p / scale + q / scale` (Stockfish 17.1 and later).
    DivideThenSum,
}
