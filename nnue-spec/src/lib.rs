//! The architecture language of nnue: a RON schema ([`schema`]), its checks
//! ([`validate`], with the size [`limits`] and the [`stack_bytes`] of an
//! evaluation) and the validated IR ([`ir`]) that code generation reads.
//!
//! This crate knows nothing of `syn` or `quote`; the macro, the CLI and the
//! tests all call [`parse`].
//!
//! ```
//! let arch = nnue_spec::parse(include_str!("../../archs/sfnnv1.ron")).unwrap();
//! assert_eq!(arch.transformer.dimensions, 256);
//! assert_eq!(arch.hashes.header, 0x3E5A_A6EE);
//! ```

pub mod feature_sets;
pub mod hash;
mod hints;
pub mod ir;
pub mod limits;
pub mod problem;
pub mod schema;
pub mod source_map;
pub mod stack_bytes;
pub mod validate;

use std::fmt;

pub use ir::Arch;
pub use source_map::LineCol;

/// A problem in an architecture file, at a 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub at: LineCol,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.at.line, self.at.col, self.message)
    }
}

/// Parses and validates an architecture file's text.
///
/// A RON syntax or schema error (unknown field, missing field, unknown
/// variant) stops deserialisation, so it comes alone; semantic problems are
/// all reported together, the causes first: in file order, except that the
/// problems of a bullet file's tensor list (which follows from the layers)
/// come after every other.
pub fn parse(source: &str) -> Result<Arch, Vec<Diagnostic>> {
    let spec: schema::NetworkSpec = ron::Options::default().from_str(source).map_err(|e| {
        let at = skip_blanks(source, LineCol { line: e.span.start.line, col: e.span.start.col });
        let (at, message) = hints::ron_error(source, &e.code, at);
        vec![Diagnostic { at, message }]
    })?;
    validate::validate(&spec).map_err(|problems| {
        let map = source_map::SourceMap::new(source);
        let mut diagnostics: Vec<(bool, Diagnostic)> = problems
            .into_iter()
            .map(|p| {
                (p.path.starts_with("file.format.tensors"), Diagnostic { at: map.locate(&p.path), message: p.message })
            })
            .collect();
        diagnostics.sort_by_key(|(tensors, d)| (*tensors, d.at.line, d.at.col));
        diagnostics.into_iter().map(|(_, d)| d).collect()
    })
}

/// `ron` reports some errors at the blank before the offending value; move
/// such a position onto the value (on the same line).
fn skip_blanks(source: &str, at: LineCol) -> LineCol {
    let Some(line) = source.lines().nth(at.line.wrapping_sub(1)) else { return at };
    let blanks = line.chars().skip(at.col.saturating_sub(1)).take_while(|c| *c == ' ' || *c == '\t').count();
    match line.chars().nth(at.col.saturating_sub(1) + blanks) {
        Some(_) => LineCol { line: at.line, col: at.col + blanks },
        None => at,
    }
}
