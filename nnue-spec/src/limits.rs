//! Upper bounds on the sizes an architecture file sets, derived from what
//! the generated code does with them: the bytes one evaluation keeps on the
//! stack (one budget for all of them), the weight tables' sizes, and the
//! number of layer stacks. `archs/README.md` lists them with their reasons.
//!
//! The stack bytes of an evaluation are computed here and only here, from
//! the IR; the validator, `nnue info --arch` and the tests read them.

use crate::ir::{Arch, Layer, LayerKind, Slice, Source, Transformer, ValueType};
use crate::validate::Problem;

/// Most bytes one evaluation may keep on the stack in the buffers its
/// sizes set. A search thread has 2 MiB by default; this leaves the
/// engine's own frames (and unoptimised builds' copies) 1984 KiB.
pub const STACK_BUDGET: usize = 64 * 1024;

/// Most layer stacks: a bucket is chosen from the piece count, at most 32
/// pieces, so no more than 32 stacks (and PSQT buckets) can ever be used.
pub const MAX_LAYER_STACKS: usize = 32;

/// Most bytes of one weight table (`FEATURES x L1` i16 transformer weights,
/// `FEATURES x B` i32 PSQT weights, `OUT x PADDED` i8 affine weights):
/// `isize::MAX` of a 32-bit target, Rust's largest allocation there. A
/// LEB128 block of such a table (at most 3 bytes per i16, 5 per i32 value)
/// then also fits the u32 byte count in front of it.
pub const MAX_TABLE_BYTES: usize = i32::MAX as usize;

/// Bytes of the runtime's `FeatureList` (two `usize` counts and 32 `u32`
/// feature indices); `tests/limits.rs` checks it against the type.
pub const FEATURE_LIST_BYTES: usize = 2 * 8 + 32 * 4;

/// Alignment of the accumulator and of the transformer's output buffer.
const CACHE_LINE: usize = 64;
/// Width of a padded affine input row and of the narrowest SIMD register.
const ROW_PADDING: usize = 32;

/// The spec value a buffer's size follows: where it is and how to name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cause {
    /// Path of the value in the file (`layers[4].outputs`).
    pub path: String,
    /// The value in words (`fc_1 outputs 1000000`).
    pub label: String,
}

/// A buffer an evaluation keeps on the stack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StackBuffer {
    /// What it holds (`fc_1 output, 32 i32`).
    pub what: String,
    pub bytes: usize,
    pub cause: Cause,
}

/// Every buffer `Network::evaluate` keeps on the stack at its deepest point,
/// on the backend that keeps the most: the accumulator (its local), the two
/// feature lists of the refresh, the transformer's output, and in the
/// forward pass (one function, all locals live) every layer's output, the
/// zero-padded input copy of an affine layer, and a column kernel's four
/// sets of output registers and its list of non-zero input chunks.
///
/// An `AccumulatorStack` node or refresh-cache entry built before it moves
/// to the heap is at most the accumulator's size, which is counted here.
pub fn evaluation_buffers(transformer: &Transformer, layers: &[Layer]) -> Vec<StackBuffer> {
    let sizes = Sizes { transformer, layers };
    let l1 = transformer.dimensions;
    let lanes = l1.saturating_mul(4);
    let accumulator = round_up(lanes.saturating_add(transformer.psqt_buckets.saturating_mul(8)), CACHE_LINE);
    let mut buffers = vec![
        StackBuffer { what: format!("accumulator lanes, 2 x {l1} i16"), bytes: lanes, cause: sizes.transformer_cause() },
        StackBuffer {
            what: format!("accumulator PSQT values, 2 x {} i32", transformer.psqt_buckets),
            bytes: accumulator - lanes.min(accumulator),
            cause: Cause {
                path: "transformer.psqt_buckets".to_owned(),
                label: format!("psqt_buckets {}", transformer.psqt_buckets),
            },
        },
        StackBuffer {
            what: "feature lists of both perspectives".to_owned(),
            bytes: 2 * FEATURE_LIST_BYTES,
            cause: Cause { path: "features".to_owned(), label: "the feature set".to_owned() },
        },
        StackBuffer {
            what: format!("transformer output, {} u8", transformer.output_dimensions),
            bytes: round_up(transformer.output_dimensions, CACHE_LINE),
            cause: sizes.transformer_cause(),
        },
    ];
    for (i, layer) in layers.iter().enumerate() {
        sizes.layer_buffers(i, layer, &mut buffers);
    }
    buffers
}

/// The total of [`evaluation_buffers`] (saturating).
pub fn stack_bytes(buffers: &[StackBuffer]) -> usize {
    buffers.iter().fold(0, |sum, b| sum.saturating_add(b.bytes))
}

/// The stack bytes of one evaluation of `arch`.
pub fn evaluation_stack_bytes(arch: &Arch) -> usize {
    stack_bytes(&evaluation_buffers(&arch.transformer, &arch.layers))
}

/// Bytes of the transformer's weight table for `features` rows.
pub fn transformer_table_bytes(features: usize, transformer: &Transformer) -> usize {
    features.saturating_mul(transformer.dimensions).saturating_mul(2)
}

/// Every limit the sizes break, one problem per value. `features` is the
/// number of feature rows. The stack budget is checked only when every
/// size is within its own limit, and is reported at the value whose
/// buffers take the most. Nothing is reported at a value `reported`
/// already holds a problem for.
pub fn check(features: usize, transformer: &Transformer, stacks: usize, layers: &[Layer], reported: &[Problem]) -> Vec<Problem> {
    let mut problems = Vec::new();
    let table = transformer_table_bytes(features, transformer);
    if table > MAX_TABLE_BYTES {
        problems.push(Problem {
            path: "transformer.dimensions".to_owned(),
            message: format!(
                "transformer dimensions {}: the transformer's weight table would be {features} x {} x 2 = {} bytes ({}), above the limit of 2^31 - 1 bytes (the largest allocation of a 32-bit target; a LEB128 block of it must fit a u32 byte count)",
                transformer.dimensions,
                transformer.dimensions,
                table,
                human_bytes(table)
            ),
        });
    }
    if stacks > MAX_LAYER_STACKS {
        problems.push(Problem {
            path: "layer_stacks.count".to_owned(),
            message: format!(
                "layer_stacks.count {stacks}: at most {MAX_LAYER_STACKS} layer stacks (a bucket is chosen from the piece count, at most {MAX_LAYER_STACKS} pieces, so no more can ever be used)"
            ),
        });
    }
    if !problems.is_empty() {
        // A value already reported (`Single` with 40 stacks) is not reported twice.
        problems.retain(|p| !reported.iter().any(|r| r.path == p.path));
        return problems;
    }
    let buffers = evaluation_buffers(transformer, layers);
    let total = stack_bytes(&buffers);
    if total <= STACK_BUDGET {
        return problems;
    }
    let Some(culprit) = largest_cause(&buffers) else { return problems };
    if reported.iter().any(|p| p.path == culprit.path) {
        return problems;
    }
    let mut largest: Vec<&StackBuffer> = buffers.iter().collect();
    largest.sort_by_key(|b| core::cmp::Reverse(b.bytes));
    let largest: Vec<String> = largest.iter().take(3).map(|b| format!("{}: {}", b.what, human_bytes(b.bytes))).collect();
    problems.push(Problem {
        path: culprit.path.clone(),
        message: format!(
            "{}: an evaluation would keep {total} bytes ({}) on the stack, over the {STACK_BUDGET}-byte ({}) budget; largest buffers: {}",
            culprit.label,
            human_bytes(total),
            human_bytes(STACK_BUDGET),
            largest.join("; ")
        ),
    });
    problems
}

/// What every architecture the validator accepts satisfies, recomputed from
/// the IR one limit at a time (the property test of `nnue-spec` and the
/// `spec` fuzz target assert it): the stack budget; at most
/// [`MAX_LAYER_STACKS`] stacks and PSQT buckets; every weight table within
/// [`MAX_TABLE_BYTES`]; feature indices fitting the `u32` of a feature
/// list; a column kernel's non-zero chunk indices fitting `u16`; and the
/// sizes the hash words mix in fitting `u32`. The first broken one, named.
pub fn within_limits(arch: &Arch) -> Result<(), String> {
    let t = &arch.transformer;
    let features = arch.feature_dimensions();
    let stack = evaluation_stack_bytes(arch);
    let at_most = |what: String, value: usize, limit: usize| {
        if value <= limit { Ok(()) } else { Err(format!("{what} is {value}, above {limit}")) }
    };
    at_most("the stack bytes of an evaluation".to_owned(), stack, STACK_BUDGET)?;
    at_most("the layer stack count".to_owned(), arch.stacks.count, MAX_LAYER_STACKS)?;
    at_most("the PSQT bucket count".to_owned(), t.psqt_buckets, MAX_LAYER_STACKS)?;
    let table = |rows: usize, width: usize, bytes: usize| rows.checked_mul(width).and_then(|n| n.checked_mul(bytes));
    let tables = [
        ("the transformer weights".to_owned(), table(features, t.dimensions, 2)),
        ("the PSQT weights".to_owned(), table(features, t.psqt_buckets, 4)),
    ];
    let affine = arch.layers.iter().filter_map(|l| match l.kind {
        LayerKind::Affine { padded_inputs, .. } => Some((l, padded_inputs)),
        _ => None,
    });
    for (what, bytes) in tables.into_iter().chain(affine.clone().map(|(l, padded)| {
        (format!("the weights of {}", l.name), table(l.output_dimensions, padded, 1))
    })) {
        at_most(format!("the bytes of {what}"), bytes.unwrap_or(usize::MAX), MAX_TABLE_BYTES)?;
    }
    at_most("the feature count".to_owned(), features, u32::MAX as usize)?;
    for (l, padded) in affine {
        at_most(format!("the input chunks of {}", l.name), padded / 4, usize::from(u16::MAX) + 1)?;
        at_most(format!("the outputs of {}", l.name), l.output_dimensions, u32::MAX as usize)?;
    }
    at_most("twice L1 (hashed)".to_owned(), t.dimensions.saturating_mul(2), u32::MAX as usize)?;
    // The model counts at least the accumulator, the transformer output and
    // every layer output.
    let outputs: usize = arch.layers.iter().map(|l| l.output_dimensions).sum();
    at_most("a lower bound of the stack bytes".to_owned(), 4 * t.dimensions + t.output_dimensions + outputs, stack)?;
    Ok(())
}

/// The cause whose buffers take the most bytes together (the first such).
fn largest_cause(buffers: &[StackBuffer]) -> Option<&Cause> {
    let mut totals: Vec<(&Cause, usize)> = Vec::new();
    for b in buffers {
        match totals.iter_mut().find(|(c, _)| *c == &b.cause) {
            Some((_, sum)) => *sum = sum.saturating_add(b.bytes),
            None => totals.push((&b.cause, b.bytes)),
        }
    }
    totals.iter().rev().max_by_key(|(_, sum)| *sum).map(|(c, _)| *c)
}

/// `bytes` for people: `512 bytes`, `64 KiB`, `17.5 KiB`, `4.1 MiB`.
pub fn human_bytes(bytes: usize) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if value.fract() == 0.0 { format!("{value} {}", UNITS[unit]) } else { format!("{value:.1} {}", UNITS[unit]) }
}

fn round_up(n: usize, to: usize) -> usize {
    n.div_ceil(to).saturating_mul(to)
}

/// The sizes of a (possibly partly invalid) IR, and which value sets each.
struct Sizes<'a> {
    transformer: &'a Transformer,
    layers: &'a [Layer],
}

impl Sizes<'_> {
    fn transformer_cause(&self) -> Cause {
        Cause {
            path: "transformer.dimensions".to_owned(),
            label: format!("transformer dimensions {}", self.transformer.dimensions),
        }
    }

    /// The value that sets the width of layer `i`'s output.
    fn width_cause(&self, i: usize) -> Cause {
        let layer = &self.layers[i];
        match layer.kind {
            LayerKind::Affine { .. } => Cause {
                path: format!("layers[{i}].outputs"),
                label: format!("{} outputs {}", layer.name, layer.output_dimensions),
            },
            LayerKind::ClippedReLU { .. } | LayerKind::SqrClippedReLU { .. } | LayerKind::Concat => {
                let widest = layer.inputs.iter().enumerate().max_by_key(|(_, s)| s.len);
                match widest {
                    Some((k, slice)) => self.slice_cause(i, k, slice),
                    None => Cause { path: format!("layers[{i}]"), label: format!("{} (no input)", layer.name) },
                }
            }
        }
    }

    /// The value that sets the length of input `k` of layer `i`: the
    /// source's width when the slice is all of it, else the slice.
    fn slice_cause(&self, i: usize, k: usize, slice: &Slice) -> Cause {
        let (whole, source_name) = match slice.source {
            Source::Transformer => (self.transformer.output_dimensions, "transformer"),
            Source::Layer(j) => (self.layers[j].output_dimensions, self.layers[j].name.as_str()),
        };
        if slice.start == 0 && slice.len == whole {
            return match slice.source {
                Source::Transformer => self.transformer_cause(),
                Source::Layer(j) => self.width_cause(j),
            };
        }
        let layer = &self.layers[i];
        let path = match layer.kind {
            LayerKind::Concat => format!("layers[{i}].inputs[{k}]"),
            _ => format!("layers[{i}].input"),
        };
        Cause { path, label: format!("{} reads {} values of {source_name}", layer.name, slice.len) }
    }

    /// Layer `i`'s buffers: its output local, and for an affine layer its
    /// padded input copy and its column kernel's registers and chunk list.
    fn layer_buffers(&self, i: usize, layer: &Layer, out: &mut Vec<StackBuffer>) {
        let n = layer.output_dimensions;
        let (what, bytes) = match layer.output_type {
            ValueType::I32 => (format!("{} output, {n} i32", layer.name), n.saturating_mul(4)),
            ValueType::U8 => (format!("{} output, {n} u8", layer.name), round_up(n, ROW_PADDING)),
        };
        out.push(StackBuffer { what, bytes, cause: self.width_cause(i) });
        let (LayerKind::Affine { padded_inputs, .. }, Some(slice)) = (layer.kind, layer.inputs.first()) else { return };
        let input_cause = self.slice_cause(i, 0, slice);
        let source_len = match slice.source {
            Source::Transformer => self.transformer.output_dimensions,
            Source::Layer(j) => self.layers[j].output_dimensions,
        };
        if slice.start != 0 || slice.len != source_len || source_len != padded_inputs {
            out.push(StackBuffer {
                what: format!("{} padded input, {padded_inputs} u8", layer.name),
                bytes: padded_inputs,
                cause: input_cause.clone(),
            });
        }
        // The column kernel (outputs filling whole 256-bit registers).
        if n.is_multiple_of(8) {
            out.push(StackBuffer {
                what: format!("{} kernel registers, 4 sets of {n} i32", layer.name),
                bytes: n.saturating_mul(16),
                cause: self.width_cause(i),
            });
            out.push(StackBuffer {
                what: format!("{} non-zero chunk list, {} u16", layer.name, padded_inputs / 4),
                bytes: padded_inputs / 4 * 2,
                cause: input_cause,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_bytes_picks_a_unit() {
        assert_eq!(human_bytes(512), "512 bytes");
        assert_eq!(human_bytes(64 * 1024), "64 KiB");
        assert_eq!(human_bytes(65_548), "64.0 KiB");
        assert_eq!(human_bytes(4_300_000), "4.1 MiB");
    }

    /// sfnnv1 by hand: accumulator 2 x 256 i16 = 1024, no PSQT, feature
    /// lists 288, output 512; fc_0: output 128, kernel registers 512, chunk
    /// list 256 (it reads the whole transformer output, no copy); ac_0 32;
    /// fc_1: 128 + 512 + 16; ac_1 32; fc_2: 4 (a row kernel).
    #[test]
    fn sfnnv1_by_hand() {
        let arch = crate::parse(include_str!("../../archs/sfnnv1.ron")).unwrap();
        let fc_0 = 128 + 512 + 256;
        let fc_1 = 128 + 512 + 16;
        assert_eq!(evaluation_stack_bytes(&arch), 1024 + 288 + 512 + fc_0 + 32 + fc_1 + 32 + 4);
    }
}
