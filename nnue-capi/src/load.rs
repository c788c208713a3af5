//! Loading a net: the load options of a call's backend name and flags, and
//! the architecture, named or found by the net's header among the shipped
//! ones.

use crate::archs::{Arch, Loaded, Loaders, SHIPPED};
use crate::erased::ErasedNet;
use crate::error::{Error, Failure};
use crate::types::NNUE_LOAD_ALLOW_OVERFLOW;
use nnue::runtime::{Isa, LoadOptions};
use std::io::Read;
use std::path::Path;

/// Where the net's bytes are.
#[derive(Clone, Copy)]
pub(crate) enum Source<'a> {
    Bytes(&'a [u8]),
    File(&'a Path),
}

/// The options of a backend name (`None`: the one `NNUE_ISA` names, else
/// the best this CPU runs) and load flags.
pub(crate) fn options(isa: Option<&str>, flags: u32) -> Result<LoadOptions, Failure> {
    if flags & !NNUE_LOAD_ALLOW_OVERFLOW != 0 {
        return Err(Failure::new(
            Error::Flags,
            format!("flags 0x{flags:X}: only NNUE_LOAD_ALLOW_OVERFLOW (1) is known"),
        ));
    }
    let isa = isa.map(Isa::from_name).transpose().map_err(|e| Failure::new(Error::Isa, e.to_string()))?;
    Ok(LoadOptions { isa, allow_overflow: flags & NNUE_LOAD_ALLOW_OVERFLOW != 0 })
}

/// Loads the net at `source`: as architecture `arch` (its name, `sfnnv10`,
/// or its file under `archs/`, `sfnnv10.ron`, `bullet/obsidian.ron`) or,
/// without one, as the shipped architecture whose version and header hash
/// the file's header has (or whose CBNF header it starts with).
pub(crate) fn load(source: Source, arch: Option<&str>, options: LoadOptions) -> Result<Box<dyn ErasedNet>, Failure> {
    let found = match arch {
        Some(name) => vec![named(name)?],
        None => by_header(&head(source)?)?,
    };
    let incremental: Vec<(&Arch, Loaders)> = found.iter().filter_map(|a| a.loaders.map(|l| (*a, l))).collect();
    if incremental.is_empty() {
        let names: Vec<&str> = found.iter().map(|a| a.info.name).collect();
        let detail = format!("{}: no accumulator stack for this architecture", names.join(", "));
        return Err(Failure::new(Error::NotIncremental, detail));
    }
    best_of(&incremental, |loaders| match source {
        Source::Bytes(bytes) => (loaders.bytes)(bytes, options),
        Source::File(path) => (loaders.file)(path, options),
    })
}

/// The shipped architecture named `name`.
fn named(name: &str) -> Result<&'static Arch, Failure> {
    let file = |a: &Arch| a.file == name || a.file.strip_suffix(".ron") == Some(name);
    SHIPPED.iter().find(|a| a.info.name == name || file(a)).ok_or_else(|| {
        let known: Vec<&str> = SHIPPED.iter().map(|a| a.info.name).collect();
        Failure::new(Error::UnknownArch, format!("`{name}` (shipped: {})", known.join(", ")))
    })
}

/// The first bytes of a net, as many as a CBNF header (64) where it has
/// them: a Stockfish net's version and header hash are its first two
/// words.
fn head(source: Source) -> Result<Vec<u8>, Failure> {
    const HEAD: usize = nnue::runtime::format::cbnf::BYTES;
    let head = match source {
        Source::Bytes(bytes) => bytes[..bytes.len().min(HEAD)].to_vec(),
        Source::File(path) => {
            let io = |e: std::io::Error| Failure::new(Error::Io, format!("cannot read {}: {e}", path.display()));
            let mut head = Vec::with_capacity(HEAD);
            std::fs::File::open(path).and_then(|f| f.take(HEAD as u64).read_to_end(&mut head)).map_err(io)?;
            head
        }
    };
    if head.len() < 8 {
        return Err(Failure::new(Error::Format, format!("{} bytes: a net's header is longer", head.len())));
    }
    Ok(head)
}

/// The shipped architectures whose files have a header like `head`'s: a
/// CBNF header, or the version and hash of a Stockfish net (several where
/// their hash words coincide, oldest first).
fn by_header(head: &[u8]) -> Result<Vec<&'static Arch>, Failure> {
    if let Some(found) = nnue::runtime::cbnf_matches(SHIPPED, |a| a.info, head) {
        return found.map_err(|e| Failure::new(Error::UnknownArch, e.to_string()));
    }
    let word = |at: usize| u32::from_le_bytes(head[at..at + 4].try_into().expect("four bytes"));
    let (version, hash) = (word(0), word(4));
    let headed = || SHIPPED.iter().filter(|a| a.info.file_bytes.is_none());
    let found: Vec<&Arch> = headed().filter(|a| a.info.version == version && a.info.header_hash == hash).collect();
    if found.is_empty() {
        let known: Vec<String> = headed().map(|a| format!("{} 0x{:08X}", a.info.name, a.info.header_hash)).collect();
        let detail = format!(
            "no shipped architecture has header hash 0x{hash:08X} (version 0x{version:08X}); known: {}; a bullet net \
             has no header: name its architecture",
            known.join(", ")
        );
        return Err(Failure::new(Error::UnknownArch, detail));
    }
    Ok(found)
}

/// The network that `load` gives with one of `found`. If several read the
/// file, the one whose padding weights are most often zero wins (the wider
/// architecture would see the narrower one's zero padding as weights), and
/// on a tie the first; as the `nnue` command chooses. Fails with the first
/// one's error if none reads it.
fn best_of(found: &[(&Arch, Loaders)], load: impl Fn(&Loaders) -> Loaded) -> Result<Box<dyn ErasedNet>, Failure> {
    let mut best: Option<Box<dyn ErasedNet>> = None;
    let mut first_error = None;
    for (_, loaders) in found {
        match load(loaders) {
            Ok(net) if best.as_ref().is_none_or(|b| net.any().nonzero_padding() < b.any().nonzero_padding()) => {
                best = Some(net)
            }
            Ok(_) => {}
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    best.ok_or_else(|| first_error.expect("`found` is never empty").into())
}
