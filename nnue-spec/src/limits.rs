//! Upper bounds on the sizes an architecture file sets, derived from what
//! the generated code does with them: the bytes one evaluation keeps on the
//! stack (one budget for all of them, counted by [`crate::stack_bytes`]),
//! the weight tables' sizes, and the number of layer stacks.
//! `archs/README.md` lists them with their reasons.

use crate::ir::{Arch, Layer, LayerKind, Transformer};
use crate::problem::Problem;
use crate::stack_bytes::{Cause, StackBuffer, evaluation_buffers, evaluation_stack_bytes, stack_bytes};

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

/// Bytes of the transformer's weight table for `features` rows.
pub fn transformer_table_bytes(features: usize, transformer: &Transformer) -> usize {
    features.saturating_mul(transformer.dimensions).saturating_mul(2)
}

/// Every limit the sizes break, one problem per value. `features` is the
/// number of feature rows. The stack budget is checked only when every
/// size is within its own limit, and is reported at the value whose
/// buffers take the most. Nothing is reported at a value `reported`
/// already holds a problem for.
pub fn check(
    features: usize,
    transformer: &Transformer,
    stacks: usize,
    layers: &[Layer],
    reported: &[Problem],
) -> Vec<Problem> {
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
    let largest: Vec<String> =
        largest.iter().take(3).map(|b| format!("{}: {}", b.what, human_bytes(b.bytes))).collect();
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
    for (what, bytes) in tables.into_iter().chain(
        affine.clone().map(|(l, padded)| (format!("the weights of {}", l.name), table(l.output_dimensions, padded, 1))),
    ) {
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
}
