//! Any architecture behind a vtable ([`AnyNetwork`]), for tools that handle
//! many (the CLI): each compiled architecture's facts ([`ArchInfo`]) and
//! loaders ([`ArchEntry`]), and the architectures a file's header names
//! ([`candidates`]).

use crate::engine::evaluation::BucketValues;
use crate::error::LoadError;

/// A layer of a stack, for descriptions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayerInfo {
    pub name: &'static str,
    pub kind: &'static str,
    pub inputs: usize,
    pub outputs: usize,
}

/// Static facts of a compiled architecture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArchInfo {
    pub name: &'static str,
    pub description: &'static str,
    pub version: u32,
    pub header_hash: u32,
    pub transformer_hash: u32,
    pub layer_stack_hash: u32,
    pub feature_set: &'static str,
    pub feature_dimensions: usize,
    pub transformer_dimensions: usize,
    pub psqt_buckets: usize,
    /// Bytes of the transformer's parameters in memory: biases, every
    /// feature set's weights (of its own type) and PSQT weights.
    pub transformer_bytes: usize,
    pub layer_stacks: usize,
    pub layers: &'static [LayerInfo],
    /// A bullet-format net: the size of its files (they have no header);
    /// `None` for Stockfish's format.
    pub file_bytes: Option<usize>,
    /// A bullet net whose files start with a CBNF header: what it says (a
    /// file is recognised by it, [`cbnf_candidates`]).
    pub cbnf: Option<crate::format::cbnf::Cbnf>,
}

/// A loaded network of any architecture, behind a vtable: what tools that
/// handle many architectures (the CLI) use. Engines use the concrete type.
pub trait AnyNetwork: Send + Sync {
    /// The architecture's facts.
    fn arch(&self) -> &'static ArchInfo;
    /// The description stored in the file.
    fn description(&self) -> &str;
    /// The backend it runs on.
    fn isa(&self) -> crate::Isa;
    /// Non-zero weights in the padding columns of affine layers (see
    /// [`crate::params::Affine::nonzero_padding`]).
    fn nonzero_padding(&self) -> usize;
    /// The concrete network, for downcasting to its architecture's type.
    fn as_any(&self) -> &dyn std::any::Any;
    /// Evaluates `pos` from scratch in every bucket.
    fn evaluate_board(&self, pos: &crate::Board) -> BucketValues;
    /// The bounds on every integer the net computes, proven when it was
    /// loaded.
    fn overflow_proof(&self) -> &crate::OverflowProof;
}

/// Loads a net file in memory as the options say.
pub type Loader = fn(&[u8], crate::LoadOptions) -> Result<Box<dyn AnyNetwork>, LoadError>;

/// Loads the net file at a path as the options say.
pub type FileLoader = fn(&std::path::Path, crate::LoadOptions) -> Result<Box<dyn AnyNetwork>, LoadError>;

/// A compiled architecture that can load a net file into an [`AnyNetwork`].
#[derive(Debug, Clone, Copy)]
pub struct ArchEntry {
    pub info: &'static ArchInfo,
    pub load: Loader,
    pub load_file: FileLoader,
}

/// For a file starting with a CBNF header (`head`: at least its first 64
/// bytes): the architectures whose header it is, in the order of
/// `entries`; the first one's error naming the field that differs if there
/// is none. `None` for a file without that header.
pub fn cbnf_candidates<'e>(entries: &'e [ArchEntry], head: &[u8]) -> Option<Result<Vec<&'e ArchEntry>, LoadError>> {
    cbnf_matches(entries, |e| e.info, head)
}

/// [`cbnf_candidates`] over any list of architectures, `info` giving each
/// one's facts (the C API's table, for one).
pub fn cbnf_matches<'e, T>(
    entries: &'e [T],
    info: impl Fn(&T) -> &'static ArchInfo,
    head: &[u8],
) -> Option<Result<Vec<&'e T>, LoadError>> {
    if !head.starts_with(b"CBNF") {
        return None;
    }
    let mut first_error = None;
    let found: Vec<&T> = entries
        .iter()
        .filter(|e| {
            let info = info(e);
            match info.cbnf.map(|h| h.read(head, info.name)) {
                Some(Ok(_)) => true,
                Some(Err(err)) => {
                    first_error.get_or_insert(err);
                    false
                }
                None => false,
            }
        })
        .collect();
    Some(match (found.is_empty(), first_error) {
        (false, _) => Ok(found),
        (true, Some(err)) => Err(err),
        (true, None) => Err(LoadError::Header {
            arch: "?",
            what: "magic",
            offset: 0,
            found: "\"CBNF\"".to_owned(),
            expected: "no architecture with a CBNF header compiled in".to_owned(),
        }),
    })
}

/// The architectures whose version and header hash match `bytes`, in the
/// order of `entries` (several when their hash words coincide); an error
/// naming the known hashes if there is none.
pub fn candidates<'e>(entries: &'e [ArchEntry], bytes: &[u8]) -> Result<Vec<&'e ArchEntry>, LoadError> {
    candidates_for(entries, &crate::format::reader::NetReader::new(bytes, "?").header()?)
}

/// The architectures whose version and header hash are `header`'s (see
/// [`candidates`]).
pub fn candidates_for<'e>(
    entries: &'e [ArchEntry],
    header: &crate::format::reader::Header,
) -> Result<Vec<&'e ArchEntry>, LoadError> {
    let found: Vec<&ArchEntry> =
        entries.iter().filter(|e| e.info.version == header.version && e.info.header_hash == header.hash).collect();
    if found.is_empty() {
        return Err(LoadError::UnknownArchitecture {
            version: header.version,
            hash: header.hash,
            known: entries
                .iter()
                .map(|e| format!("{} 0x{:08X}", e.info.name, e.info.header_hash))
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    Ok(found)
}
