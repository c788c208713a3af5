//! Where each value of a RON file starts, by path (`layers[2].outputs`).
//!
//! `ron` reports positions for its own errors only; semantic errors found
//! after deserialisation name the offending value by path, and this map
//! turns the path into a line and column. It is a small scanner over the RON
//! token structure, not a second parser: it never fails, it only records.

use std::collections::HashMap;

/// Byte offsets of values by path, and line starts for line/column lookup.
#[derive(Debug, Default)]
pub struct SourceMap {
    values: HashMap<String, usize>,
    line_starts: Vec<usize>,
}

/// A 1-based line and column (columns count characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineCol {
    pub line: usize,
    pub col: usize,
}

enum Frame {
    /// `( ... )`: named fields, or the contents of a tuple/newtype.
    Struct { path: String, key: Option<String> },
    /// `[ ... ]`: elements counted by commas.
    Seq { path: String, index: usize },
    /// `{ ... }`: maps are not addressed further.
    Map { path: String },
}

impl SourceMap {
    /// Scans `src` and records the start of every value.
    pub fn new(src: &str) -> Self {
        let mut map = SourceMap {
            values: HashMap::new(),
            line_starts: std::iter::once(0).chain(src.match_indices('\n').map(|(i, _)| i + 1)).collect(),
        };
        map.scan(src);
        map
    }

    /// The line and column of the value at `path`, or of its nearest recorded
    /// ancestor (`layers[2].outputs` falls back to `layers[2]`, then `layers`).
    pub fn locate(&self, path: &str) -> LineCol {
        let mut path = path;
        loop {
            if let Some(&offset) = self.values.get(path) {
                return self.line_col(offset);
            }
            match path.rfind(['.', '[']) {
                Some(cut) => path = &path[..cut],
                None => return self.values.get("").map_or(LineCol { line: 1, col: 1 }, |&o| self.line_col(o)),
            }
        }
    }

    /// The line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> LineCol {
        let line = self.line_starts.partition_point(|&start| start <= offset);
        LineCol { line, col: offset - self.line_starts[line - 1] + 1 }
    }

    fn record(&mut self, path: String, offset: usize) {
        self.values.entry(path).or_insert(offset);
    }

    fn scan(&mut self, src: &str) {
        let bytes = src.as_bytes();
        let mut stack: Vec<Frame> = Vec::new();
        let mut pending_ident: Option<(String, usize)> = None;
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            match c {
                b' ' | b'\t' | b'\r' | b'\n' => i += 1,
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    i = src[i..].find('\n').map_or(bytes.len(), |n| i + n);
                }
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    i = src[i + 2..].find("*/").map_or(bytes.len(), |n| i + 2 + n + 2);
                }
                b'#' => {
                    // `#![enable(...)]` attributes: skip to the closing bracket.
                    i = src[i..].find(']').map_or(bytes.len(), |n| i + n + 1);
                }
                b':' => {
                    if let (Some((ident, at)), Some(Frame::Struct { path, key })) =
                        (pending_ident.take(), stack.last_mut())
                    {
                        let full = join(path, &ident);
                        *key = Some(ident);
                        self.record(full, at);
                    }
                    i += 1;
                }
                b',' => {
                    pending_ident = None;
                    match stack.last_mut() {
                        Some(Frame::Seq { index, .. }) => *index += 1,
                        Some(Frame::Struct { key, .. }) => *key = None,
                        _ => {}
                    }
                    i += 1;
                }
                b'(' | b'[' | b'{' => {
                    // The opening bracket starts (or continues, after a
                    // variant name) the current value.
                    let path = match pending_ident.take() {
                        Some((_, at)) => self.value_start(&stack, at),
                        None => self.value_start(&stack, i),
                    };
                    stack.push(match c {
                        b'(' => Frame::Struct { path, key: None },
                        b'[' => Frame::Seq { path, index: 0 },
                        _ => Frame::Map { path },
                    });
                    i += 1;
                }
                b')' | b']' | b'}' => {
                    pending_ident = None;
                    stack.pop();
                    i += 1;
                }
                b'"' => {
                    self.value_start(&stack, i);
                    i = skip_string(bytes, i);
                }
                b'r' if matches!(bytes.get(i + 1), Some(b'"' | b'#')) => {
                    self.value_start(&stack, i);
                    i = skip_raw_string(src, i);
                }
                _ if c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c == b'+' || c == b'.' => {
                    let start = i;
                    while i < bytes.len()
                        && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'_' | b'-' | b'+' | b'.'))
                    {
                        i += 1;
                    }
                    let word = &src[start..i];
                    if c.is_ascii_alphabetic() || c == b'_' {
                        // A field name (if a ':' follows) or a value such as a
                        // variant name or `true`.
                        self.value_start_if_value(&stack, start);
                        pending_ident = Some((word.to_owned(), start));
                    } else {
                        self.value_start(&stack, start);
                    }
                }
                _ => i += 1,
            }
        }
    }

    /// Records `at` as the start of the value the innermost frame expects next,
    /// and returns that value's path.
    fn value_start(&mut self, stack: &[Frame], at: usize) -> String {
        let path = match stack.last() {
            None => String::new(),
            Some(Frame::Seq { path, index }) => format!("{path}[{index}]"),
            Some(Frame::Struct { path, key: Some(key) }) => join(path, key),
            Some(Frame::Struct { path, key: None }) | Some(Frame::Map { path }) => path.clone(),
        };
        self.record(path.clone(), at);
        path
    }

    /// Like [`Self::value_start`] for a word that may instead be a field name:
    /// only sequences and keyed fields can be sure it is a value.
    fn value_start_if_value(&mut self, stack: &[Frame], at: usize) {
        if matches!(stack.last(), None | Some(Frame::Seq { .. }) | Some(Frame::Struct { key: Some(_), .. })) {
            self.value_start(stack, at);
        }
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() { key.to_owned() } else { format!("{path}.{key}") }
}

fn skip_string(bytes: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

fn skip_raw_string(src: &str, i: usize) -> usize {
    let hashes = src[i + 1..].bytes().take_while(|&b| b == b'#').count();
    let open = i + 1 + hashes + 1;
    let close = format!("\"{}", "#".repeat(hashes));
    src.get(open..).and_then(|rest| rest.find(&close)).map_or(src.len(), |n| open + n + close.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "Network(\n  name: \"x\",\n  layers: [\n    Affine(name: \"a\", outputs: 16),\n    // c\n    ClippedReLU(name: \"b\"),\n  ],\n  output: (forward: Some((input: \"a[1]\"))),\n)\n";

    #[test]
    fn finds_fields_and_elements() {
        let map = SourceMap::new(SRC);
        assert_eq!(map.locate("name"), LineCol { line: 2, col: 3 });
        assert_eq!(map.locate("layers[0]"), LineCol { line: 4, col: 5 });
        assert_eq!(map.locate("layers[0].outputs"), LineCol { line: 4, col: 23 });
        assert_eq!(map.locate("layers[1].name"), LineCol { line: 6, col: 17 });
        assert_eq!(map.locate("output.forward.input"), LineCol { line: 8, col: 27 });
    }

    #[test]
    fn falls_back_to_the_nearest_ancestor() {
        let map = SourceMap::new(SRC);
        assert_eq!(map.locate("layers[1].missing"), LineCol { line: 6, col: 5 });
        assert_eq!(map.locate("nothing.at.all"), LineCol { line: 1, col: 1 });
    }
}
