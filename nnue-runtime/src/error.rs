//! Typed errors of loading a net file. Each names what was being read and the
//! byte offset where the problem is.

use std::path::PathBuf;

/// Why a net could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Isa(#[from] crate::platform::isa::IsaError),

    #[error("cannot read {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },

    #[error("file ends at offset {len} while reading {what} ({needed} bytes needed at offset {offset})")]
    Truncated { what: String, offset: usize, needed: usize, len: usize },

    #[error("unsupported version 0x{found:08X} at offset 0 (this architecture reads 0x{expected:08X})")]
    Version { found: u32, expected: u32 },

    #[error(
        "{what} at offset {offset} is 0x{found:08X}, but architecture `{arch}` expects 0x{expected:08X} (a net of another architecture?)"
    )]
    Hash { what: String, offset: usize, found: u32, expected: u32, arch: &'static str },

    /// The header hash differs, and the file's transformer hash word shows
    /// why: it is the architecture's (2 · L1, the word of a transformer whose
    /// feature set has no hash word) with the feature-set word `set_hash`
    /// mixed in, the layer stacks' words being equal. The architecture's
    /// feature set lacks `hash: set_hash`.
    #[error(
        "the header hash at offset {offset} is 0x{found:08X}, but architecture `{arch}` expects 0x{expected:08X}: the net's feature set has hash word 0x{set_hash:08X} (its transformer hash word at offset {transformer_offset}, 0x{transformer_found:08X}, is 0x{set_hash:08X} ^ 2 * {dimensions}, L1 being {dimensions}), but the architecture's feature set has none: add `hash: 0x{set_hash:08X}` to the feature set"
    )]
    FeatureSetHash {
        offset: usize,
        found: u32,
        expected: u32,
        arch: &'static str,
        transformer_offset: usize,
        transformer_found: u32,
        /// L1, from the architecture's transformer word `2 * L1`.
        dimensions: usize,
        set_hash: u32,
    },

    #[error("description at offset 12 is not UTF-8 text ({len} bytes)")]
    Description { len: usize },

    #[error("{what} at offset {offset}: expected the COMPRESSED_LEB128 magic string")]
    Leb128Magic { what: String, offset: usize },

    #[error("{what} at offset {offset}: {problem}")]
    Leb128 { what: String, offset: usize, problem: String },

    #[error("{what} at offset {offset}: value {value} does not fit once scaled by {scale}")]
    Scale { what: String, offset: usize, value: i64, scale: i32 },

    #[error(
        "a bullet net of architecture `{arch}` is {expected} bytes, but this file is {actual} bytes (a net of another architecture?)"
    )]
    Size { arch: &'static str, expected: usize, actual: usize },

    #[error(
        "a net of architecture `{arch}` is {expected} bytes once decompressed, but this file decompresses to {actual} bytes (a net of another architecture?)"
    )]
    DecompressedSize { arch: &'static str, expected: usize, actual: usize },

    #[error(
        "the CBNF header's {what} at offset {offset} is {found}, but a net of architecture `{arch}` has {expected}"
    )]
    Header { arch: &'static str, what: &'static str, offset: usize, found: String, expected: String },

    #[error("cannot decompress the net (zstd) at decompressed offset {offset}: {message}")]
    Decompress { offset: usize, message: String },

    #[error("{extra} unexpected bytes after the last layer stack, at offset {offset}")]
    TrailingBytes { offset: usize, extra: usize },

    #[error(
        "overflow proof: {value} ({ty}) can reach {range} at {at}, outside {ty}; loading it needs overflow allowed (LoadOptions::allow_overflow)"
    )]
    Overflow { value: String, at: String, range: crate::interval::Interval, ty: crate::interval::Int },

    #[error("no compiled architecture has header hash 0x{hash:08X} (version 0x{version:08X}); known: {known}")]
    UnknownArchitecture { version: u32, hash: u32, known: String },
}
