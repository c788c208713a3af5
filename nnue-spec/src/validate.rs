//! Checks a deserialised [`NetworkSpec`] and resolves it into the IR.
//!
//! Every problem is collected (not just the first) together with the path of
//! the value at fault, which [`crate::source_map`] turns into a line and column.

use crate::feature_sets;
use crate::hash;
use crate::ir::{
    Arch, BucketSelect, Element, FeatureSet, FileFormat, Forward, Layer, LayerKind, LayerStacks, Output, Param, Slice,
    Source, Tensor, Term, Transformer, TransformerOutput, ValueType,
};
use crate::limits;
use crate::schema::{self, IntType, LayerSpec, NetworkSpec};

/// A problem with the value at `path` (e.g. `layers[2].input`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub message: String,
}

/// The most pieces a legal position has (kings included).
const MAX_PIECES: usize = 32;
/// Affine rows are padded to a multiple of this many inputs (the widest SIMD
/// register in bytes that Stockfish's file format assumes).
const AFFINE_PADDING: usize = 32;
/// Transformer lanes are processed in blocks of this many (an AVX-512
/// register of i16 lanes, twice over so pairwise halves stay whole registers).
const TRANSFORMER_BLOCK: usize = 64;
/// Names a layer cannot have: Rust keywords (layers become fields and locals
/// of generated code), the transformer, and the generated code's own locals.
const RESERVED: &[&str] = &[
    "transformer", "input", "forward", "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else",
    "enum", "extern", "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "try", "typeof", "unsized",
    "virtual", "yield", "_",
];
/// Activations feed `u8 x i8` products summed in pairs into i16 lanes; 127 is
/// the largest value for which that cannot saturate.
const MAX_ACTIVATION: i32 = 127;
/// The largest transformer output: a u8. Above [`MAX_ACTIVATION`] only
/// layers with i16 weights may read it.
const MAX_TRANSFORMED: i32 = 255;
/// The largest `max` of SCReLU: its square must fit an i32.
const MAX_SCRELU: i32 = 46340;

/// Validates `spec`; returns the IR or every problem found.
pub fn validate(spec: &NetworkSpec) -> Result<Arch, Vec<Problem>> {
    let mut v = Validator {
        problems: Vec::new(),
        broken: Vec::new(),
        transformer_broken: false,
        transformer_top: 0,
        transformer_type: ValueType::U8,
        all_names: spec.layers.iter().map(|l| layer_name(l).to_owned()).collect(),
    };
    let module = v.module_name(&spec.name);
    let features = v.features(&spec.features, spec.file.transformer_encoding);
    let stacks = v.stacks(&spec.layer_stacks);
    let transformer = v.transformer(&spec.transformer, stacks.count);
    let layers = v.layers(&spec.layers, transformer.output_dimensions);
    let output = v.output(&spec.output, &layers);
    v.unused_layers(&layers, output.as_ref());
    let format = v.format(&spec.file, &spec.transformer, &features, &transformer, stacks.count, &layers);
    let feature_rows = features.iter().map(|f| f.dimensions).sum();
    let over = limits::check(feature_rows, &transformer, stacks.count, &layers, &v.problems);
    v.problems.extend(over);
    match (v.problems.is_empty(), output) {
        (true, Some(output)) => {
            let hashes = hash::compute(spec.file.hash, &features, transformer.dimensions, &layers);
            Ok(Arch {
                name: spec.name.clone(),
                module,
                description: spec.description.clone(),
                format,
                version: spec.file.version.unwrap_or(0),
                encoding: spec.file.transformer_encoding,
                psqt_placement: spec.file.psqt_weights,
                features,
                transformer,
                stacks,
                layers,
                output,
                hashes,
            })
        }
        _ => Err(v.problems),
    }
}

struct Validator {
    problems: Vec<Problem>,
    /// Per layer: its input could not be resolved or it has no outputs, which
    /// is reported once; references to it are not checked further.
    broken: Vec<bool>,
    /// The transformer's size is invalid (reported once).
    transformer_broken: bool,
    /// The transformer's largest output.
    transformer_top: i32,
    /// The type of the transformer's output values.
    transformer_type: ValueType,
    /// Every layer name in the file, for "defined later" hints.
    all_names: Vec<String>,
}

impl Validator {
    fn problem(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem { path: path.into(), message: message.into() });
    }

    fn module_name(&mut self, name: &str) -> String {
        let module = name.replace('-', "_");
        let valid = module.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && module.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !RESERVED.contains(&module.as_str());
        if !valid {
            self.problem(
                "name",
                format!("name `{name}` must start with a letter, hold only letters, digits, `_` and `-`, and not be a Rust keyword (it names the generated module)"),
            );
        }
        module
    }

    fn features(&mut self, specs: &[schema::FeatureSpec], encoding: schema::Encoding) -> Vec<FeatureSet> {
        if specs.is_empty() {
            self.problem("features", "at least one feature set is needed");
        }
        for (i, f) in specs.iter().enumerate() {
            let name = feature_sets::name(f.set);
            if let Some(first) = specs[..i].iter().position(|g| g.set == f.set) {
                self.problem(format!("features[{i}].set"), format!("{name} is already features[{first}]: each feature set may appear once"));
            }
            if !feature_sets::weight_allowed(f.weight) {
                self.problem(
                    format!("features[{i}].weight"),
                    format!("{name} weights of type {:?} cannot be added into i16 accumulator lanes; use I8 or I16", f.weight),
                );
            }
            match (&f.targets, f.set) {
                (Some(_), schema::FeatureSetKind::FullThreats) | (None, _) => {}
                (Some(_), _) => {
                    self.problem(format!("features[{i}].targets"), format!("{name} has no targets: only FullThreats lists the kinds each kind attacks"));
                }
            }
            match (&f.layout, f.set) {
                (None, schema::FeatureSetKind::PieceSquare) => {
                    self.problem(format!("features[{i}].set"), "PieceSquare needs a `layout`: its king buckets, mirroring and plane order");
                }
                (Some(_), schema::FeatureSetKind::PieceSquare) | (None, _) => {}
                (Some(_), _) => {
                    self.problem(format!("features[{i}].layout"), format!("{name} has a fixed layout: only PieceSquare takes one"));
                }
            }
            if let (Some(layout), schema::FeatureSetKind::PieceSquare) = (&f.layout, f.set) {
                let n = layout.king_buckets.len();
                let path = format!("features[{i}].layout.king_buckets");
                if !(n == 64 || (n == 32 && layout.mirror != schema::Mirror::None)) {
                    self.problem(path, format!("{n} king buckets: give 64 (one per square), or 32 with mirroring (the four files the king is mirrored onto)"));
                } else if let Some(missing) = (0..layout.king_buckets.iter().copied().max().unwrap_or(0)).find(|b| !layout.king_buckets.contains(b)) {
                    self.problem(path, format!("bucket {missing} is never used: number the buckets from 0 without gaps"));
                }
            }
            if let Some(targets) = &f.targets {
                let table = feature_sets::targets_table(targets);
                for (attacker, kinds) in table.iter().enumerate() {
                    let row = feature_sets::KIND_FIELDS[attacker];
                    if let Some(k) = kinds.iter().enumerate().find_map(|(j, k)| kinds[..j].contains(k).then_some(k)) {
                        self.problem(format!("features[{i}].targets.{row}"), format!("{k:?} is listed twice"));
                    }
                }
                if f.hash.is_none() && table != feature_sets::stockfish_18_targets() {
                    self.problem(
                        format!("features[{i}].targets"),
                        "targets other than Stockfish 18's make another feature set: give its hash word (`hash: 0x...`)",
                    );
                }
            }
        }
        specs.iter().map(|f| feature_sets::describe(f, encoding)).collect()
    }

    fn stacks(&mut self, spec: &schema::LayerStacksSpec) -> LayerStacks {
        let select = match spec.select {
            schema::BucketSelect::Single => {
                if spec.count != 1 {
                    self.problem("layer_stacks.count", format!("`Single` selects one stack, but count is {}", spec.count));
                }
                BucketSelect::Single
            }
            schema::BucketSelect::PieceCount { divisor, offset } => {
                if divisor == 0 {
                    self.problem("layer_stacks.select.divisor", "the piece-count divisor must be at least 1");
                } else if offset > 2 {
                    // A legal position has both kings: pieces >= 2.
                    self.problem("layer_stacks.select.offset", format!("offset {offset} must be at most 2 (a position has at least its two kings)"));
                } else if spec.count < (MAX_PIECES - offset) / divisor + 1 {
                    self.problem(
                        "layer_stacks.count",
                        format!(
                            "{} stacks are too few: (pieces - {offset}) / {divisor} reaches {} with {MAX_PIECES} pieces",
                            spec.count,
                            (MAX_PIECES - offset) / divisor
                        ),
                    );
                }
                BucketSelect::PieceCount { divisor, offset }
            }
            schema::BucketSelect::Table(ref table) => {
                let mut entries = [0u8; MAX_PIECES + 1];
                if table.len() != MAX_PIECES + 1 {
                    self.problem(
                        "layer_stacks.select",
                        format!("{} entries: give the stack of every piece count 0..={MAX_PIECES} ({} entries)", table.len(), MAX_PIECES + 1),
                    );
                } else if let Some((i, &b)) = table.iter().enumerate().find(|(_, b)| **b >= spec.count) {
                    self.problem(format!("layer_stacks.select[{i}]"), format!("stack {b} does not exist: there are {}", spec.count));
                } else {
                    for (e, &b) in entries.iter_mut().zip(table) {
                        *e = b as u8;
                    }
                }
                BucketSelect::Table(entries)
            }
        };
        if spec.count == 0 && !matches!(spec.select, schema::BucketSelect::Single) {
            self.problem("layer_stacks.count", "there must be at least one layer stack");
        }
        LayerStacks { count: spec.count, select }
    }

    fn transformer(&mut self, spec: &schema::TransformerSpec, stacks: usize) -> Transformer {
        let dims = spec.dimensions;
        let (output, output_dimensions, block, top) = match spec.output {
            schema::TransformerOutput::ClippedReLU { max } => {
                (TransformerOutput::ClippedReLU { max }, dims.saturating_mul(2), TRANSFORMER_BLOCK, max)
            }
            schema::TransformerOutput::Pairwise { max, divisor } => {
                if divisor <= 0 || divisor.count_ones() != 1 {
                    self.problem("transformer.output.divisor", format!("the pairwise divisor {divisor} must be a power of two (SIMD kernels shift)"));
                } else {
                    // SIMD: `((a << (16 - k)) * b) >> 16` on u16 lanes, or `(a * b) >> k`
                    // on the low u16 half; one of them must be exact.
                    let k = divisor.trailing_zeros();
                    let mulhi = k <= 16 && i64::from(max) << (16 - k) < 1 << 16;
                    let mullo = i64::from(max) * i64::from(max) < 1 << 16;
                    if !(mulhi || mullo) {
                        self.problem("transformer.output", format!("Pairwise(max: {max}, divisor: {divisor}) has no exact 16-bit SIMD form: need max << (16 - log2 divisor) < 65536 or max * max < 65536"));
                    }
                }
                // With a bad divisor the largest output is unknown; the
                // divisor's own error says enough.
                let top = if divisor > 0 { max.saturating_mul(max) / divisor } else { 1 };
                (TransformerOutput::Pairwise { max, divisor }, dims, 2 * TRANSFORMER_BLOCK, top)
            }
            schema::TransformerOutput::Accumulators => {
                (TransformerOutput::Accumulators, dims.saturating_mul(2), TRANSFORMER_BLOCK, i32::from(i16::MAX))
            }
        };
        self.transformer_type = output.value_type();
        self.transformer_broken = dims == 0;
        if dims == 0 || !dims.is_multiple_of(block) {
            self.problem(
                "transformer.dimensions",
                format!("dimensions {dims} must be a positive multiple of {block} (SIMD register blocks{})",
                    if block > TRANSFORMER_BLOCK { ", per pairwise half" } else { "" }),
            );
        }
        let max = match spec.output {
            schema::TransformerOutput::ClippedReLU { max } | schema::TransformerOutput::Pairwise { max, .. } => max,
            schema::TransformerOutput::Accumulators => i32::from(i16::MAX),
        };
        if output == TransformerOutput::Accumulators {
            // The values pass unchanged: no clamp to check.
        } else if !(1..=i32::from(i16::MAX)).contains(&max) {
            self.problem("transformer.output.max", format!("max {max} must lie in 1..={} (it clamps i16 lanes)", i16::MAX));
        } else if !(1..=MAX_TRANSFORMED).contains(&top) {
            self.problem(
                "transformer.output",
                format!("the transformer's largest output is {top}; it must lie in 1..={MAX_TRANSFORMED} (a u8)"),
            );
        }
        self.transformer_top = top;
        for (field, ty) in [("bias", spec.bias), ("accumulator", spec.accumulator)] {
            if ty != IntType::I16 {
                self.problem(format!("transformer.{field}"), format!("a transformer {field} of type {ty:?} is not supported yet; use I16"));
            }
        }
        if spec.psqt_buckets != 0 && spec.psqt_buckets != stacks {
            self.problem(
                "transformer.psqt_buckets",
                format!("{} PSQT buckets but {stacks} layer stacks: they share the bucket index, so use {stacks} (or 0)", spec.psqt_buckets),
            );
        }
        if !(1..=64).contains(&spec.load_scale) {
            self.problem("transformer.load_scale", format!("load_scale {} must lie in 1..=64", spec.load_scale));
        }
        Transformer {
            dimensions: dims,
            bias: spec.bias,
            accumulator: spec.accumulator,
            psqt_buckets: spec.psqt_buckets,
            load_scale: spec.load_scale,
            output,
            output_dimensions,
        }
    }

    fn layers(&mut self, specs: &[LayerSpec], transformer_outputs: usize) -> Vec<Layer> {
        if specs.is_empty() {
            self.problem("layers", "a layer stack needs at least one layer");
        }
        let mut layers: Vec<Layer> = Vec::new();
        for (i, spec) in specs.iter().enumerate() {
            let problems_before = self.problems.len();
            let at = format!("layers[{i}]");
            let name = layer_name(spec);
            if !is_identifier(name) || RESERVED.contains(&name) {
                self.problem(
                    format!("{at}.name"),
                    format!("layer name `{name}` must be a Rust identifier, not a keyword, and none of `transformer`, `input`, `forward`"),
                );
            } else if layers.iter().any(|l| l.name == name) {
                self.problem(format!("{at}.name"), format!("a layer named `{name}` already exists"));
            }
            let layer = match spec {
                LayerSpec::Affine { input, outputs, sparse, weight, divisor, sum, .. } => {
                    let wide = *weight == IntType::I16;
                    let float = *weight == IntType::F32;
                    let accepted: &[ValueType] = match weight {
                        IntType::I16 => &[ValueType::U8, ValueType::I32],
                        IntType::F32 => &[ValueType::F32],
                        _ => &[ValueType::U8],
                    };
                    let slice = self.input(&format!("{at}.input"), input, &layers, transformer_outputs, accepted);
                    if *outputs == 0 {
                        self.problem(format!("{at}.outputs"), "an affine layer needs at least one output");
                    }
                    if !matches!(weight, IntType::I8 | IntType::I16 | IntType::F32) {
                        self.problem(format!("{at}.weight"), format!("affine weights of type {weight:?} are not supported; use I8, I16 or F32"));
                    }
                    match (float, sum) {
                        (true, None) => self.problem(
                            format!("{at}.weight"),
                            "F32 weights need the order of their sum, part of the result: `sum: Sequential` (the bias, then each input in order, product and sum rounded to f32)",
                        ),
                        (false, Some(_)) => self.problem(format!("{at}.sum"), "only F32 weights take a summation order (integer sums are exact)"),
                        _ => {}
                    }
                    if *sparse && (wide || float) {
                        self.problem(format!("{at}.sparse"), "sparse input is only supported for i8 weights");
                    } else if *sparse && slice.is_some_and(|s| s.source != Source::Transformer) {
                        self.problem(format!("{at}.sparse"), "sparse input is only supported for a layer reading the transformer");
                    }
                    if *divisor != 1 && !wide {
                        self.problem(format!("{at}.divisor"), "a divisor before the bias is only supported with I16 weights");
                    } else if *divisor <= 0 {
                        self.problem(format!("{at}.divisor"), format!("divisor {divisor} must be positive"));
                    }
                    if !wide && self.transformer_top > MAX_ACTIVATION && slice.is_some_and(|s| s.source == Source::Transformer) {
                        self.problem(
                            format!("{at}.input"),
                            format!(
                                "the transformer's outputs reach {}, but i8 weights read values up to {MAX_ACTIVATION}; use `weight: I16`",
                                self.transformer_top
                            ),
                        );
                    }
                    let len = slice.map_or(0, |s| s.len);
                    Layer {
                        name: name.to_owned(),
                        kind: if float {
                            // Without an order (reported above) it is still a float layer.
                            LayerKind::FloatAffine { order: sum.unwrap_or(schema::SumOrder::Sequential) }
                        } else if wide {
                            LayerKind::WideAffine { divisor: *divisor }
                        } else {
                            LayerKind::Affine { padded_inputs: len.div_ceil(AFFINE_PADDING).saturating_mul(AFFINE_PADDING), sparse: *sparse }
                        },
                        inputs: slice.into_iter().collect(),
                        input_dimensions: len,
                        output_dimensions: *outputs,
                        output_type: if float { ValueType::F32 } else { ValueType::I32 },
                    }
                }
                LayerSpec::SCReLU { input, max, .. } => {
                    let slice =
                        self.input(&format!("{at}.input"), input, &layers, transformer_outputs, &[ValueType::U8, ValueType::I16, ValueType::I32]);
                    if !(1..=MAX_SCRELU).contains(max) {
                        self.problem(format!("{at}.max"), format!("max {max} must lie in 1..={MAX_SCRELU} (its square is an i32)"));
                    }
                    let len = slice.map_or(0, |s| s.len);
                    Layer {
                        name: name.to_owned(),
                        kind: LayerKind::SCReLU { max: *max },
                        inputs: slice.into_iter().collect(),
                        input_dimensions: len,
                        output_dimensions: len,
                        output_type: ValueType::I32,
                    }
                }
                LayerSpec::CReLU { input, max, .. } | LayerSpec::ToFloat { input, divisor: max, .. } | LayerSpec::ToInt { input, multiply: max, .. } => {
                    let (kind, accepted, output_type, field): (LayerKind, &[ValueType], ValueType, &str) = match spec {
                        LayerSpec::CReLU { .. } => (LayerKind::CReLU { max: *max }, &[ValueType::F32], ValueType::F32, "max"),
                        LayerSpec::ToFloat { .. } => {
                            (LayerKind::ToFloat { divisor: *max }, &[ValueType::U8, ValueType::I16, ValueType::I32], ValueType::F32, "divisor")
                        }
                        _ => (LayerKind::ToInt { multiply: *max }, &[ValueType::F32], ValueType::I32, "multiply"),
                    };
                    let slice = self.input(&format!("{at}.input"), input, &layers, transformer_outputs, accepted);
                    if !(max.is_finite() && *max > 0.0) {
                        self.problem(format!("{at}.{field}"), format!("{field} {max} must be a positive finite number"));
                    }
                    let len = slice.map_or(0, |s| s.len);
                    Layer {
                        name: name.to_owned(),
                        kind,
                        inputs: slice.into_iter().collect(),
                        input_dimensions: len,
                        output_dimensions: len,
                        output_type,
                    }
                }
                LayerSpec::ClippedReLU { input, shift, max, .. } | LayerSpec::SqrClippedReLU { input, shift, max, .. } => {
                    let squared = matches!(spec, LayerSpec::SqrClippedReLU { .. });
                    let slice = self.input(&format!("{at}.input"), input, &layers, transformer_outputs, &[ValueType::I32]);
                    let max_shift = if squared { 62 } else { 31 };
                    if *shift > max_shift {
                        self.problem(format!("{at}.shift"), format!("shift {shift} must be at most {max_shift}"));
                    }
                    if !(1..=MAX_ACTIVATION).contains(max) {
                        self.problem(format!("{at}.max"), format!("max {max} must lie in 1..={MAX_ACTIVATION}"));
                    }
                    let len = slice.map_or(0, |s| s.len);
                    let (shift, max) = (*shift, *max);
                    Layer {
                        name: name.to_owned(),
                        kind: if squared { LayerKind::SqrClippedReLU { shift, max } } else { LayerKind::ClippedReLU { shift, max } },
                        inputs: slice.into_iter().collect(),
                        input_dimensions: len,
                        output_dimensions: len,
                        output_type: ValueType::U8,
                    }
                }
                LayerSpec::Concat { inputs, .. } => {
                    if inputs.len() < 2 {
                        self.problem(format!("{at}.inputs"), "a concatenation needs at least two inputs");
                    }
                    let slices: Vec<Slice> = inputs
                        .iter()
                        .enumerate()
                        .filter_map(|(j, s)| self.input(&format!("{at}.inputs[{j}]"), s, &layers, transformer_outputs, &[ValueType::U8]))
                        .collect();
                    let len = slices.iter().fold(0usize, |sum, s| sum.saturating_add(s.len));
                    Layer {
                        name: name.to_owned(),
                        kind: LayerKind::Concat,
                        inputs: slices,
                        input_dimensions: len,
                        output_dimensions: len,
                        output_type: ValueType::U8,
                    }
                }
            };
            self.broken.push((layer.inputs.is_empty() && self.problems.len() > problems_before) || layer.output_dimensions == 0);
            layers.push(layer);
        }
        layers
    }

    /// Resolves a reference such as `fc_0`, `fc_0[0..15]` or `fc_0[15]`
    /// against the layers defined so far.
    fn input(
        &mut self,
        path: &str,
        reference: &str,
        layers: &[Layer],
        transformer_outputs: usize,
        accepted: &[ValueType],
    ) -> Option<Slice> {
        let Some((name, range)) = parse_reference(reference) else {
            self.problem(path, format!("`{reference}` is not a reference: write `name`, `name[start..end]` or `name[index]`"));
            return None;
        };
        let (source, len, ty) = if name == "transformer" {
            if self.transformer_broken {
                return None;
            }
            (Source::Transformer, transformer_outputs, self.transformer_type)
        } else if let Some(i) = layers.iter().position(|l| l.name == name) {
            if self.broken[i] {
                // Already reported: the layer's own input is wrong.
                return None;
            }
            (Source::Layer(i), layers[i].output_dimensions, layers[i].output_type)
        } else {
            let known: Vec<&str> = std::iter::once("transformer").chain(layers.iter().map(|l| l.name.as_str())).collect();
            let message = if self.all_names.iter().any(|n| n == name) {
                format!("`{name}` is defined after this layer: a layer reads `transformer` or an earlier layer ({})", known.join(", "))
            } else {
                format!("unknown input `{name}`: a layer reads `transformer` or an earlier layer ({})", known.join(", "))
            };
            self.problem(path, message);
            return None;
        };
        let (start, end) = range.unwrap_or((0, len));
        if start >= end || end > len {
            self.problem(path, format!("`{reference}` selects {start}..{end}, but `{name}` has {len} values"));
            return None;
        }
        if !accepted.contains(&ty) {
            let wanted: Vec<&str> = accepted.iter().map(|&t| type_name(t)).collect();
            self.problem(
                path,
                format!("`{name}` produces {} values but this layer reads {} values", type_name(ty), wanted.join(" or ")),
            );
            return None;
        }
        Some(Slice { source, start, len: end - start })
    }

    fn output(&mut self, spec: &schema::OutputSpec, layers: &[Layer]) -> Option<Output> {
        let value = self.sum("output.value", &spec.value, layers);
        if spec.rescale.is_some_and(|r| r.divide == 0) {
            self.problem("output.rescale.divide", "division by zero");
        }
        let forward = spec.forward.as_ref().map(|f| {
            if f.divide == 0 {
                self.problem("output.forward.divide", "division by zero");
            }
            let input = self.element("output.forward.input", &f.input, layers);
            (input, f.multiply, f.divide)
        });
        if spec.scale <= 0 {
            self.problem("output.scale", format!("scale {} must be positive", spec.scale));
        }
        let forward = match forward {
            Some((Some(input), multiply, divide)) => Some(Forward { input, multiply, divide }),
            Some((None, ..)) => return None,
            None => None,
        };
        let rescale = spec.rescale.map(|r| (r.multiply, r.divide));
        Some(Output { value: value?, rescale, forward, scale: spec.scale, eval: spec.eval })
    }

    /// Resolves a sum of values of affine layers: `a`, or `a + b - c` (the
    /// signs between spaces).
    fn sum(&mut self, path: &str, text: &str, layers: &[Layer]) -> Option<Vec<Term>> {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let well_formed = tokens.len() % 2 == 1
            && tokens.iter().enumerate().all(|(i, t)| (i % 2 == 1) == matches!(*t, "+" | "-"));
        if !well_formed {
            self.problem(path, format!("`{text}` is not a sum of references: write `a`, or `a + b - c` with spaces around the signs"));
            return None;
        }
        let mut terms = Vec::new();
        let mut ok = true;
        for (i, reference) in tokens.iter().enumerate().step_by(2) {
            let subtract = i > 0 && tokens[i - 1] == "-";
            match self.element(path, reference, layers) {
                Some(element) => terms.push(Term { element, subtract }),
                None => ok = false,
            }
        }
        ok.then_some(terms)
    }

    /// Resolves a reference to one i32 value of an affine layer (the
    /// output's value and skip term).
    fn element(&mut self, path: &str, reference: &str, layers: &[Layer]) -> Option<Element> {
        let affine: Vec<&str> =
            layers.iter().filter(|l| l.output_type == ValueType::I32).map(|l| l.name.as_str()).collect();
        if affine.is_empty() {
            return None; // no affine layer at all: reported with the layers
        }
        let expected = format!("the output reads one value of an affine layer ({})", affine.join(", "));
        let Some((name, _)) = parse_reference(reference) else {
            self.problem(path, format!("`{reference}` is not a reference: write `name` or `name[index]`"));
            return None;
        };
        match layers.iter().position(|l| l.name == name) {
            None => {
                self.problem(path, format!("unknown layer `{name}`: {expected}"));
                return None;
            }
            Some(i) if layers[i].output_type != ValueType::I32 => {
                self.problem(path, format!("`{name}` is an activation (u8 values): {expected}"));
                return None;
            }
            Some(_) => {}
        }
        let slice = self.input(path, reference, layers, 0, &[ValueType::I32])?;
        let Source::Layer(layer) = slice.source else { return None };
        if slice.len != 1 {
            self.problem(path, format!("`{reference}` must select exactly one value, not {}", slice.len));
            return None;
        }
        Some(Element { layer, index: slice.start })
    }

    /// The file format; for bullet's, its tensors resolved and checked.
    fn format(
        &mut self,
        file: &schema::FileSpec,
        spec: &schema::TransformerSpec,
        features: &[FeatureSet],
        transformer: &Transformer,
        stacks: usize,
        layers: &[Layer],
    ) -> FileFormat {
        let (tensors, pad_to) = match &file.format {
            schema::FileFormat::Stockfish => {
                if file.version.is_none() {
                    self.problem("file", "a Stockfish-format file starts with a version word: give `version: 0x...`");
                }
                if let Some(i) = layers.iter().position(|l| matches!(l.kind, LayerKind::WideAffine { .. } | LayerKind::FloatAffine { .. })) {
                    self.problem(format!("layers[{i}].weight"), "layers with i16 or f32 weights are read from bullet-format files only (`file: (format: Bullet(...))`)");
                }
                return FileFormat::Stockfish;
            }
            schema::FileFormat::Bullet { tensors, pad_to } => (tensors, *pad_to),
        };
        if file.version.is_some() {
            self.problem("file.version", "a bullet file has no header: remove the version");
        }
        if file.transformer_encoding != schema::Encoding::Raw {
            self.problem("file.transformer_encoding", "a bullet file holds raw little-endian tensors");
        }
        if spec.psqt_buckets != 0 {
            self.problem("transformer.psqt_buckets", "a bullet file has no PSQT weights: use 0");
        }
        if features.len() != 1 {
            self.problem("features", "a bullet file holds one feature set's weights");
        }
        if !(1..=4096).contains(&pad_to) {
            self.problem("file.format.pad_to", format!("pad_to {pad_to} must lie in 1..=4096"));
        }
        let mut resolved: Vec<Tensor> = Vec::new();
        // A tensor that names nothing was reported; what it meant to name
        // is then not reported missing as well.
        let mut unresolved = false;
        for (i, t) in tensors.iter().enumerate() {
            let at = format!("file.format.tensors[{i}]");
            let param = match t.tensor.split_once('.') {
                Some(("transformer", "weights")) => Some(Param::TransformerWeights),
                Some(("transformer", "biases")) => Some(Param::TransformerBiases),
                Some((layer, part @ ("weights" | "biases"))) => match layers.iter().position(|l| l.name == layer) {
                    Some(j) if layers[j].kind.is_affine() => Some(if part == "weights" { Param::Weights(j) } else { Param::Biases(j) }),
                    Some(_) => {
                        self.problem(format!("{at}.tensor"), format!("layer `{layer}` has no parameters: only affine layers have weights and biases"));
                        None
                    }
                    None => {
                        self.problem(format!("{at}.tensor"), format!("unknown layer `{layer}`"));
                        None
                    }
                },
                _ => {
                    self.problem(
                        format!("{at}.tensor"),
                        format!("`{}` is not a tensor: write `transformer.weights`, `transformer.biases`, `<layer>.weights` or `<layer>.biases`", t.tensor),
                    );
                    None
                }
            };
            let Some(param) = param else {
                unresolved = true;
                continue;
            };
            if resolved.iter().any(|r| r.param == param) {
                self.problem(format!("{at}.tensor"), format!("`{}` is listed twice", t.tensor));
                continue;
            }
            let (allowed, len): (&[IntType], usize) = match param {
                Param::TransformerWeights => {
                    let weight = features.first().map_or(IntType::I16, |f| f.weight);
                    let allowed: &[IntType] = if weight == IntType::I8 { &[IntType::I8] } else { &[IntType::I8, IntType::I16] };
                    (allowed, features.iter().map(|f| f.dimensions).sum::<usize>().saturating_mul(transformer.dimensions))
                }
                Param::TransformerBiases => (&[IntType::I8, IntType::I16], transformer.dimensions),
                Param::Weights(j) => {
                    let allowed: &[IntType] = match layers[j].kind {
                        LayerKind::WideAffine { .. } => &[IntType::I8, IntType::I16],
                        LayerKind::FloatAffine { .. } => &[IntType::F32],
                        _ => &[IntType::I8],
                    };
                    (allowed, stacks.saturating_mul(layers[j].output_dimensions).saturating_mul(layers[j].input_dimensions))
                }
                Param::Biases(j) => {
                    let allowed: &[IntType] = match layers[j].kind {
                        LayerKind::FloatAffine { .. } => &[IntType::F32],
                        _ => &[IntType::I8, IntType::I16, IntType::I32],
                    };
                    (allowed, stacks.saturating_mul(layers[j].output_dimensions))
                }
            };
            if !allowed.contains(&t.ty) {
                let names: Vec<String> = allowed.iter().map(|t| format!("{t:?}")).collect();
                self.problem(format!("{at}.type"), format!("`{}` cannot be stored as {:?}: use {}", t.tensor, t.ty, names.join(" or ")));
            }
            if t.layout.is_some() && !matches!(param, Param::Weights(_)) {
                self.problem(format!("{at}.layout"), "only a layer's weights have a layout");
            }
            resolved.push(Tensor { param, ty: t.ty, layout: t.layout.unwrap_or_default(), len });
        }
        let mut wanted = vec![Param::TransformerWeights, Param::TransformerBiases];
        for (j, layer) in layers.iter().enumerate().filter(|(_, l)| l.kind.is_affine()) {
            let _ = layer;
            wanted.extend([Param::Weights(j), Param::Biases(j)]);
        }
        for param in wanted {
            if !unresolved && !resolved.iter().any(|r| r.param == param) {
                let name = match param {
                    Param::TransformerWeights => "transformer.weights".to_owned(),
                    Param::TransformerBiases => "transformer.biases".to_owned(),
                    Param::Weights(j) => format!("{}.weights", layers[j].name),
                    Param::Biases(j) => format!("{}.biases", layers[j].name),
                };
                self.problem("file.format.tensors", format!("`{name}` is missing: list every parameter of the net once"));
            }
        }
        FileFormat::Bullet { tensors: resolved, pad_to }
    }

    /// Reports layers nothing reads; only when everything else is right, as
    /// a wrong reference elsewhere also leaves its target unread.
    fn unused_layers(&mut self, layers: &[Layer], output: Option<&Output>) {
        let Some(output) = output.filter(|_| self.problems.is_empty()) else { return };
        let mut used = vec![false; layers.len()];
        for term in &output.value {
            used[term.element.layer] = true;
        }
        if let Some(f) = output.forward {
            used[f.input.layer] = true;
        }
        for layer in layers {
            for slice in &layer.inputs {
                if let Source::Layer(i) = slice.source {
                    used[i] = true;
                }
            }
        }
        for (i, layer) in layers.iter().enumerate() {
            if !used[i] {
                self.problem(format!("layers[{i}].name"), format!("layer `{}` is never used", layer.name));
            }
        }
    }
}

fn layer_name(spec: &LayerSpec) -> &str {
    match spec {
        LayerSpec::Affine { name, .. }
        | LayerSpec::SCReLU { name, .. }
        | LayerSpec::CReLU { name, .. }
        | LayerSpec::ToFloat { name, .. }
        | LayerSpec::ToInt { name, .. }
        | LayerSpec::ClippedReLU { name, .. }
        | LayerSpec::SqrClippedReLU { name, .. }
        | LayerSpec::Concat { name, .. } => name,
    }
}

fn type_name(ty: ValueType) -> &'static str {
    match ty {
        ValueType::U8 => "u8 (activation)",
        ValueType::I32 => "i32 (affine)",
        ValueType::I16 => "i16 (accumulator)",
        ValueType::F32 => "f32 (float layer)",
    }
}

fn is_identifier(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `name`, `name[a..b]` or `name[i]` -> (name, optional half-open range).
fn parse_reference(s: &str) -> Option<(&str, Option<(usize, usize)>)> {
    let Some(open) = s.find('[') else {
        return is_identifier(s).then_some((s, None));
    };
    let name = &s[..open];
    let inner = s[open + 1..].strip_suffix(']')?;
    let range = match inner.split_once("..") {
        Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
        None => {
            let i: usize = inner.trim().parse().ok()?;
            (i, i.checked_add(1)?)
        }
    };
    is_identifier(name).then_some((name, Some(range)))
}

#[cfg(test)]
mod tests {
    use super::parse_reference;

    #[test]
    fn references() {
        assert_eq!(parse_reference("fc_0"), Some(("fc_0", None)));
        assert_eq!(parse_reference("fc_0[0..15]"), Some(("fc_0", Some((0, 15)))));
        assert_eq!(parse_reference("fc_0[15]"), Some(("fc_0", Some((15, 16)))));
        assert_eq!(parse_reference("fc_0[15"), None);
        assert_eq!(parse_reference("0fc"), None);
        // The index after the largest `usize` does not exist: not a reference (no overflow).
        assert_eq!(parse_reference("fc_0[18446744073709551615]"), None);
    }
}
