//! `nnue info --arch ARCH.ron [--dot | --svg]`: an architecture without a
//! net: its layers with shapes, types and sizes, every backend's tiling and
//! kernels, and a diagram of the layer graph (text; Graphviz dot; SVG).

use nnue_spec::ir::{
    Arch, ElementwiseOp, IntegerOp, Layer, LayerKind, Slice, Source, SumOrder, TransformerOutput, ValueType,
};
use std::fmt::Write as _;
use std::path::Path;

/// Which form to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Text,
    Dot,
    Svg,
}

pub fn run(path: &Path, form: Form) -> Result<(), String> {
    let arch = crate::expand::read_arch(path)?;
    let out = match form {
        Form::Text => text(&arch),
        Form::Dot => dot(&arch),
        Form::Svg => svg(&arch),
    };
    print!("{out}");
    Ok(())
}

/// One box of the diagram: a name, what it computes, its output shape.
struct Node {
    name: String,
    what: String,
    shape: String,
    /// Parameter bytes (per layer stack for layers).
    bytes: usize,
    /// Its inputs: (node index, label).
    inputs: Vec<(usize, String)>,
}

fn transformer_output(arch: &Arch) -> String {
    match arch.transformer.output {
        TransformerOutput::ClippedReLU { max } => format!("clipped to 0..={max}"),
        TransformerOutput::Pairwise { max, divisor } => {
            format!("pairwise product of halves clipped to 0..={max}, / {divisor}")
        }
        TransformerOutput::Accumulators => "the accumulators' values".to_owned(),
    }
}

fn layer_what(layer: &Layer) -> String {
    match layer.kind {
        LayerKind::Affine { padded_inputs, sparse, biases } => {
            format!(
                "affine, i8 weights (rows padded to {padded_inputs}), {}{}",
                if biases { "i32 biases" } else { "no biases" },
                if sparse { ", sparse input" } else { "" }
            )
        }
        LayerKind::ClippedReLU { shift, max } => format!("clipped ReLU: clamp(x >> {shift}, 0, {max})"),
        LayerKind::SqrClippedReLU { shift, max } => format!("squared clipped ReLU: min(x^2 >> {shift}, {max})"),
        LayerKind::WideAffine { divisor: 1 } => "affine, i16 weights, i32 biases".to_owned(),
        LayerKind::WideAffine { divisor } => format!("affine, i16 weights, i32 biases: sum / {divisor} + bias"),
        LayerKind::SCReLU { max } => format!("SCReLU: clamp(x, 0, {max})^2"),
        LayerKind::FloatAffine { order: SumOrder::Sequential } => {
            "affine, f32 weights and biases, each output summed in input order (no fused multiply-add)".to_owned()
        }
        LayerKind::FloatAffine { order: SumOrder::Fused } => {
            "affine, f32 weights and biases: the bias, then a fused multiply-add per input in order".to_owned()
        }
        LayerKind::FloatAffine { order: SumOrder::FusedLanes(lanes) } => format!(
            "affine, f32 weights and biases: {lanes} partial sums of fused multiply-adds, halved pairwise, then the bias"
        ),
        LayerKind::Dequantize { multiply } => format!("to f32: fma(x, {multiply}, bias), f32 biases"),
        LayerKind::HardSwish => "HardSwish: (x * clamp(x + 3, 0, 6)) * (1/6) in f32".to_owned(),
        LayerKind::Elementwise { op: ElementwiseOp::Multiply } => "a * b, value by value, f32".to_owned(),
        LayerKind::Elementwise { op: ElementwiseOp::Add } if layer.output_type == ValueType::I32 => {
            "a + b, value by value, wrapping i32".to_owned()
        }
        LayerKind::Elementwise { op: ElementwiseOp::Add } => "a + b, value by value, f32".to_owned(),
        LayerKind::Integer { op: IntegerOp::Clamp { min, max } } => {
            let bound = |v: i32| match v {
                i32::MIN => "i32::MIN".to_owned(),
                i32::MAX => "i32::MAX".to_owned(),
                v => v.to_string(),
            };
            format!("clamp(x, {}, {}), i32", bound(min), bound(max))
        }
        LayerKind::Integer { op: IntegerOp::ShiftRight(by) } => format!("x >> {by}, i32"),
        LayerKind::Integer { op: IntegerOp::ShiftLeft(by) } => format!("x << {by}, wrapping i32"),
        LayerKind::Integer { op: IntegerOp::Square } => "x * x, wrapping i32".to_owned(),
        LayerKind::Bias => "x + bias, i32 biases, wrapping".to_owned(),
        LayerKind::I32Affine => "affine, i32 weights and biases, wrapping".to_owned(),
        LayerKind::CReLU { max } => format!("CReLU: clamp(x, 0, {max}) in f32"),
        LayerKind::ToFloat { divisor } => format!("to f32: x / {divisor}"),
        LayerKind::ToInt { multiply } => format!("to i32: x * {multiply}, truncated"),
        LayerKind::Concat => "concatenation".to_owned(),
    }
}

fn slice_label(arch: &Arch, slice: &Slice) -> String {
    let full = match slice.source {
        Source::Transformer => arch.transformer.output_dimensions,
        Source::Layer(i) => arch.layers[i].output_dimensions,
    };
    if slice.start == 0 && slice.len == full {
        String::new()
    } else {
        format!("[{}..{}]", slice.start, slice.start + slice.len)
    }
}

/// Bytes of one weight of type `ty`.
fn weight_bytes(ty: nnue_spec::ir::IntType) -> usize {
    match ty {
        nnue_spec::ir::IntType::I8 => 1,
        nnue_spec::ir::IntType::I16 => 2,
        nnue_spec::ir::IntType::I32 | nnue_spec::ir::IntType::F32 => 4,
    }
}

fn nodes(arch: &Arch) -> Vec<Node> {
    let t = &arch.transformer;
    let features: usize = arch.features.iter().map(|f| f.dimensions).sum();
    let feature_names: Vec<String> = arch
        .features
        .iter()
        .map(|f| match &f.layout {
            Some(l) => format!(
                "{:?} ({} features: {} king buckets, mirror {:?}, {:?} planes{}; {:?})",
                f.kind,
                f.dimensions,
                l.buckets,
                l.mirror,
                l.planes,
                if l.merged_kings { ", kings in one plane" } else { "" },
                f.weight
            ),
            None => format!("{:?} ({} features, {:?})", f.kind, f.dimensions, f.weight),
        })
        .collect();
    let mut nodes = vec![Node {
        name: "transformer".to_owned(),
        what: format!(
            "{}; 2 x {} {:?} lanes{}; {}",
            feature_names.join(" + "),
            t.dimensions,
            t.accumulator,
            if t.psqt_buckets > 0 { format!(" + 2 x {} i32 PSQT", t.psqt_buckets) } else { String::new() },
            transformer_output(arch)
        ),
        shape: format!("{} {}", t.output_dimensions, t.output.value_type().rust_name()),
        bytes: arch.features.iter().map(|f| f.dimensions * t.dimensions * weight_bytes(f.weight)).sum::<usize>()
            + t.dimensions * 2
            + features * t.psqt_buckets * 4,
        inputs: Vec::new(),
    }];
    for layer in &arch.layers {
        let bytes = match layer.kind {
            LayerKind::Affine { padded_inputs, biases, .. } => {
                layer.output_dimensions * (padded_inputs + if biases { 4 } else { 0 })
            }
            LayerKind::WideAffine { .. } => layer.output_dimensions * (2 * layer.input_dimensions + 4),
            LayerKind::FloatAffine { .. } | LayerKind::I32Affine => {
                layer.output_dimensions * (4 * layer.input_dimensions + 4)
            }
            LayerKind::Dequantize { .. } | LayerKind::Bias => layer.output_dimensions * 4,
            _ => 0,
        };
        let inputs = layer
            .inputs
            .iter()
            .map(|s| {
                (
                    match s.source {
                        Source::Transformer => 0,
                        Source::Layer(i) => i + 1,
                    },
                    slice_label(arch, s),
                )
            })
            .collect();
        let ty = layer.output_type.rust_name();
        nodes.push(Node {
            name: layer.name.clone(),
            what: layer_what(layer),
            shape: format!("{} -> {} {ty}", layer.input_dimensions, layer.output_dimensions),
            bytes,
            inputs,
        });
    }
    nodes
}

fn output_line(arch: &Arch) -> String {
    let o = &arch.output;
    let mut line = String::new();
    for (i, t) in o.value.iter().enumerate() {
        let sign = match (i, t.subtract) {
            (0, false) => "",
            (0, true) => "-",
            (_, false) => " + ",
            (_, true) => " - ",
        };
        let _ = write!(line, "{sign}{}[{}]", arch.layers[t.element.layer].name, t.element.index);
    }
    if let Some(r) = o.rescale {
        let width = match r.width {
            nnue_spec::schema::ProductWidth::I64 => "",
            nnue_spec::schema::ProductWidth::I32 => " (product wrapping in i32)",
        };
        line = format!("({line}) * {} / {}{width}", r.multiply, r.divide);
    }
    if let Some(f) = o.forward {
        let _ =
            write!(line, " + {}[{}] * {} / {}", arch.layers[f.input.layer].name, f.input.index, f.multiply, f.divide);
    }
    let _ = write!(line, ", output scale {}, {:?}", o.scale, o.eval);
    if let Some((min, max)) = o.clamp {
        let _ = write!(line, ", clamped to {min}..={max}");
    }
    line
}

fn text(arch: &Arch) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "architecture       {} - {}", arch.name, arch.description);
    match &arch.format {
        nnue_spec::ir::FileFormat::Stockfish => {
            let _ = writeln!(s, "version            0x{:08X}", arch.version);
            let _ = writeln!(
                s,
                "hashes             header 0x{:08X}, transformer 0x{:08X}, layer stack 0x{:08X}",
                arch.hashes.header, arch.hashes.transformer, arch.hashes.layer_stack
            );
            let _ = writeln!(s, "encoding           {:?}, load scale {}", arch.encoding, arch.transformer.load_scale);
        }
        nnue_spec::ir::FileFormat::Bullet { tensors, pad_to, compression, header } => {
            let bytes: usize = tensors.iter().map(|t| t.len * weight_bytes(t.ty)).sum();
            let compressed = match (compression, header) {
                (_, Some(nnue_spec::ir::BulletHeader::Cbnf { arch, activation })) => format!(
                    "; after a 64-byte CBNF header (architecture id {arch}, activation id {activation}; its flag says whether the tensors are zstd-compressed)"
                ),
                (nnue_spec::ir::Compression::None, None) => "; no header".to_owned(),
                (nnue_spec::ir::Compression::Zstd, None) => "; no header, the whole zstd-compressed".to_owned(),
            };
            let _ = writeln!(
                s,
                "format             bullet: {} tensors, {bytes} bytes, padded to a multiple of {pad_to}: {} bytes{compressed}",
                tensors.len(),
                bytes.div_ceil(*pad_to) * pad_to
            );
            for t in tensors {
                let what = match t.param {
                    nnue_spec::ir::Param::TransformerWeights => "transformer.weights".to_owned(),
                    nnue_spec::ir::Param::SetWeights(n) => {
                        format!("transformer.{:?}.weights", arch.features[n].kind)
                    }
                    nnue_spec::ir::Param::TransformerBiases => "transformer.biases".to_owned(),
                    nnue_spec::ir::Param::Weights(j) => format!("{}.weights ({:?})", arch.layers[j].name, t.layout),
                    nnue_spec::ir::Param::Biases(j) => format!("{}.biases", arch.layers[j].name),
                };
                let _ = writeln!(s, "  {what:<32} {:?} x {}", t.ty, t.len);
            }
            let _ = writeln!(s, "load scale         {}", arch.transformer.load_scale);
        }
    }
    let _ = writeln!(s, "layer stacks       {} ({:?})", arch.stacks.count, arch.stacks.select);
    let nodes = nodes(arch);
    // A node's inputs as `name[slice] ++ ...`.
    let sources = |n: &Node| {
        n.inputs.iter().map(|(j, label)| format!("{}{label}", nodes[*j].name)).collect::<Vec<_>>().join(" ++ ")
    };
    let _ = writeln!(s, "\nlayers (parameter bytes; layers are per stack):");
    for (i, n) in nodes.iter().enumerate() {
        let from = if n.inputs.is_empty() { "board".to_owned() } else { sources(n) };
        let _ = writeln!(s, "  {i:>2} {:<12} {:<18} {:>11}  <- {from}", n.name, n.shape, n.bytes);
        let _ = writeln!(s, "     {}", n.what);
    }
    let _ = writeln!(s, "  output: {}", output_line(arch));
    let per_stack: usize = nodes[1..].iter().map(|n| n.bytes).sum();
    let _ = writeln!(
        s,
        "\nparameters         {} bytes (transformer {}, {} stacks x {})",
        nodes[0].bytes + per_stack * arch.stacks.count,
        nodes[0].bytes,
        arch.stacks.count,
        per_stack
    );
    let _ = write!(s, "{}", stack_lines(arch));
    let _ = writeln!(s, "\nbackends (scalar: plain loops)");
    for plan in nnue_codegen::plans(arch) {
        let _ = writeln!(s, "  {:<13} {}", plan.backend, plan.tiling);
        for line in &plan.layers {
            let _ = writeln!(s, "  {:<13} {}", "", line.replace('`', ""));
        }
    }
    let _ = writeln!(s, "\ndiagram");
    for (i, n) in nodes.iter().enumerate() {
        if i > 0 {
            let _ = writeln!(s, "      |  {}", sources(n));
            let _ = writeln!(s, "      v");
        }
        let _ = writeln!(s, "  [{}] {}", n.name, n.shape);
    }
    let _ = writeln!(s, "      |\n      v\n  [output] {}", output_line(arch));
    s
}

/// The stack bytes of an evaluation and its largest buffers
/// (`nnue_spec::stack_bytes`), and the budget (`nnue_spec::limits`).
fn stack_lines(arch: &Arch) -> String {
    use nnue_spec::limits::{self, human_bytes};
    use nnue_spec::stack_bytes::{evaluation_buffers, stack_bytes};
    let mut buffers = evaluation_buffers(&arch.transformer, &arch.layers);
    let total = stack_bytes(&buffers);
    let mut s = format!(
        "stack              {total} bytes ({}) per evaluation; budget {} ({} bytes)\n",
        human_bytes(total),
        human_bytes(limits::STACK_BUDGET),
        limits::STACK_BUDGET
    );
    buffers.sort_by_key(|b| core::cmp::Reverse(b.bytes));
    for b in buffers.iter().take(5) {
        let _ = writeln!(s, "  {:>11}  {}", b.bytes, b.what);
    }
    s
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn dot(arch: &Arch) -> String {
    let nodes = nodes(arch);
    let mut s = format!("digraph \"{}\" {{\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n", arch.name);
    for (i, n) in nodes.iter().enumerate() {
        let _ = writeln!(
            s,
            "  n{i} [label=\"{}\\n{}\\n{}\"];",
            n.name,
            n.shape.replace('"', "'"),
            n.what.replace('"', "'")
        );
    }
    let _ = writeln!(s, "  out [shape=ellipse, label=\"output\\n{}\"];", output_line(arch).replace('"', "'"));
    for (i, n) in nodes.iter().enumerate() {
        for (j, label) in &n.inputs {
            let _ = writeln!(s, "  n{j} -> n{i} [label=\"{label}\"];");
        }
    }
    let o = &arch.output;
    for t in &o.value {
        let _ = writeln!(s, "  n{} -> out;", t.element.layer + 1);
    }
    if let Some(f) = o.forward {
        let _ = writeln!(s, "  n{} -> out [style=dashed, label=\"forward\"];", f.input.layer + 1);
    }
    s.push_str("}\n");
    s
}

/// A vertical chain of boxes in layer order; an edge between neighbours is
/// a straight arrow, any other edge an arc on the right.
fn svg(arch: &Arch) -> String {
    const W: usize = 520;
    const H: usize = 44;
    const GAP: usize = 28;
    const X: usize = 20;
    let nodes = nodes(arch);
    let rows = nodes.len() + 1;
    let height = rows * (H + GAP) + 20;
    let top = |i: usize| 10 + i * (H + GAP);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" font-family=\"monospace\" font-size=\"11\">\n",
        W + 200
    );
    s.push_str("  <defs><marker id=\"a\" markerWidth=\"8\" markerHeight=\"8\" refX=\"7\" refY=\"4\" orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\"/></marker></defs>\n");
    let mut labels: Vec<(String, String)> =
        nodes.iter().map(|n| (format!("{}  {}", n.name, n.shape), n.what.clone())).collect();
    labels.push(("output".to_owned(), output_line(arch)));
    for (i, (title, what)) in labels.iter().enumerate() {
        let y = top(i);
        let _ = writeln!(
            s,
            "  <rect x=\"{X}\" y=\"{y}\" width=\"{W}\" height=\"{H}\" rx=\"4\" fill=\"#f4f4f4\" stroke=\"#333\"/>"
        );
        let _ = writeln!(s, "  <text x=\"{}\" y=\"{}\" font-weight=\"bold\">{}</text>", X + 8, y + 17, escape(title));
        let _ = writeln!(s, "  <text x=\"{}\" y=\"{}\">{}</text>", X + 8, y + 34, escape(what));
    }
    let mut edges: Vec<(usize, usize, String)> = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        edges.extend(n.inputs.iter().map(|(j, label)| (*j, i, label.clone())));
    }
    let o = &arch.output;
    edges.extend(o.value.iter().map(|t| (t.element.layer + 1, nodes.len(), String::new())));
    if let Some(f) = o.forward {
        edges.push((f.input.layer + 1, nodes.len(), "forward".to_owned()));
    }
    let mut arcs = 0;
    for (from, to, label) in edges {
        if to == from + 1 {
            let (x, y0, y1) = (X + W / 2, top(from) + H, top(to));
            let _ = writeln!(
                s,
                "  <line x1=\"{x}\" y1=\"{y0}\" x2=\"{x}\" y2=\"{y1}\" stroke=\"#333\" marker-end=\"url(#a)\"/>"
            );
            if !label.is_empty() {
                let _ = writeln!(s, "  <text x=\"{}\" y=\"{}\">{}</text>", x + 6, y0 + 18, escape(&label));
            }
        } else {
            arcs += 1;
            let (y0, y1) = (top(from) + H / 2, top(to) + H / 2);
            let x = X + W + 12 * arcs;
            let _ = writeln!(
                s,
                "  <path d=\"M{} {y0} H{x} V{y1} H{}\" fill=\"none\" stroke=\"#333\" marker-end=\"url(#a)\"/>",
                X + W,
                X + W
            );
            if !label.is_empty() {
                let _ = writeln!(s, "  <text x=\"{}\" y=\"{}\">{}</text>", x + 4, (y0 + y1) / 2, escape(&label));
            }
        }
    }
    s.push_str("</svg>\n");
    s
}
