//! Checks a deserialised [`NetworkSpec`] and resolves it into the IR.
//!
//! Every problem is collected (not just the first) together with the path of
//! the value at fault, which [`crate::source_map`] turns into a line and column.

use crate::feature_sets;
use crate::hash;
use crate::ir::{
    Arch, BucketSelect, Element, ElementwiseOp, FeatureSet, FileFormat, Forward, IntegerOp, Layer, LayerKind,
    LayerStacks, Output, Param, Rescale, Slice, Source, Tensor, Term, Transformer, TransformerOutput, ValueType,
};
use crate::limits;
use crate::schema::{self, IntType, LayerSpec, NetworkSpec};

pub use crate::problem::Problem;

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
    "transformer",
    "input",
    "forward",
    "as",
    "async",
    "await",
    "break",
    "const",
    "continue",
    "crate",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "gen",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "self",
    "Self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "abstract",
    "become",
    "box",
    "do",
    "final",
    "macro",
    "override",
    "priv",
    "try",
    "typeof",
    "unsized",
    "virtual",
    "yield",
    "_",
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
        bullet: matches!(spec.file.format, schema::FileFormat::Bullet { .. }),
    };
    let module = v.module_name(&spec.name);
    let features = v.features(&spec.features, spec.file.transformer_encoding);
    let stacks = v.stacks(&spec.layer_stacks);
    let transformer = v.transformer(&spec.transformer, stacks.count, &spec.layers);
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
    /// A bullet-format file (where layers may have i16 weights).
    bullet: bool,
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
                self.problem(
                    format!("features[{i}].set"),
                    format!("{name} is already features[{first}]: each feature set may appear once"),
                );
            }
            if !feature_sets::weight_allowed(f.weight) {
                self.problem(
                    format!("features[{i}].weight"),
                    format!(
                        "{name} weights of type {:?} cannot be added into i16 accumulator lanes; use I8 or I16",
                        f.weight
                    ),
                );
            }
            match (&f.targets, f.set) {
                (Some(_), schema::FeatureSetKind::FullThreats) | (None, _) => {}
                (Some(_), _) => {
                    self.problem(
                        format!("features[{i}].targets"),
                        format!("{name} has no targets: only FullThreats lists the kinds each kind attacks"),
                    );
                }
            }
            match (&f.layout, f.set) {
                (None, schema::FeatureSetKind::PieceSquare) => {
                    self.problem(
                        format!("features[{i}].set"),
                        "PieceSquare needs a `layout` (its king buckets, mirroring and plane order): add e.g. `layout: (king_buckets: None)` for 768 inputs without king buckets, by side then kind, as most bullet nets",
                    );
                }
                (Some(_), schema::FeatureSetKind::PieceSquare) | (None, _) => {}
                (Some(_), _) => {
                    self.problem(
                        format!("features[{i}].layout"),
                        format!("{name} has a fixed layout: only PieceSquare takes one"),
                    );
                }
            }
            if let (Some(layout), schema::FeatureSetKind::PieceSquare) = (&f.layout, f.set) {
                let n = layout.king_buckets.len();
                let path = format!("features[{i}].layout.king_buckets");
                if n == 32 && layout.mirror == schema::Mirror::None {
                    // 32 entries are the four files of a mirrored board.
                    let mirror = if self.bullet { "KingOnEToH" } else { "KingOnAToD" };
                    self.problem(
                        path,
                        format!("32 king buckets cover the four files the king is mirrored onto, but the layout has no mirroring: add `mirror: {mirror}` (`KingOnAToD`: Stockfish's, mirrored when the king stands on files a-d; `KingOnEToH`: bullet's), or give 64 buckets, one per square"),
                    );
                } else if !(n == 64 || (n == 32 && layout.mirror != schema::Mirror::None)) {
                    self.problem(path, format!("{n} king buckets: give 64 (one per square), or 32 with mirroring (the four files the king is mirrored onto), or `king_buckets: None` for one bucket"));
                } else if let Some(missing) = (0..layout.king_buckets.iter().copied().max().unwrap_or(0))
                    .find(|b| !layout.king_buckets.contains(b))
                {
                    self.problem(
                        path,
                        format!("bucket {missing} is never used: number the buckets from 0 without gaps"),
                    );
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
                // A Stockfish file names its sets by hash words; a bullet
                // file has none.
                if f.hash.is_none()
                    && !self.bullet
                    && f.set == schema::FeatureSetKind::FullThreats
                    && table != feature_sets::stockfish_18_targets()
                {
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
                    // The smallest divisor that reaches the last stack with 32 pieces.
                    let divisor = (1..=MAX_PIECES).find(|d| spec.count > (MAX_PIECES - 1) / d);
                    let or_piece_count = match divisor {
                        Some(d) if spec.count > 1 && spec.count <= limits::MAX_LAYER_STACKS => {
                            format!(
                                ", or select among {} stacks by piece count (`select: PieceCount(divisor: {d})`)",
                                spec.count
                            )
                        }
                        _ => String::new(),
                    };
                    self.problem(
                        "layer_stacks.count",
                        format!(
                            "`Single` selects one stack, but count is {}: use `count: 1`{or_piece_count}",
                            spec.count
                        ),
                    );
                }
                BucketSelect::Single
            }
            schema::BucketSelect::PieceCount { divisor, offset } => {
                if divisor == 0 {
                    self.problem("layer_stacks.select.divisor", "the piece-count divisor must be at least 1");
                } else if offset > 2 {
                    // A legal position has both kings: pieces >= 2.
                    self.problem(
                        "layer_stacks.select.offset",
                        format!("offset {offset} must be at most 2 (a position has at least its two kings)"),
                    );
                } else if spec.count < (MAX_PIECES - offset) / divisor + 1 {
                    let needed = (MAX_PIECES - offset) / divisor + 1;
                    // The smallest divisor that keeps to `count` stacks.
                    let fitting = (divisor..=MAX_PIECES).find(|d| spec.count > (MAX_PIECES - offset) / d);
                    let or_divisor =
                        fitting.map_or(String::new(), |d| format!(", or `divisor: {d}` for {} stacks", spec.count));
                    self.problem(
                        "layer_stacks.count",
                        format!(
                            "{} stacks are too few: (pieces - {offset}) / {divisor} reaches {} with {MAX_PIECES} pieces: use `count: {needed}`{or_divisor}",
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
                        format!(
                            "{} entries: give the stack of every piece count 0..={MAX_PIECES} ({} entries)",
                            table.len(),
                            MAX_PIECES + 1
                        ),
                    );
                } else if let Some((i, &b)) = table.iter().enumerate().find(|(_, b)| **b >= spec.count) {
                    self.problem(
                        format!("layer_stacks.select[{i}]"),
                        format!(
                            "stack {b} does not exist: there are {}, numbered from 0 to {}",
                            spec.count,
                            spec.count.saturating_sub(1)
                        ),
                    );
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

    fn transformer(&mut self, spec: &schema::TransformerSpec, stacks: usize, layers: &[LayerSpec]) -> Transformer {
        let dims = spec.dimensions;
        let (output, output_dimensions, block, top) = match spec.output {
            schema::TransformerOutput::ClippedReLU { max } => {
                (TransformerOutput::ClippedReLU { max }, dims.saturating_mul(2), TRANSFORMER_BLOCK, max)
            }
            schema::TransformerOutput::Pairwise { max, divisor } => {
                if divisor <= 0 || divisor.count_ones() != 1 {
                    self.problem(
                        "transformer.output.divisor",
                        format!("the pairwise divisor {divisor} must be a power of two (SIMD kernels shift)"),
                    );
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
            let below = dims / block * block;
            let nearest = if below == 0 { format!("{block}") } else { format!("{below} or {}", below + block) };
            self.problem(
                "transformer.dimensions",
                format!(
                    "dimensions {dims} must be a positive multiple of {block} (SIMD register blocks{}): e.g. {nearest}",
                    if block > TRANSFORMER_BLOCK { ", per pairwise half" } else { "" }
                ),
            );
        }
        let max = match spec.output {
            schema::TransformerOutput::ClippedReLU { max } | schema::TransformerOutput::Pairwise { max, .. } => max,
            schema::TransformerOutput::Accumulators => i32::from(i16::MAX),
        };
        if output == TransformerOutput::Accumulators {
            // The values pass unchanged: no clamp to check.
        } else if !(1..=i32::from(i16::MAX)).contains(&max) {
            self.problem(
                "transformer.output.max",
                format!("max {max} must lie in 1..={} (it clamps i16 lanes)", i16::MAX),
            );
        } else if !(1..=MAX_TRANSFORMED).contains(&top)
            || (top > MAX_ACTIVATION && !self.bullet && i8_reader(layers).is_some())
        {
            // Too large for a u8, or, in a Stockfish file (no i16 weights),
            // for the i8 weights of the layer reading it: the clamp is the
            // cause, and the message names a clamp that fits.
            let (path, message) = self.transformer_too_large(&spec.output, top, layers);
            self.problem(path, message);
        }
        self.transformer_top = top;
        for (field, ty) in [("bias", spec.bias), ("accumulator", spec.accumulator)] {
            if ty != IntType::I16 {
                self.problem(
                    format!("transformer.{field}"),
                    format!("a transformer {field} of type {ty:?} is not supported yet; use I16"),
                );
            }
        }
        if spec.psqt_buckets != 0 && spec.psqt_buckets != stacks {
            self.problem(
                "transformer.psqt_buckets",
                format!(
                    "{} PSQT buckets but {stacks} layer stacks: they share the bucket index, so use {stacks} (or 0)",
                    spec.psqt_buckets
                ),
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

    /// The problem of a transformer output stage whose largest value `top`
    /// exceeds a u8 (or the 127 of the i8 weights reading it in a Stockfish
    /// file), naming the values that fit.
    fn transformer_too_large(
        &self,
        output: &schema::TransformerOutput,
        top: i32,
        layers: &[LayerSpec],
    ) -> (&'static str, String) {
        let reader = i8_reader(layers);
        let limit = if reader.is_some() { MAX_ACTIVATION } else { MAX_TRANSFORMED };
        let why = match reader {
            Some(name) if top <= MAX_TRANSFORMED => {
                format!(
                    "`{name}` reads them with i8 weights, whose inputs must stay within {MAX_ACTIVATION} (u8 x i8 products are summed in pairs into i16 lanes)"
                )
            }
            Some(name) => format!(
                "the transformer's output is a u8 (at most {MAX_TRANSFORMED}), and `{name}` reads it with i8 weights, whose inputs must stay within {MAX_ACTIVATION}"
            ),
            None => format!("the transformer's output is a u8 (at most {MAX_TRANSFORMED})"),
        };
        match *output {
            schema::TransformerOutput::ClippedReLU { max } => {
                let screlu = layers.iter().find_map(|l| match l {
                    LayerSpec::SCReLU { name, input, max } if reference_name(input) == "transformer" => {
                        Some((name.as_str(), *max))
                    }
                    _ => None,
                });
                let larger = match screlu {
                    Some((name, m)) if m == max => format!(
                        "to clamp at {max}, write `output: Accumulators`: the i16 accumulators go to `{name}`, whose `SCReLU(max: {max})` clamps them itself (as in archs/bullet/akimbo.ron)"
                    ),
                    Some((name, _)) => format!(
                        "to clamp at {max}, write `output: Accumulators` and `max: {max}` in `{name}`, which then clamps the i16 accumulators itself (`SCReLU(max: {max})`, as in archs/bullet/akimbo.ron)"
                    ),
                    None => format!(
                        "to clamp at {max}, write `output: Accumulators` and let the first layer clamp the i16 accumulators, e.g. `SCReLU(name: \"screlu\", input: \"transformer\", max: {max})` (as in archs/bullet/akimbo.ron)"
                    ),
                };
                let fits = format!("or `ClippedReLU(max: {limit})` (a max in 1..={limit})");
                if top > MAX_TRANSFORMED {
                    (
                        "transformer.output.max",
                        format!("`ClippedReLU(max: {max})` outputs values up to {max}, but {why}: {larger}; {fits}"),
                    )
                } else {
                    (
                        "transformer.output.max",
                        format!(
                            "`ClippedReLU(max: {max})` outputs values up to {max}, but {why}: use `max: {limit}`, or i16 weights in a bullet file"
                        ),
                    )
                }
            }
            schema::TransformerOutput::Pairwise { max, divisor } => {
                // The smallest power-of-two divisor at least the given one
                // whose outputs fit and whose SIMD form is exact.
                let square = i64::from(max) * i64::from(max);
                let k0 = if divisor > 0 { divisor.trailing_zeros() } else { 0 };
                let fitting = (k0..=30).find(|&k| {
                    let exact = (k <= 16 && i64::from(max) << (16 - k) < 1 << 16) || square < 1 << 16;
                    square >> k <= i64::from(limit) && exact
                });
                // The largest max whose outputs fit with the given divisor.
                let fitting_max = (1..max)
                    .rev()
                    .find(|&m| i64::from(m) * i64::from(m) / i64::from(divisor.max(1)) <= i64::from(limit));
                let mut fixes = Vec::new();
                if let Some(k) = fitting {
                    fixes.push(format!("`divisor: {}` (largest output {})", 1i64 << k, square >> k));
                }
                if let Some(m) = fitting_max {
                    fixes.push(format!(
                        "`max: {m}` (largest output {})",
                        i64::from(m) * i64::from(m) / i64::from(divisor.max(1))
                    ));
                }
                let fixes = if fixes.is_empty() { String::new() } else { format!(": use {}", fixes.join(", or ")) };
                (
                    "transformer.output",
                    format!(
                        "`Pairwise(max: {max}, divisor: {divisor})` outputs values up to {max} * {max} / {divisor} = {top}, but {why}{fixes}"
                    ),
                )
            }
            schema::TransformerOutput::Accumulators => {
                ("transformer.output", format!("the transformer's outputs reach {top}"))
            }
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
                LayerSpec::Affine { input, outputs, sparse, weight, divisor, sum, biases, .. } => {
                    // A divisor belongs to i16 weights (`sum / divisor + bias`,
                    // bullet's output layers). With i8 weights (the default
                    // when `weight` is left out) the missing `weight: I16` is
                    // the mistake: it is reported alone, and the layer is
                    // checked as the i16 layer it was meant to be (its tensor
                    // types and i32 inputs are then right, not wrong).
                    let weight = &if *divisor != 1 && *weight == IntType::I8 {
                        self.problem(
                            format!("{at}.divisor"),
                            format!("`divisor: {divisor}` divides the sum of i16 weights (`sum / {divisor} + bias`), but `{name}` has i8 weights (`weight` is I8 by default): add `weight: I16` to `{name}`"),
                        );
                        IntType::I16
                    } else {
                        *weight
                    };
                    let wide = *weight == IntType::I16;
                    let float = *weight == IntType::F32;
                    let word = *weight == IntType::I32;
                    let slice = self.input(
                        &format!("{at}.input"),
                        input,
                        &layers,
                        transformer_outputs,
                        Reader::Affine(*weight),
                    );
                    if *outputs == 0 {
                        self.problem(format!("{at}.outputs"), "an affine layer needs at least one output");
                    }
                    if word && !self.bullet {
                        self.problem(
                            format!("{at}.weight"),
                            "layers with i32 weights are read from bullet-format files only (`file: (format: Bullet(...))`)",
                        );
                    }
                    match (float, sum) {
                        (true, None) => self.problem(
                            format!("{at}.weight"),
                            "F32 weights need the order of their sum, part of the result: `sum: Sequential` (the bias, then each input in order, product and sum rounded to f32)",
                        ),
                        (false, Some(_)) => self.problem(format!("{at}.sum"), "only F32 weights take a summation order (integer sums are exact)"),
                        (true, Some(schema::SumOrder::FusedLanes(lanes))) => {
                            let inputs = slice.map_or(0, |s| s.len);
                            if !lanes.is_power_of_two() || *lanes > 64 {
                                self.problem(
                                    format!("{at}.sum"),
                                    format!("`FusedLanes({lanes})`: the partial sums are halved pairwise, so their number must be a power of two in 1..=64"),
                                );
                            } else if inputs > 0 && !inputs.is_multiple_of(*lanes) {
                                self.problem(
                                    format!("{at}.sum"),
                                    format!("`FusedLanes({lanes})` needs a multiple of {lanes} inputs, and `{name}` reads {inputs}"),
                                );
                            }
                        }
                        _ => {}
                    }
                    if !*biases && (wide || float || word) {
                        self.problem(
                            format!("{at}.biases"),
                            "only an Affine with i8 weights can leave its biases out (`biases: false`)",
                        );
                    }
                    if *sparse && (wide || float || word) {
                        self.problem(format!("{at}.sparse"), "sparse input is only supported for i8 weights");
                    } else if *sparse && slice.is_some_and(|s| s.source != Source::Transformer) {
                        self.problem(
                            format!("{at}.sparse"),
                            "sparse input is only supported for a layer reading the transformer",
                        );
                    }
                    if *divisor != 1 && !wide {
                        if *weight != IntType::I8 {
                            self.problem(
                                format!("{at}.divisor"),
                                format!("a divisor before the bias is only supported with I16 weights, not {weight:?}"),
                            );
                        }
                    } else if *divisor <= 0 {
                        self.problem(format!("{at}.divisor"), format!("divisor {divisor} must be positive"));
                    }
                    // Outputs over 255 are the transformer's problem, and so
                    // are outputs over 127 in a Stockfish file (no i16
                    // weights there); both are reported there.
                    if !wide
                        && self.bullet
                        && (MAX_ACTIVATION + 1..=MAX_TRANSFORMED).contains(&self.transformer_top)
                        && slice.is_some_and(|s| s.source == Source::Transformer)
                    {
                        self.problem(
                            format!("{at}.input"),
                            format!(
                                "the transformer's outputs reach {}, but i8 weights read values up to {MAX_ACTIVATION}: add `weight: I16` to `{name}` (i16 weights read u8 values up to {MAX_TRANSFORMED}), or clamp the transformer at {MAX_ACTIVATION}",
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
                        } else if word {
                            LayerKind::I32Affine
                        } else {
                            LayerKind::Affine {
                                padded_inputs: len.div_ceil(AFFINE_PADDING).saturating_mul(AFFINE_PADDING),
                                sparse: *sparse,
                                biases: *biases,
                            }
                        },
                        inputs: slice.into_iter().collect(),
                        input_dimensions: len,
                        output_dimensions: *outputs,
                        output_type: if float { ValueType::F32 } else { ValueType::I32 },
                    }
                }
                LayerSpec::SCReLU { input, max, .. } => {
                    let slice = self.input(&format!("{at}.input"), input, &layers, transformer_outputs, Reader::SCReLU);
                    if !(1..=MAX_SCRELU).contains(max) {
                        self.problem(
                            format!("{at}.max"),
                            format!("max {max} must lie in 1..={MAX_SCRELU} (its square is an i32)"),
                        );
                    }
                    same_count(name, LayerKind::SCReLU { max: *max }, slice, ValueType::I32)
                }
                LayerSpec::CReLU { input, max, .. }
                | LayerSpec::ToFloat { input, divisor: max, .. }
                | LayerSpec::ToInt { input, multiply: max, .. }
                | LayerSpec::Dequantize { input, multiply: max, .. } => {
                    let (kind, reader, output_type, field) = match spec {
                        LayerSpec::CReLU { .. } => {
                            (LayerKind::CReLU { max: *max }, Reader::CReLU, ValueType::F32, "max")
                        }
                        LayerSpec::ToFloat { .. } => {
                            (LayerKind::ToFloat { divisor: *max }, Reader::ToFloat, ValueType::F32, "divisor")
                        }
                        LayerSpec::Dequantize { .. } => {
                            if !self.bullet {
                                self.problem(
                                    at.clone(),
                                    "`Dequantize` has f32 biases, which only bullet-format files hold",
                                );
                            }
                            (LayerKind::Dequantize { multiply: *max }, Reader::Dequantize, ValueType::F32, "multiply")
                        }
                        _ => (LayerKind::ToInt { multiply: *max }, Reader::ToInt, ValueType::I32, "multiply"),
                    };
                    let slice = self.input(&format!("{at}.input"), input, &layers, transformer_outputs, reader);
                    if !(max.is_finite() && *max > 0.0) {
                        self.problem(
                            format!("{at}.{field}"),
                            format!("{field} {max} must be a positive finite number"),
                        );
                    }
                    same_count(name, kind, slice, output_type)
                }
                LayerSpec::ClippedReLU { input, shift, max, .. }
                | LayerSpec::SqrClippedReLU { input, shift, max, .. } => {
                    let squared = matches!(spec, LayerSpec::SqrClippedReLU { .. });
                    let slice = self.input(
                        &format!("{at}.input"),
                        input,
                        &layers,
                        transformer_outputs,
                        Reader::ClippedReLU { squared },
                    );
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
                        kind: if squared {
                            LayerKind::SqrClippedReLU { shift, max }
                        } else {
                            LayerKind::ClippedReLU { shift, max }
                        },
                        inputs: slice.into_iter().collect(),
                        input_dimensions: len,
                        output_dimensions: len,
                        output_type: ValueType::U8,
                    }
                }
                LayerSpec::HardSwish { input, .. } => {
                    let slice =
                        self.input(&format!("{at}.input"), input, &layers, transformer_outputs, Reader::HardSwish);
                    same_count(name, LayerKind::HardSwish, slice, ValueType::F32)
                }
                LayerSpec::Multiply { inputs, .. } | LayerSpec::Add { inputs, .. } => {
                    let (op, reader) = match spec {
                        LayerSpec::Multiply { .. } => (ElementwiseOp::Multiply, Reader::Multiply),
                        _ => (ElementwiseOp::Add, Reader::Add),
                    };
                    if inputs.len() != 2 {
                        self.problem(
                            format!("{at}.inputs"),
                            format!("`{name}` combines exactly two inputs, not {}", inputs.len()),
                        );
                    }
                    let slices: Vec<Slice> = inputs
                        .iter()
                        .enumerate()
                        .filter_map(|(j, s)| {
                            self.input(&format!("{at}.inputs[{j}]"), s, &layers, transformer_outputs, reader)
                        })
                        .collect();
                    if let [a, b] = slices[..]
                        && a.len != b.len
                    {
                        self.problem(
                            format!("{at}.inputs"),
                            format!(
                                "`{name}` combines values one by one, but its inputs have {} and {} values",
                                a.len, b.len
                            ),
                        );
                    }
                    let output_type = self.one_type(&at, name, &slices, &layers).unwrap_or(ValueType::F32);
                    if op == ElementwiseOp::Multiply && output_type != ValueType::F32 {
                        self.problem(format!("{at}.inputs"), format!("`{name}` multiplies f32 values only"));
                    }
                    let len = slices.first().map_or(0, |s| s.len);
                    Layer {
                        name: name.to_owned(),
                        kind: LayerKind::Elementwise { op },
                        inputs: slices,
                        input_dimensions: len,
                        output_dimensions: len,
                        output_type,
                    }
                }
                LayerSpec::Concat { inputs, .. } => {
                    if inputs.len() < 2 {
                        self.problem(format!("{at}.inputs"), "a concatenation needs at least two inputs");
                    }
                    let slices: Vec<Slice> = inputs
                        .iter()
                        .enumerate()
                        .filter_map(|(j, s)| {
                            self.input(&format!("{at}.inputs[{j}]"), s, &layers, transformer_outputs, Reader::Concat)
                        })
                        .collect();
                    let output_type = self.one_type(&at, name, &slices, &layers).unwrap_or(ValueType::U8);
                    let len = slices.iter().fold(0usize, |sum, s| sum.saturating_add(s.len));
                    Layer {
                        name: name.to_owned(),
                        kind: LayerKind::Concat,
                        inputs: slices,
                        input_dimensions: len,
                        output_dimensions: len,
                        output_type,
                    }
                }
                LayerSpec::Clamp { input, .. }
                | LayerSpec::ShiftRight { input, .. }
                | LayerSpec::ShiftLeft { input, .. }
                | LayerSpec::Square { input, .. }
                | LayerSpec::Bias { input, .. } => {
                    let kind = match *spec {
                        LayerSpec::Clamp { min, max, .. } => {
                            if min > max {
                                self.problem(format!("{at}.min"), format!("min {min} is above max {max}"));
                            }
                            LayerKind::Integer { op: IntegerOp::Clamp { min, max } }
                        }
                        LayerSpec::ShiftRight { by, .. } | LayerSpec::ShiftLeft { by, .. } => {
                            if by > 31 {
                                self.problem(format!("{at}.by"), format!("an i32 is shifted by at most 31, not {by}"));
                            }
                            let op = if matches!(spec, LayerSpec::ShiftRight { .. }) {
                                IntegerOp::ShiftRight(by.min(31))
                            } else {
                                IntegerOp::ShiftLeft(by.min(31))
                            };
                            LayerKind::Integer { op }
                        }
                        LayerSpec::Square { .. } => LayerKind::Integer { op: IntegerOp::Square },
                        _ => {
                            if !self.bullet {
                                self.problem(
                                    at.clone(),
                                    "`Bias` has biases of its own, which only bullet-format files hold",
                                );
                            }
                            LayerKind::Bias
                        }
                    };
                    let reader = Reader::Integer(kind_name(&kind));
                    let slice = self.input(&format!("{at}.input"), input, &layers, transformer_outputs, reader);
                    same_count(name, kind, slice, ValueType::I32)
                }
            };
            self.broken.push(
                (layer.inputs.is_empty() && self.problems.len() > problems_before) || layer.output_dimensions == 0,
            );
            layers.push(layer);
        }
        layers
    }

    /// The one type of the values of several slices (a layer joining them
    /// value by value or one after the other); a problem if they differ.
    fn one_type(&mut self, at: &str, name: &str, slices: &[Slice], layers: &[Layer]) -> Option<ValueType> {
        let types: Vec<ValueType> = slices
            .iter()
            .map(|s| match s.source {
                Source::Transformer => self.transformer_type,
                Source::Layer(i) => layers[i].output_type,
            })
            .collect();
        let first = *types.first()?;
        if let Some(j) = types.iter().position(|&t| t != first) {
            let (producer, source) = match slices[j].source {
                Source::Transformer => ("`transformer`".to_owned(), "transformer"),
                Source::Layer(i) => {
                    (format!("`{}` ({})", layers[i].name, kind_name(&layers[i].kind)), layers[i].name.as_str())
                }
            };
            let mut message = format!(
                "{producer} produces {} values, but the first input of `{name}` holds {} values: its inputs hold one type",
                type_name(types[j]),
                type_name(first)
            );
            if (first, types[j]) == (ValueType::U8, ValueType::I32) {
                message += &format!(": activate them first, e.g. `ClippedReLU(name: \"ac\", input: \"{source}\")`");
            }
            self.problem(format!("{at}.inputs[{j}]"), message);
        }
        Some(first)
    }

    /// Resolves a reference such as `fc_0`, `fc_0[0..15]` or `fc_0[15]`
    /// against the layers defined so far.
    fn input(
        &mut self,
        path: &str,
        reference: &str,
        layers: &[Layer],
        transformer_outputs: usize,
        reader: Reader,
    ) -> Option<Slice> {
        let Some((name, range)) = parse_reference(reference) else {
            self.problem(
                path,
                format!("`{reference}` is not a reference: write `name`, `name[start..end]` or `name[index]`"),
            );
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
            let known: Vec<&str> =
                std::iter::once("transformer").chain(layers.iter().map(|l| l.name.as_str())).collect();
            let message = if self.all_names.iter().any(|n| n == name) {
                format!(
                    "`{name}` is defined after this layer: a layer reads `transformer` or an earlier layer ({})",
                    known.join(", ")
                )
            } else if let Some(near) = closest(name, &known) {
                format!(
                    "unknown input `{name}`: did you mean `{near}`? (a layer reads `transformer` or an earlier layer: {})",
                    known.join(", ")
                )
            } else {
                format!(
                    "unknown input `{name}`: a layer reads `transformer` or an earlier layer ({})",
                    known.join(", ")
                )
            };
            self.problem(path, message);
            return None;
        };
        let (start, end) = range.unwrap_or((0, len));
        if start >= end || end > len {
            self.problem(path, format!("`{reference}` selects {start}..{end}, but `{name}` has {len} values"));
            return None;
        }
        if !reader.accepted().contains(&ty) {
            let kind = match source {
                Source::Transformer => None,
                Source::Layer(i) => Some(&layers[i].kind),
            };
            let producer = match kind {
                None if ty == ValueType::I16 => "`transformer` (`output: Accumulators`)".to_owned(),
                None => "`transformer`".to_owned(),
                Some(kind) => format!("`{name}` ({})", kind_name(kind)),
            };
            let mut message = format!("{producer} produces {} values, but {}", type_name(ty), reader.describe());
            // The reading layer's name, from the path `layers[i]...`.
            let index =
                path.strip_prefix("layers[").and_then(|p| p.split(']').next()).and_then(|i| i.parse::<usize>().ok());
            let reading = index.and_then(|i| self.all_names.get(i)).map_or("this layer", String::as_str);
            if let Some(hint) = reader.hint(ty, kind, name, reading) {
                message = format!("{message}: {hint}");
            }
            self.problem(path, message);
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
        let rescale = spec.rescale.map(|r| Rescale { multiply: r.multiply, divide: r.divide, width: r.width });
        if let Some(b) = spec.clamp
            && b.min > b.max
        {
            self.problem("output.clamp", format!("min {} is above max {}", b.min, b.max));
        }
        let clamp = spec.clamp.map(|b| (b.min, b.max));
        Some(Output { value: value?, rescale, forward, scale: spec.scale, eval: spec.eval, clamp })
    }

    /// Resolves a sum of values of affine layers: `a`, or `a + b - c` (the
    /// signs between spaces).
    fn sum(&mut self, path: &str, text: &str, layers: &[Layer]) -> Option<Vec<Term>> {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let well_formed =
            tokens.len() % 2 == 1 && tokens.iter().enumerate().all(|(i, t)| (i % 2 == 1) == matches!(*t, "+" | "-"));
        if !well_formed {
            self.problem(
                path,
                format!("`{text}` is not a sum of references: write `a`, or `a + b - c` with spaces around the signs"),
            );
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
                let names: Vec<&str> = layers.iter().map(|l| l.name.as_str()).collect();
                let near = closest(name, &names).map_or(String::new(), |near| format!(" (did you mean `{near}`?)"));
                self.problem(path, format!("unknown layer `{name}`{near}: {expected}"));
                return None;
            }
            Some(i) if layers[i].output_type != ValueType::I32 => {
                self.problem(path, format!("`{name}` is an activation (u8 values): {expected}"));
                return None;
            }
            Some(_) => {}
        }
        let slice = self.input(path, reference, layers, 0, Reader::Output)?;
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
        let (tensors, pad_to, compression, header) = match &file.format {
            schema::FileFormat::Stockfish => {
                if file.version.is_none() {
                    self.problem(
                        "file",
                        "a Stockfish-format file starts with a version word: add `version: <the u32 at offset 0 of the net>` to `file`: 0x7AF32F20 for Stockfish 14 to 18, 0x6A448AFA for 19, 0x7AF32F16 for 12 (or `format: Bullet(...)` for a bullet net, which has no header)",
                    );
                }
                if let Some(i) = layers
                    .iter()
                    .position(|l| matches!(l.kind, LayerKind::WideAffine { .. } | LayerKind::FloatAffine { .. }))
                {
                    self.problem(format!("layers[{i}].weight"), "layers with i16 or f32 weights are read from bullet-format files only (`file: (format: Bullet(...))`)");
                }
                return FileFormat::Stockfish;
            }
            schema::FileFormat::Bullet { tensors, pad_to, compression, header } => {
                (tensors, *pad_to, *compression, *header)
            }
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
        if header.is_some() {
            let buckets = features.iter().find_map(|f| f.layout.as_ref()).map_or(1, |l| l.buckets);
            let fields = [
                ("transformer.dimensions", "hidden size", transformer.dimensions, usize::from(u16::MAX)),
                ("features", "king buckets", buckets, 127),
                ("layer_stacks.count", "output buckets", stacks, usize::from(u8::MAX)),
            ];
            for (path, what, value, most) in fields {
                if value > most {
                    self.problem(path, format!("a CBNF header holds at most {most} {what}, not {value}"));
                }
            }
        }
        if header.is_some() && compression != schema::Compression::None {
            self.problem(
                "file.format.compression",
                "the CBNF header's flag says whether the rest of the file is zstd-compressed: remove `compression`",
            );
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
            let set_tensors = || -> Vec<String> {
                features.iter().map(|f| format!("`transformer.{}.weights`", feature_sets::name(f.kind))).collect()
            };
            let param = match t.tensor.split_once('.') {
                Some(("transformer", "weights")) if features.len() > 1 => {
                    self.problem(
                        format!("{at}.tensor"),
                        format!(
                            "with several feature sets each has its rows in a tensor of its own: {}",
                            set_tensors().join(", ")
                        ),
                    );
                    None
                }
                Some(("transformer", "weights")) => Some(Param::TransformerWeights),
                Some(("transformer", "biases")) => Some(Param::TransformerBiases),
                Some(("transformer", set)) if set.ends_with(".weights") => {
                    let set = set.trim_end_matches(".weights");
                    match features.iter().position(|f| feature_sets::name(f.kind) == set) {
                        Some(_) if features.len() == 1 => {
                            self.problem(
                                format!("{at}.tensor"),
                                "with one feature set its rows are `transformer.weights`",
                            );
                            None
                        }
                        Some(n) => Some(Param::SetWeights(n)),
                        None => {
                            self.problem(
                                format!("{at}.tensor"),
                                format!(
                                    "`{set}` is not a feature set of this net: the sets' tensors are {}",
                                    set_tensors().join(", ")
                                ),
                            );
                            None
                        }
                    }
                }
                Some((layer, part @ ("weights" | "biases"))) => match layers.iter().position(|l| l.name == layer) {
                    Some(j) if part == "weights" && layers[j].kind.is_affine() => Some(Param::Weights(j)),
                    Some(j) if part == "biases" && layers[j].kind.stores_biases() => Some(Param::Biases(j)),
                    Some(j) if layers[j].kind.has_params() => {
                        let why = if part == "weights" {
                            format!("`{layer}` has biases only")
                        } else {
                            format!("`{layer}` has `biases: false`")
                        };
                        self.problem(
                            format!("{at}.tensor"),
                            format!("`{}` is not a tensor of this net: {why}", t.tensor),
                        );
                        None
                    }
                    Some(_) => {
                        self.problem(
                            format!("{at}.tensor"),
                            format!("layer `{layer}` has no parameters: only affine layers have weights and biases, and `Dequantize` biases"),
                        );
                        None
                    }
                    None => {
                        let names: Vec<&str> =
                            layers.iter().filter(|l| l.kind.is_affine()).map(|l| l.name.as_str()).collect();
                        let near = closest(layer, &names)
                            .map_or(String::new(), |near| format!(": did you mean `{near}.{part}`?"));
                        self.problem(
                            format!("{at}.tensor"),
                            format!("unknown layer `{layer}`{near} (the affine layers are {})", names.join(", ")),
                        );
                        None
                    }
                },
                _ => {
                    let mut tensors = vec!["transformer.weights".to_owned(), "transformer.biases".to_owned()];
                    for l in layers.iter().filter(|l| l.kind.is_affine()) {
                        tensors.extend([format!("{}.weights", l.name), format!("{}.biases", l.name)]);
                    }
                    let names: Vec<&str> = tensors.iter().map(String::as_str).collect();
                    let near =
                        closest(&t.tensor, &names).map_or(String::new(), |near| format!("did you mean `{near}`? "));
                    self.problem(
                        format!("{at}.tensor"),
                        format!("`{}` is not a tensor: {near}write `transformer.weights`, `transformer.biases`, `<layer>.weights` or `<layer>.biases`", t.tensor),
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
                    let allowed: &[IntType] =
                        if weight == IntType::I8 { &[IntType::I8] } else { &[IntType::I8, IntType::I16] };
                    (
                        allowed,
                        features.iter().map(|f| f.dimensions).sum::<usize>().saturating_mul(transformer.dimensions),
                    )
                }
                Param::SetWeights(n) => {
                    let allowed: &[IntType] =
                        if features[n].weight == IntType::I8 { &[IntType::I8] } else { &[IntType::I8, IntType::I16] };
                    (allowed, features[n].dimensions.saturating_mul(transformer.dimensions))
                }
                Param::TransformerBiases => (&[IntType::I8, IntType::I16], transformer.dimensions),
                Param::Weights(j) => {
                    let allowed: &[IntType] = match layers[j].kind {
                        LayerKind::WideAffine { .. } => &[IntType::I8, IntType::I16],
                        LayerKind::I32Affine => &[IntType::I8, IntType::I16, IntType::I32],
                        LayerKind::FloatAffine { .. } => &[IntType::F32],
                        _ => &[IntType::I8],
                    };
                    (
                        allowed,
                        stacks.saturating_mul(layers[j].output_dimensions).saturating_mul(layers[j].input_dimensions),
                    )
                }
                Param::Biases(j) => {
                    let allowed: &[IntType] = match layers[j].kind {
                        LayerKind::FloatAffine { .. } | LayerKind::Dequantize { .. } => &[IntType::F32],
                        _ => &[IntType::I8, IntType::I16, IntType::I32],
                    };
                    (allowed, stacks.saturating_mul(layers[j].output_dimensions))
                }
            };
            if !allowed.contains(&t.ty) {
                let names: Vec<String> = allowed.iter().map(|t| format!("{t:?}")).collect();
                // A layer's weights of a type its layer does not have: the
                // layer's `weight` is as likely the mistake as the tensor's.
                let layer_fix = match param {
                    Param::TransformerWeights if t.ty == IntType::I16 => Some(
                        "the feature set has `weight: I8`: store the tensor as I8, or remove `weight: I8` from the feature set (I16 by default)"
                            .to_owned(),
                    ),
                    Param::Weights(j) if matches!(layers[j].kind, LayerKind::Affine { .. }) && t.ty == IntType::I16 => {
                        Some(format!("`{}` has i8 weights: add `weight: I16` to `{}`, or store the tensor as I8", layers[j].name, layers[j].name))
                    }
                    Param::Weights(j) if !matches!(layers[j].kind, LayerKind::FloatAffine { .. }) && t.ty == IntType::F32 => Some(format!(
                        "`{}` has integer weights: for f32 weights add `weight: F32, sum: Sequential` to `{}`, or store the tensor as {}",
                        layers[j].name,
                        layers[j].name,
                        names.join(" or ")
                    )),
                    _ => None,
                };
                match layer_fix {
                    Some(fix) => self.problem(format!("{at}.type"), format!("`{}` is {:?}, but {fix}", t.tensor, t.ty)),
                    None => self.problem(
                        format!("{at}.type"),
                        format!("`{}` cannot be stored as {:?}: use {}", t.tensor, t.ty, names.join(" or ")),
                    ),
                }
            }
            if t.layout.is_some() && !matches!(param, Param::Weights(_)) {
                self.problem(format!("{at}.layout"), "only a layer's weights have a layout");
            }
            if let (Some(schema::TensorLayout::Stacked(schema::StackOrder::InputBlocks(n))), Param::Weights(j)) =
                (t.layout, param)
            {
                let inputs = layers[j].input_dimensions;
                if n == 0 || (inputs > 0 && !inputs.is_multiple_of(n)) {
                    self.problem(
                        format!("{at}.layout"),
                        format!("`InputBlocks({n})` cuts the inputs into blocks of {n}, and `{}` reads {inputs}: use a divisor of {inputs}", layers[j].name),
                    );
                }
            }
            resolved.push(Tensor { param, ty: t.ty, layout: t.layout.unwrap_or_default(), len });
        }
        let mut wanted = if features.len() == 1 {
            vec![Param::TransformerWeights]
        } else {
            (0..features.len()).map(Param::SetWeights).collect()
        };
        wanted.push(Param::TransformerBiases);
        for (j, layer) in layers.iter().enumerate() {
            if layer.kind.is_affine() {
                wanted.push(Param::Weights(j));
            }
            if layer.kind.stores_biases() {
                wanted.push(Param::Biases(j));
            }
        }
        for param in wanted {
            if !unresolved && !resolved.iter().any(|r| r.param == param) {
                let name = match param {
                    Param::TransformerWeights => "transformer.weights".to_owned(),
                    Param::SetWeights(n) => format!("transformer.{}.weights", feature_sets::name(features[n].kind)),
                    Param::TransformerBiases => "transformer.biases".to_owned(),
                    Param::Weights(j) => format!("{}.weights", layers[j].name),
                    Param::Biases(j) => format!("{}.biases", layers[j].name),
                };
                self.problem(
                    "file.format.tensors",
                    format!("`{name}` is missing: list every parameter of the net once"),
                );
            }
        }
        FileFormat::Bullet { tensors: resolved, pad_to, compression, header }
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

/// A layer of one input whose output has as many values as it reads.
fn same_count(name: &str, kind: LayerKind, slice: Option<Slice>, output_type: ValueType) -> Layer {
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

/// The name a reference reads (`fc_0` of `fc_0[0..15]`).
fn reference_name(reference: &str) -> &str {
    reference.split('[').next().unwrap_or(reference).trim()
}

/// The first layer reading the transformer with i8 weights (an `Affine`
/// with the default weight type and no divisor, which would make it i16).
fn i8_reader(layers: &[LayerSpec]) -> Option<&str> {
    layers.iter().find_map(|l| match l {
        LayerSpec::Affine { name, input, weight: IntType::I8, divisor: 1, .. }
            if reference_name(input) == "transformer" =>
        {
            Some(name.as_str())
        }
        _ => None,
    })
}

fn layer_name(spec: &LayerSpec) -> &str {
    match spec {
        LayerSpec::Affine { name, .. }
        | LayerSpec::SCReLU { name, .. }
        | LayerSpec::CReLU { name, .. }
        | LayerSpec::ToFloat { name, .. }
        | LayerSpec::ToInt { name, .. }
        | LayerSpec::Dequantize { name, .. }
        | LayerSpec::HardSwish { name, .. }
        | LayerSpec::Multiply { name, .. }
        | LayerSpec::Add { name, .. }
        | LayerSpec::ClippedReLU { name, .. }
        | LayerSpec::SqrClippedReLU { name, .. }
        | LayerSpec::Concat { name, .. }
        | LayerSpec::Clamp { name, .. }
        | LayerSpec::ShiftRight { name, .. }
        | LayerSpec::ShiftLeft { name, .. }
        | LayerSpec::Square { name, .. }
        | LayerSpec::Bias { name, .. } => name,
    }
}

fn type_name(ty: ValueType) -> &'static str {
    match ty {
        ValueType::U8 => "u8",
        ValueType::I32 => "i32",
        ValueType::I16 => "i16",
        ValueType::F32 => "f32",
    }
}

/// The name of a layer's kind in the file.
fn kind_name(kind: &LayerKind) -> &'static str {
    match kind {
        LayerKind::Affine { .. } => "Affine",
        LayerKind::WideAffine { .. } => "Affine with i16 weights",
        LayerKind::FloatAffine { .. } => "Affine with f32 weights",
        LayerKind::SCReLU { .. } => "SCReLU",
        LayerKind::CReLU { .. } => "CReLU",
        LayerKind::ToFloat { .. } => "ToFloat",
        LayerKind::ToInt { .. } => "ToInt",
        LayerKind::Dequantize { .. } => "Dequantize",
        LayerKind::HardSwish => "HardSwish",
        LayerKind::Elementwise { op: ElementwiseOp::Multiply } => "Multiply",
        LayerKind::Elementwise { op: ElementwiseOp::Add } => "Add",
        LayerKind::ClippedReLU { .. } => "ClippedReLU",
        LayerKind::SqrClippedReLU { .. } => "SqrClippedReLU",
        LayerKind::Concat => "Concat",
        LayerKind::Integer { op: IntegerOp::Clamp { .. } } => "Clamp",
        LayerKind::Integer { op: IntegerOp::ShiftRight(_) } => "ShiftRight",
        LayerKind::Integer { op: IntegerOp::ShiftLeft(_) } => "ShiftLeft",
        LayerKind::Integer { op: IntegerOp::Square } => "Square",
        LayerKind::Bias => "Bias",
        LayerKind::I32Affine => "Affine with i32 weights",
    }
}

/// What reads a reference: the value types it takes, and how a reference
/// of another type is put right.
#[derive(Debug, Clone, Copy)]
enum Reader {
    Affine(IntType),
    SCReLU,
    ToFloat,
    CReLU,
    ToInt,
    Dequantize,
    HardSwish,
    Multiply,
    Add,
    ClippedReLU {
        squared: bool,
    },
    Concat,
    /// Clamp, ShiftRight, ShiftLeft, Square and Bias (its name).
    Integer(&'static str),
    /// `output.value` and `output.forward.input`.
    Output,
}

impl Reader {
    fn accepted(self) -> &'static [ValueType] {
        match self {
            Reader::Affine(IntType::I16) => &[ValueType::U8, ValueType::I32],
            Reader::Affine(IntType::I32) | Reader::Integer(_) => &[ValueType::I32],
            Reader::Affine(IntType::F32) | Reader::CReLU | Reader::ToInt | Reader::HardSwish | Reader::Multiply => {
                &[ValueType::F32]
            }
            Reader::Add => &[ValueType::F32, ValueType::I32],
            Reader::Concat => &[ValueType::U8, ValueType::I32],
            Reader::Affine(_) => &[ValueType::U8],
            Reader::SCReLU | Reader::ToFloat => &[ValueType::U8, ValueType::I16, ValueType::I32],
            Reader::ClippedReLU { .. } | Reader::Dequantize | Reader::Output => &[ValueType::I32],
        }
    }

    /// "an Affine with i8 weights reads u8 values".
    fn describe(self) -> String {
        let what = match self {
            Reader::Affine(IntType::I16) => "an Affine with i16 weights",
            Reader::Affine(IntType::F32) => "an Affine with f32 weights",
            Reader::Affine(IntType::I32) => "an Affine with i32 weights",
            Reader::Affine(_) => "an Affine with i8 weights",
            Reader::SCReLU => "SCReLU",
            Reader::ToFloat => "ToFloat",
            Reader::CReLU => "CReLU",
            Reader::ToInt => "ToInt",
            Reader::Dequantize => "Dequantize",
            Reader::HardSwish => "HardSwish",
            Reader::Multiply => "Multiply",
            Reader::Add => "Add",
            Reader::ClippedReLU { squared: false } => "ClippedReLU",
            Reader::ClippedReLU { squared: true } => "SqrClippedReLU",
            Reader::Concat => "Concat",
            Reader::Integer(name) => name,
            Reader::Output => "the output",
        };
        let types: Vec<&str> = self.accepted().iter().map(|&t| type_name(t)).collect();
        format!("{what} reads {} values", types.join(" or "))
    }

    /// How `reading` (a layer's name) reads values of type `ty` produced
    /// by `source` (a layer of this kind, or the transformer when `None`).
    fn hint(self, ty: ValueType, kind: Option<&LayerKind>, source: &str, reading: &str) -> Option<String> {
        let integer = matches!(ty, ValueType::U8 | ValueType::I16 | ValueType::I32);
        Some(match (self, ty) {
            (Reader::Affine(IntType::I8), ValueType::I32) => match kind {
                Some(LayerKind::SCReLU { .. } | LayerKind::ToInt { .. }) => {
                    format!("add `weight: I16` to `{reading}` (i16 weights read i32 values; bullet files)")
                }
                _ => format!("put an activation between them, e.g. `ClippedReLU(name: \"ac\", input: \"{source}\")`"),
            },
            (Reader::Affine(IntType::I8 | IntType::I16) | Reader::Concat, ValueType::I16) | (Reader::ClippedReLU { .. }, ValueType::I16) => {
                "activate the accumulators first: an `SCReLU(max: ..)` layer reading `transformer`, or a clamp in the transformer (`output: ClippedReLU(max: ..)`)".to_owned()
            }
            (Reader::Affine(IntType::I8 | IntType::I16) | Reader::Concat | Reader::ClippedReLU { .. } | Reader::SCReLU | Reader::ToFloat, ValueType::F32) => {
                "f32 values are read by CReLU, ToInt and `Affine(.., weight: F32, sum: Sequential)`".to_owned()
            }
            (
                Reader::Affine(IntType::F32) | Reader::CReLU | Reader::ToInt | Reader::HardSwish | Reader::Multiply | Reader::Add,
                _,
            ) if integer => {
                format!("turn them into f32 first, e.g. `ToFloat(name: \"{source}_f\", input: \"{source}\", divisor: 1.0)`")
            }
            (Reader::ClippedReLU { .. }, ValueType::U8) => "it clamps the i32 sums of an Affine layer".to_owned(),
            _ => return None,
        })
    }
}

/// The candidate closest to a misspelt `name` (at most two edits: an
/// insertion, a deletion, a substitution or a swap of neighbours), if any
/// is close and shorter edits leave no tie.
pub(crate) fn closest<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let distance = |a: &str, b: &str| -> usize {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in d[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                d[i][j] = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
                }
            }
        }
        d[a.len()][b.len()]
    };
    let limit = if name.chars().count() <= 3 { 1 } else { 2 };
    let mut scored: Vec<(usize, &str)> =
        candidates.iter().map(|&c| (distance(name, c), c)).filter(|&(d, _)| d <= limit).collect();
    scored.sort();
    match scored.as_slice() {
        [(d, best), rest @ ..] if rest.first().is_none_or(|(e, _)| e > d) => Some(best),
        _ => None,
    }
}

fn is_identifier(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
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
