//! The bytes one evaluation keeps on the stack, buffer by buffer, computed
//! from the IR (also from a partly invalid one, saturating): here and only
//! here. The validator checks them against [`crate::limits::STACK_BUDGET`];
//! `nnue info --arch` prints them; the tests compare them with the runtime's
//! types.

use crate::ir::{Arch, Layer, LayerKind, Slice, Source, Transformer, ValueType};

/// Bytes of the runtime's `FeatureList` (two `usize` counts and 32 `u32`
/// feature indices); `tests/all/limits.rs` checks it against the type.
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

/// Bytes of a list of non-zero chunks per chunk of its input: a u16 index
/// and the chunk's four bytes (`kernels::ChunkSlots` in the runtime).
const CHUNK_ENTRY_BYTES: usize = 6;

/// Every buffer `Network::evaluate` keeps on the stack at its deepest point,
/// on the backend that keeps the most: the accumulator (its local), the two
/// feature lists of the refresh, the transformer's output (and the list of
/// its non-zero chunks, where a sparse layer reads it whole), and in the
/// forward pass (one function, all locals live) every layer's output, the
/// zero-padded input copy of an affine layer, and a column kernel's four
/// sets of output registers and, when its input is sparse, its list of
/// non-zero input chunks.
///
/// An `AccumulatorStack` node or refresh-cache entry built before it moves
/// to the heap is at most the accumulator's size, which is counted here.
pub fn evaluation_buffers(transformer: &Transformer, layers: &[Layer]) -> Vec<StackBuffer> {
    let sizes = Sizes { transformer, layers };
    let l1 = transformer.dimensions;
    let lanes = l1.saturating_mul(4);
    let accumulator = round_up(lanes.saturating_add(transformer.psqt_buckets.saturating_mul(8)), CACHE_LINE);
    let mut buffers = vec![
        StackBuffer {
            what: format!("accumulator lanes, 2 x {l1} i16"),
            bytes: lanes,
            cause: sizes.transformer_cause(),
        },
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
            what: format!(
                "transformer output, {} {}",
                transformer.output_dimensions,
                transformer.output.value_type().rust_name()
            ),
            bytes: round_up(transformer.output_bytes(), CACHE_LINE),
            cause: sizes.transformer_cause(),
        },
    ];
    if layers.iter().any(|l| l.reads_listed_transformer(transformer)) {
        buffers.push(StackBuffer {
            what: format!(
                "transformer output's non-zero chunk list, {0} u16 and {0} u32",
                transformer.output_dimensions / 4
            ),
            bytes: (transformer.output_dimensions / 4).saturating_mul(CHUNK_ENTRY_BYTES),
            cause: sizes.transformer_cause(),
        });
    }
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
            LayerKind::Affine { .. }
            | LayerKind::WideAffine { .. }
            | LayerKind::FloatAffine { .. }
            | LayerKind::I32Affine => Cause {
                path: format!("layers[{i}].outputs"),
                label: format!("{} outputs {}", layer.name, layer.output_dimensions),
            },
            LayerKind::ClippedReLU { .. }
            | LayerKind::SqrClippedReLU { .. }
            | LayerKind::SCReLU { .. }
            | LayerKind::CReLU { .. }
            | LayerKind::ToFloat { .. }
            | LayerKind::ToInt { .. }
            | LayerKind::Dequantize { .. }
            | LayerKind::HardSwish
            | LayerKind::Elementwise { .. }
            | LayerKind::Integer { .. }
            | LayerKind::Bias
            | LayerKind::Concat => {
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
            ValueType::U8 => (format!("{} output, {n} u8", layer.name), round_up(n, ROW_PADDING)),
            ty => (format!("{} output, {n} {}", layer.name, ty.rust_name()), n.saturating_mul(ty.bytes())),
        };
        out.push(StackBuffer { what, bytes, cause: self.width_cause(i) });
        let (LayerKind::Affine { padded_inputs, sparse, .. }, Some(slice)) = (layer.kind, layer.inputs.first()) else {
            return;
        };
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
            // A dense kernel's list is never made (its slots are dead
            // code, removed by the compiler).
            if sparse {
                out.push(StackBuffer {
                    what: format!("{0} non-zero chunk list, {1} u16 and {1} u32", layer.name, padded_inputs / 4),
                    bytes: (padded_inputs / 4).saturating_mul(CHUNK_ENTRY_BYTES),
                    cause: input_cause,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// sfnnv1 by hand: accumulator 2 x 256 i16 = 1024, no PSQT, feature
    /// lists 288, output 512; fc_0: output 128, kernel registers 512 (a
    /// dense kernel: no chunk list; it reads the whole transformer output,
    /// no copy); ac_0 32; fc_1: 128 + 512; ac_1 32; fc_2: 4 (a row kernel).
    #[test]
    fn sfnnv1_by_hand() {
        let arch = crate::parse(include_str!("../../archs/sfnnv1.ron")).unwrap();
        let fc_0 = 128 + 512;
        let fc_1 = 128 + 512;
        assert_eq!(evaluation_stack_bytes(&arch), 1024 + 288 + 512 + fc_0 + 32 + fc_1 + 32 + 4);
    }
}
