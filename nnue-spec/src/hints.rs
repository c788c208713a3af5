//! Messages for the errors `ron` reports (syntax, missing and unknown
//! fields, unknown variants, wrong value types) that name the fix: the
//! file's own names instead of the schema's Rust types, the value a missing
//! field would take, the field or variant a misspelling meant, and the place
//! of a forgotten comma.

use crate::source_map::LineCol;
use ron::error::Error;

/// The message (and place) for `code`, which `ron` reported at `at`.
pub fn ron_error(source: &str, code: &Error, at: LineCol) -> (LineCol, String) {
    let text = text_at(source, at);
    match code {
        Error::MissingStructField { field, outer } => {
            let outer = outer.as_deref().unwrap_or("");
            let hint = missing_field(outer, field);
            (at, format!("{} has no `{field}`: add {hint}", struct_name(outer)))
        }
        Error::NoSuchStructField { expected, found, outer } => {
            let outer = outer.as_deref().unwrap_or("");
            let mut message = format!("{} has no field `{found}`", struct_name(outer));
            if let Some(near) = closest_ignoring_case(found, expected) {
                message += &format!(": did you mean `{near}`?");
            } else {
                let owners: Vec<&str> = owners_of(found).into_iter().filter(|o| *o != outer).collect();
                if owners.contains(&"Network") {
                    message += &format!(
                        ": `{found}` is a field of `Network(...)`; is the `)` closing {} missing before it?",
                        struct_name(outer)
                    );
                } else if !owners.is_empty() {
                    let names: Vec<String> = owners.iter().map(|o| struct_name(o)).collect();
                    message += &format!(": `{found}` is a field of {}; move it there", names.join(" or "));
                }
            }
            (at, format!("{message} (its fields: {})", quoted(expected)))
        }
        Error::NoSuchEnumVariant { expected, found, outer } => {
            let outer = outer.as_deref().unwrap_or("");
            let near = closest_ignoring_case(found, expected)
                .map_or(String::new(), |near| format!(": did you mean `{near}`?"));
            (at, format!("unknown {} `{found}`{near} (one of {})", enum_name(outer), quoted(expected)))
        }
        Error::DuplicateStructField { field, outer } => {
            (at, format!("`{field}` is given twice in {}", struct_name(outer.as_deref().unwrap_or(""))))
        }
        Error::ExpectedComma => {
            let before = source[..offset(source, at)].chars().next_back();
            match (before, text.chars().next()) {
                // `[0; 64]`: Rust's repeat expression.
                (_, Some(';')) if innermost_open(&source[..offset(source, at)]).is_some_and(|(_, c)| c == '[') => {
                    let list = innermost_open(&source[..offset(source, at)]).map_or(0, |(i, _)| i);
                    let key = key_before_offset(source, list).unwrap_or("the list");
                    let none = if key == "king_buckets" { " (or `king_buckets: None` for one bucket)" } else { "" };
                    (at, format!("RON has no `[value; count]`: write the entries of `{key}` out one by one{none}"))
                }
                (_, Some(';')) => (at, "RON separates fields and list entries with commas, not `;`".to_owned()),
                // A string whose closing quote is missing runs on to the next
                // quote, on a later line.
                (Some('"'), _) if unclosed_string(source, offset(source, at)).is_some() => {
                    let start = unclosed_string(source, offset(source, at)).unwrap_or_default();
                    let line = source[..start].matches('\n').count() + 1;
                    let col = source[..start].rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
                    (
                        LineCol { line, col },
                        "this string runs on to the next line: is its closing `\"` missing?".to_owned(),
                    )
                }
                // `3072.0` where an integer is expected.
                (Some(b), Some('.')) if b.is_ascii_digit() => {
                    let word_start = source[..offset(source, at)].trim_end_matches(|c: char| c.is_ascii_digit()).len();
                    let number = &source[word_start..offset(source, at)];
                    let key = key_before_offset(source, word_start).unwrap_or("this value");
                    (at, format!("`{key}` is an integer: write `{number}`, without a fraction"))
                }
                // `0x7AF32G16`: the number ended at a character that cannot
                // continue it.
                (Some(b), Some(c)) if is_word(b) && is_word(c) => {
                    let start = source[..offset(source, at)].trim_end_matches(is_word);
                    let word_start = start.len();
                    let word_end = word_start
                        + source[word_start..].find(|c: char| !is_word(c)).unwrap_or(source.len() - word_start);
                    let word = &source[word_start..word_end];
                    let head = &source[word_start..offset(source, at)];
                    (
                        at,
                        format!(
                            "`{word}` is not one value: it reads as `{head}` followed by `{}` (a digit this number cannot have?)",
                            &word[head.len()..]
                        ),
                    )
                }
                // On a later line than the value it should follow: the
                // comma is missing at the end of that value.
                _ => match end_of_previous_value(source, at) {
                    Some(end) if end.line < at.line => (end, "expected a comma after this value".to_owned()),
                    _ => (at, "expected a comma before this".to_owned()),
                },
            }
        }
        Error::ExpectedOption => {
            let key = key_before(source, at).unwrap_or("this field");
            (
                at,
                format!(
                    "`{key}` is optional: write its value inside `Some(...)`, e.g. `{key}: Some({})` (or start the file with `#![enable(implicit_some)]`)",
                    value_text(text)
                ),
            )
        }
        _ if text.starts_with("Some(") => {
            let key = key_before(source, at).unwrap_or("this field");
            let inner = value_text(&text[5..]);
            (
                at,
                format!("`{key}` is written without `Some`: `{key}: {inner}` ({})", lowercase_first(&code.to_string())),
            )
        }
        Error::ExpectedInteger | Error::ExpectedFloat | Error::ExpectedBoolean if text.starts_with('"') => {
            let key = key_before(source, at).unwrap_or("this field");
            let inner = value_text(text);
            let what = if matches!(code, Error::ExpectedBoolean) { "`true` or `false`" } else { "a number" };
            (at, format!("`{key}` is {what}, not a string: write `{key}: {}`", inner.trim_matches('"')))
        }
        // `PieceCount(4)`, `Affine("fc_0", ..)`: fields are named.
        Error::InvalidIdentifier(_) | Error::SuggestRawIdentifier(_) | Error::ExpectedIdentifier
            if positional(source, at).is_some() =>
        {
            let variant = positional(source, at).unwrap_or_default();
            let value = value_text(text);
            let example = match FIELDS.iter().find(|(name, _)| *name == variant) {
                Some((_, fields)) => format!("`{variant}({}: {value}, ..)`; its fields: {}", fields[0], quoted(fields)),
                None => format!("`{variant}(<field>: {value}, ..)`"),
            };
            (at, format!("the fields of `{variant}(...)` are written with their names: {example}"))
        }
        // `file: (hash: 0x...)`: the file's hash is the scheme; a hash word
        // belongs to a feature set.
        Error::InvalidIdentifier(_) | Error::SuggestRawIdentifier(_) | Error::ExpectedIdentifier
            if key_before(source, at) == Some("hash") =>
        {
            let value = value_text(text);
            (
                at,
                format!(
                    "`file.hash` is how hash words are computed (`Stockfish` or `StockfishAllSets`); a feature set's hash word is written on the set: `features: [(set: .., hash: {value})]`"
                ),
            )
        }
        Error::ExpectedDifferentStructName { expected, found } => match *expected {
            "Network" => (at, format!("a file is one `Network(...)`, not `{found}(...)`")),
            "FeatureSpec" => (at, format!("a feature set is written `(set: ..)`, not `{found}`: `(set: {found})`")),
            _ => (at, format!("expected `(...)` for {}, found `{found}`", struct_name(expected))),
        },
        Error::ExpectedString if text.starts_with(is_word) => {
            let key = key_before(source, at).unwrap_or("this field");
            let word: String = text.chars().take_while(|&c| is_word(c)).collect();
            (at, format!("`{key}` is a string: write `{key}: \"{word}\"`"))
        }
        _ => (at, code.to_string()),
    }
}

/// The candidate closest to `found` when case is ignored (`i16` -> `I16`,
/// `LEB128` -> `Leb128`), or within two edits.
fn closest_ignoring_case(found: &str, expected: &[&'static str]) -> Option<&'static str> {
    if let Some(same) = expected.iter().find(|e| e.eq_ignore_ascii_case(found)) {
        return Some(same);
    }
    let lower: Vec<String> = expected.iter().map(|e| e.to_ascii_lowercase()).collect();
    let candidates: Vec<&str> = lower.iter().map(String::as_str).collect();
    let near = crate::validate::closest(&found.to_ascii_lowercase(), &candidates)?;
    expected.iter().copied().find(|e| e.eq_ignore_ascii_case(near))
}

/// The schema structs that have a field `field` (for the "is a field of"
/// hint).
fn owners_of(field: &str) -> Vec<&'static str> {
    FIELDS.iter().filter(|(_, fields)| fields.contains(&field)).map(|(owner, _)| *owner).collect()
}

/// The fields of the schema's structs, by Rust name; top-level first.
const FIELDS: &[(&str, &[&str])] = &[
    ("Network", &["name", "description", "file", "features", "transformer", "layer_stacks", "layers", "output"]),
    ("FileSpec", &["format", "version", "hash", "transformer_encoding", "psqt_weights"]),
    ("FeatureSpec", &["set", "weight", "encoding", "hash", "targets", "layout"]),
    ("PieceSquareSpec", &["king_buckets", "mirror", "planes", "merged_kings"]),
    ("TransformerSpec", &["dimensions", "bias", "accumulator", "psqt_buckets", "load_scale"]),
    ("LayerStacksSpec", &["count", "select"]),
    ("OutputSpec", &["value", "rescale", "forward", "scale", "eval"]),
    ("TensorSpec", &["tensor", "type", "layout"]),
    // Variants with fields.
    ("PieceCount", &["divisor", "offset"]),
    ("Pairwise", &["max", "divisor"]),
    ("Bullet", &["tensors", "pad_to"]),
    ("Affine", &["name", "input", "outputs", "sparse", "weight", "divisor", "sum", "biases"]),
    ("Dequantize", &["name", "input", "multiply"]),
    ("HardSwish", &["name", "input"]),
    ("Multiply", &["name", "inputs"]),
    ("Add", &["name", "inputs"]),
    ("SCReLU", &["name", "input", "max"]),
    ("CReLU", &["name", "input", "max"]),
    ("ToFloat", &["name", "input", "divisor"]),
    ("ToInt", &["name", "input", "multiply"]),
    ("ClippedReLU", &["name", "input", "shift", "max"]),
    ("SqrClippedReLU", &["name", "input", "shift", "max"]),
    ("Concat", &["name", "inputs"]),
];

/// A schema struct as the file calls it.
fn struct_name(rust: &str) -> String {
    match rust {
        "Network" => "`Network(...)`".to_owned(),
        "FileSpec" => "`file`".to_owned(),
        "TensorSpec" => "a tensor of `file.format`".to_owned(),
        "FeatureSpec" => "a feature set".to_owned(),
        "PieceSquareSpec" => "a `PieceSquare` set's `layout`".to_owned(),
        "ThreatTargets" => "`targets`".to_owned(),
        "TransformerSpec" => "`transformer`".to_owned(),
        "LayerStacksSpec" => "`layer_stacks`".to_owned(),
        "OutputSpec" => "`output`".to_owned(),
        "Rescale" => "`rescale`".to_owned(),
        "ForwardSpec" => "`forward`".to_owned(),
        "" => "this value".to_owned(),
        // Variants with fields: `Affine(...)`, `PieceCount(...)`, ...
        variant => format!("`{variant}(...)`"),
    }
}

/// What a schema enum is, as the file sees it.
fn enum_name(rust: &str) -> String {
    match rust {
        "IntType" => "type".to_owned(),
        "FeatureSetKind" => "feature set".to_owned(),
        "Encoding" => "encoding".to_owned(),
        "EvalRule" => "`eval` rule".to_owned(),
        "Mirror" => "mirroring".to_owned(),
        "PlaneOrder" => "plane order".to_owned(),
        "BucketSelect" => "stack selection".to_owned(),
        "TransformerOutput" => "transformer output".to_owned(),
        "LayerSpec" => "layer kind".to_owned(),
        "FileFormat" => "file format".to_owned(),
        "TensorLayout" => "tensor layout".to_owned(),
        "SumOrder" => "summation order".to_owned(),
        "StackOrder" => "order within a layer stack".to_owned(),
        "HashScheme" => "hash scheme".to_owned(),
        "PsqtPlacement" => "PSQT placement".to_owned(),
        "PieceKind" => "piece kind".to_owned(),
        "" => "value".to_owned(),
        other => format!("`{other}`"),
    }
}

/// The value that would fit a missing field, as the text to add.
fn missing_field(outer: &str, field: &str) -> String {
    let any_layer = [
        "Affine",
        "SCReLU",
        "CReLU",
        "ToFloat",
        "ToInt",
        "Dequantize",
        "HardSwish",
        "Multiply",
        "Add",
        "ClippedReLU",
        "SqrClippedReLU",
        "Concat",
    ]
    .contains(&outer);
    match (outer, field) {
        ("Network", "name") => "`name: \"<the file's name without .ron>\"` (it names the generated module)".to_owned(),
        ("Network", "file") => "`file: (version: 0x7AF32F20)` (a Stockfish net: the u32 at offset 0 of the net; 0x7AF32F16 for Stockfish 12, 0x6A448AFA for 19), or `file: (format: Bullet(tensors: [...]))` for a bullet net".to_owned(),
        ("Network", "features") => "`features: [(set: HalfKAv2_hm)]` (Stockfish 14.1 to 17.1), or `features: [(set: PieceSquare, layout: (king_buckets: None))]` (768 piece-square inputs, as most bullet nets)".to_owned(),
        ("Network", "transformer") => "`transformer: (dimensions: <L1>, output: ...)`, e.g. `(dimensions: 1024, psqt_buckets: 8, output: Pairwise(max: 127, divisor: 128))`".to_owned(),
        ("Network", "layer_stacks") => "`layer_stacks: (count: 1, select: Single)` for one stack, or `(count: 8, select: PieceCount(divisor: 4))` for Stockfish's eight".to_owned(),
        ("Network", "layers") => "`layers: [...]`, the layers of one stack in evaluation order, e.g. `[Affine(name: \"out\", input: \"transformer\", outputs: 1)]`".to_owned(),
        ("Network", "output") => "`output: (value: \"<the last Affine layer>\", eval: DivideThenSum)`".to_owned(),
        ("Bullet", "tensors") => "`tensors: [...]`: every parameter of the net in file order, e.g. `(tensor: \"transformer.weights\", type: I16)`".to_owned(),
        ("TensorSpec", "tensor") => "`tensor: \"transformer.weights\"` (or `transformer.biases`, `<layer>.weights`, `<layer>.biases`)".to_owned(),
        ("TensorSpec", "type") => "`type: I16` (bullet's quantised tensors), or `I8`, `I32`, `F32`: the type the values have in the file".to_owned(),
        ("FeatureSpec", "set") => "`set: HalfKAv2_hm` (or `HalfKP`, `HalfKAv2`, `FullThreats`, `PP_3Wide`, `PieceSquare`)".to_owned(),
        ("PieceSquareSpec", "king_buckets") => "`king_buckets: None` for no king buckets (one bucket), or the bucket of each square of the own king (64 entries, or 32 with mirroring)".to_owned(),
        ("ThreatTargets", kind) => format!("`{kind}: [...]`, the kinds a {kind} attacks as a feature (`[]` for none)"),
        ("TransformerSpec", "dimensions") => "`dimensions: <L1>`, the accumulator lanes per perspective (a multiple of 64; of 128 with `Pairwise`), e.g. `dimensions: 1024`".to_owned(),
        ("TransformerSpec", "output") => "`output: Pairwise(max: 127, divisor: 128)` (Stockfish 15 and later; with `load_scale: 2`, `Pairwise(max: 254, divisor: 512)`), `output: ClippedReLU(max: 127)` (Stockfish 12 to 14), or `output: Accumulators` (nets whose first layer clamps the accumulators itself, e.g. bullet's `SCReLU`)".to_owned(),
        ("LayerStacksSpec", "count") => "`count: 1` (with `select: Single`), or `count: 8` (with `select: PieceCount(divisor: 4)`)".to_owned(),
        ("LayerStacksSpec", "select") => "`select: Single` for one stack, `select: PieceCount(divisor: 4)` for Stockfish's 8 ((pieces - 1) / 4), or `select: PieceCount(divisor: 4, offset: 2)` for bullet's 8 material buckets".to_owned(),
        ("PieceCount", "divisor") => "`divisor: 4` for 8 stacks (with N stacks, 32 / N rounded up)".to_owned(),
        ("Pairwise" | "ClippedReLU", "max") => "`max: 127`".to_owned(),
        ("SCReLU", "max") => "`max: <QA>`, the engine's clamp of the accumulators (255 in Obsidian's net, 256 in akimbo's)".to_owned(),
        ("CReLU", "max") => "`max: 1.0` (the clamp of bullet's float layers)".to_owned(),
        ("ToFloat", "divisor") => "`divisor: <QA * QA>` after an `SCReLU(max: QA)`, which maps its values onto 0..=1 (`65536.0` after `SCReLU(max: 256)`)".to_owned(),
        ("ToInt", "multiply") => "`multiply: 400.0`, the engine's evaluation scale".to_owned(),
        ("Dequantize", "multiply") => "`multiply: <1 / (the scale of the i32 sums)>`, e.g. `multiply: 0.00012302960` (2^9 / (255 * 255 * 64))".to_owned(),
        (_, "name") if any_layer => "`name: \"<a unique name>\"`, e.g. `name: \"fc_0\"`".to_owned(),
        (_, "input") if any_layer => "`input: \"transformer\"` or an earlier layer's name (`\"fc_0\"`, `\"ac_0[0..15]\"`)".to_owned(),
        ("Affine", "outputs") => "`outputs: <count>` (`outputs: 1` for the stack's last layer)".to_owned(),
        ("Multiply" | "Add", "inputs") => "`inputs: [\"<a>\", \"<b>\"]`, two f32 references of one length (e.g. `[\"gate\", \"l2[32..64]\"]`)".to_owned(),
        ("Concat", "inputs") => "`inputs: [\"<a>\", \"<b>\"]`, two or more u8 references".to_owned(),
        ("OutputSpec", "value") => "`value: \"<the last Affine layer>\"` (one i32 value, e.g. `value: \"fc_2\"`)".to_owned(),
        ("OutputSpec", "eval") => "`eval: DivideThenSum` (Stockfish 17.1 and later; with no PSQT, as in bullet nets, both rules agree) or `eval: SumThenDivide` (Stockfish 12 to 16.1)".to_owned(),
        ("Rescale", "multiply" | "divide") => "both `multiply` and `divide`, e.g. `rescale: Some((multiply: 400, divide: 16320))` (scale / (QA * QB))".to_owned(),
        ("ForwardSpec", _) => "`input`, `multiply` and `divide`, e.g. `forward: Some((input: \"fc_0[15]\", multiply: 9600, divide: 8128))` (Stockfish 15 to 18)".to_owned(),
        _ => format!("`{field}: ...`"),
    }
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn quoted(names: &[&str]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

fn lowercase_first(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map_or(String::new(), |c| c.to_lowercase().chain(chars).collect())
}

/// The byte offset of a line and column (columns count characters).
fn offset(source: &str, at: LineCol) -> usize {
    let line_start: usize = source.split_inclusive('\n').take(at.line.saturating_sub(1)).map(str::len).sum();
    let line = &source[line_start.min(source.len())..];
    line_start + line.char_indices().nth(at.col.saturating_sub(1)).map_or(line.len(), |(i, _)| i)
}

fn text_at(source: &str, at: LineCol) -> &str {
    &source[offset(source, at).min(source.len())..]
}

/// One value's text at the start of `text`: up to the `,` or closing bracket
/// that ends it (brackets and strings inside are skipped).
fn value_text(text: &str) -> &str {
    let mut depth = 0i32;
    let mut in_string = false;
    let mut prev = ' ';
    for (i, c) in text.char_indices() {
        match c {
            '"' if prev != '\\' => in_string = !in_string,
            _ if in_string => {}
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return text[..i].trim_end(),
            ')' | ']' | '}' => depth -= 1,
            ',' | '\n' if depth == 0 => return text[..i].trim_end(),
            _ => {}
        }
        prev = c;
    }
    text.trim_end()
}

/// The field name of the value at `at` (`key` of `key: value`).
fn key_before(source: &str, at: LineCol) -> Option<&str> {
    key_before_offset(source, offset(source, at))
}

/// The name of the variant or struct whose fields are written without
/// names at `at`: `PieceCount` of `PieceCount(4)`, `Affine` of
/// `Affine("fc_0", ..)`.
fn positional(source: &str, at: LineCol) -> Option<&str> {
    let before = source[..offset(source, at)].trim_end().strip_suffix('(')?;
    let start = before.trim_end_matches(is_word).len();
    let name = &before[start..];
    name.starts_with(|c: char| c.is_ascii_uppercase()).then_some(name)
}

fn key_before_offset(source: &str, offset: usize) -> Option<&str> {
    let before = source[..offset].trim_end();
    let before = before.strip_suffix(':')?.trim_end();
    let start = before.trim_end_matches(is_word).len();
    let key = &before[start..];
    (!key.is_empty()).then_some(key)
}

/// The innermost bracket `(`, `[` or `{` still open at the end of `text`,
/// and its offset (strings and comments are not skipped: a rough guess).
fn innermost_open(text: &str) -> Option<(usize, char)> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices().rev() {
        match c {
            ')' | ']' | '}' => depth += 1,
            '(' | '[' | '{' if depth == 0 => return Some((i, c)),
            '(' | '[' | '{' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The offset of the opening quote of the string that ends just before
/// `end` (after blanks), if that string spans lines: its closing quote was
/// probably forgotten.
fn unclosed_string(source: &str, end: usize) -> Option<usize> {
    let before = source[..end].trim_end();
    let inner = before.strip_suffix('"')?;
    let start = inner.rfind('"')?;
    inner[start + 1..].contains('\n').then_some(start)
}

/// Just after the last character of code before `at` (comments and blanks
/// skipped).
fn end_of_previous_value(source: &str, at: LineCol) -> Option<LineCol> {
    let lines: Vec<&str> = source.lines().collect();
    let first = at.line.checked_sub(1)?;
    for line in (0..=first).rev() {
        let text = *lines.get(line)?;
        let text =
            if line == first { &text[..offset(text, LineCol { line: 1, col: at.col }).min(text.len())] } else { text };
        let code = code_of(text).trim_end();
        if !code.is_empty() {
            return Some(LineCol { line: line + 1, col: code.chars().count() + 1 });
        }
    }
    None
}

/// A line without its `//` comment (strings are skipped).
fn code_of(line: &str) -> &str {
    let mut in_string = false;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match c {
            '"' if prev != '\\' => in_string = !in_string,
            '/' if !in_string && prev == '/' => return &line[..i - 1],
            _ => {}
        }
        prev = c;
    }
    line
}
