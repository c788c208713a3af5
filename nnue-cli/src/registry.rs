//! The architectures a binary has compiled in, and loading a net with one of
//! them: by `--arch FILE.ron` (the compiled architecture whose checked form
//! equals the file's) or by the net's header hash.

use nnue::runtime::shakmaty::bench::{BenchPosition, Operation};
use nnue::runtime::shakmaty::walk::WalkStats;
use nnue::runtime::{
    AnyNetwork, ArchEntry, LoadError, LoadOptions, NetReader, candidates, candidates_for, cbnf_candidates,
};
use std::io::Write;
use std::path::Path;

/// One compiled architecture: its file, the file's text, its loaders and
/// what the commands that make moves call on it. Made by [`crate::compiled!`].
pub struct Compiled {
    /// The file it was compiled from: `sfnnv9.ron` and `bullet/obsidian.ron`
    /// for the shipped ones (under `archs/`), a path for a user's.
    pub file: &'static str,
    /// That file's text.
    pub source: &'static str,
    pub entry: ArchEntry,
    /// The network as [`Incremental`], or `None` for an architecture whose
    /// network does not implement `nnue::runtime::Network` (a composed
    /// transformer with two per-piece feature sets).
    pub incremental: for<'n> fn(&'n dyn AnyNetwork) -> Option<&'n dyn Incremental>,
}

/// `Compiled` for the module `nnue!` generated: `compiled!(sfnnv9,
/// "sfnnv9.ron", include_str!(...))`, with `not_incremental` last for an
/// architecture whose network does not implement `nnue::runtime::Network`.
#[macro_export]
macro_rules! compiled {
    ($module:ident, $file:expr, $source:expr) => {
        $crate::Compiled {
            file: $file,
            source: $source,
            entry: $module::ENTRY,
            incremental: |network| {
                ::core::option::Option::map(
                    $crate::__private::AnyNetwork::as_any(network).downcast_ref::<$module::Network>(),
                    |network| network as &dyn $crate::Incremental,
                )
            },
        }
    };
    ($module:ident, $file:expr, $source:expr, not_incremental) => {
        $crate::Compiled {
            file: $file,
            source: $source,
            entry: $module::ENTRY,
            incremental: |_| ::core::option::Option::None,
        }
    };
}

/// How `nnue bench` times each operation.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// Timed passes over all positions (the median is reported).
    pub runs: usize,
    /// Threads sharing the network for `walk`.
    pub threads: usize,
    /// How many times `move` makes its move inside one timing.
    pub repeat: usize,
}

/// What `nnue bench` and `nnue walk` run on a network that implements
/// `nnue::runtime::Network`, whatever its type (implemented for every such
/// network in `incremental.rs`).
pub trait Incremental {
    /// `nnue bench`'s medians, one per operation.
    fn measure(&self, positions: Vec<BenchPosition>, ops: &[Operation], timing: Timing) -> Vec<f64>;

    /// `nnue walk`'s rows and totals.
    fn walk_all(
        &self,
        roots: &[(String, shakmaty::Chess)],
        depth: usize,
        verify: bool,
        out: &mut dyn Write,
    ) -> std::io::Result<WalkStats>;
}

/// The architectures of one binary: the shipped ones, then those it was
/// built with besides (a user's file, see [`crate::own_arch`]).
#[derive(Clone, Copy)]
pub struct Registry {
    pub shipped: &'static [Compiled],
    pub extra: &'static [Compiled],
}

impl Registry {
    pub fn all(&self) -> impl Iterator<Item = &'static Compiled> + use<> {
        self.shipped.iter().chain(self.extra)
    }

    /// The compiled architecture that the architecture file at `path`
    /// describes: one whose checked form equals the file's. `None` when the
    /// file is valid but none is.
    pub fn find(&self, path: &Path) -> Result<Option<&'static Compiled>, String> {
        let arch = crate::expand::read_arch(path)?;
        Ok(self.all().find(|c| nnue_spec::parse(c.source).is_ok_and(|compiled| compiled == arch)))
    }

    /// [`Self::find`], an error when the file is not compiled in.
    pub fn entry_for(&self, path: &Path) -> Result<ArchEntry, String> {
        self.find(path)?
            .map(|c| c.entry)
            .ok_or_else(|| format!("{}: architecture is not compiled into this binary", path.display()))
    }

    /// The architectures a net is looked up in by its header: those whose
    /// file has one (not bullet's), in order.
    fn by_header(&self) -> Vec<ArchEntry> {
        self.all().map(|c| c.entry).filter(|e| e.info.file_bytes.is_none()).collect()
    }

    /// The architectures whose files start with a CBNF header, in order.
    fn by_cbnf(&self) -> Vec<ArchEntry> {
        self.all().map(|c| c.entry).filter(|e| e.info.cbnf.is_some()).collect()
    }

    /// Loads a net file: with `arch`, as that architecture (see
    /// [`Self::entry_for`]); otherwise by its header ([`Self::load`]). A
    /// regular file is read as it is decoded; anything else (a pipe, which
    /// can be read only once) is read whole first.
    pub fn load_file(
        &self,
        net: &Path,
        arch: Option<&Path>,
        options: LoadOptions,
    ) -> Result<Box<dyn AnyNetwork>, String> {
        let loaded = if std::fs::metadata(net).is_ok_and(|m| !m.is_file()) {
            let bytes = nnue::runtime::read_file(net).map_err(|e| e.to_string())?;
            match arch {
                Some(arch) => (self.entry_for(arch)?.load)(&bytes, options),
                None => {
                    let (cbnf, entries) = (self.by_cbnf(), self.by_header());
                    cbnf_candidates(&cbnf, &bytes)
                        .unwrap_or_else(|| candidates(&entries, &bytes))
                        .and_then(|found| best_of(found, |entry| (entry.load)(&bytes, options)))
                }
            }
        } else {
            match arch {
                Some(arch) => (self.entry_for(arch)?.load_file)(net, options),
                None => self.load(net, options),
            }
        };
        loaded.map_err(|e| match e {
            LoadError::UnknownArchitecture { .. } => {
                format!(
                    "{}: {e} (a bullet net has no header: name its architecture with --arch FILE.ron)",
                    net.display()
                )
            }
            e => format!("{}: {e}", net.display()),
        })
    }

    /// Loads the net file at `path` as `options` say with an architecture
    /// whose version and header hash match and which reads the whole file
    /// (see [`best_of`]); or, for a file starting with a CBNF header, with
    /// an architecture whose header it is.
    pub fn load(&self, path: &Path, options: LoadOptions) -> Result<Box<dyn AnyNetwork>, LoadError> {
        let mut head = Vec::with_capacity(nnue::runtime::format::cbnf::BYTES);
        std::fs::File::open(path)
            .and_then(|f| std::io::Read::read_to_end(&mut std::io::Read::take(f, head.capacity() as u64), &mut head))
            .map_err(|source| LoadError::Io { path: path.to_owned(), source })?;
        if let Some(found) = cbnf_candidates(&self.by_cbnf(), &head) {
            return best_of(found?, |entry| (entry.load_file)(path, options));
        }
        let header = NetReader::open(path, "?")?.header()?;
        let entries = self.by_header();
        best_of(candidates_for(&entries, &header)?, |entry| (entry.load_file)(path, options))
    }

    /// `network` as [`Incremental`], or the error of a command that needs
    /// an incremental accumulator for an architecture without one.
    pub fn incremental<'n>(&self, network: &'n dyn AnyNetwork) -> Result<&'n dyn Incremental, String> {
        self.all().find_map(|c| (c.incremental)(network)).ok_or_else(|| {
            format!(
                "architecture {} has no incremental accumulator (a piece has more than one per-piece feature); use `nnue eval`",
                network.arch().name
            )
        })
    }
}

/// The network `load` gives with one of `found` (architectures whose
/// version and header hash match). If several read the file, the one whose
/// padding weights are most often zero wins (the wider architecture would
/// see the narrower one's zero padding as weights; the narrower one would
/// see the wider one's trained weights as padding), and on a tie the first
/// listed. Fails with the first candidate's error if none reads the file.
fn best_of(
    found: Vec<&ArchEntry>,
    load: impl Fn(&ArchEntry) -> Result<Box<dyn AnyNetwork>, LoadError>,
) -> Result<Box<dyn AnyNetwork>, LoadError> {
    let mut best: Option<Box<dyn AnyNetwork>> = None;
    let mut first_error = None;
    for entry in found {
        match load(entry) {
            Ok(net) if best.as_ref().is_none_or(|b| net.nonzero_padding() < b.nonzero_padding()) => best = Some(net),
            Ok(_) => {}
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    best.ok_or_else(|| first_error.expect("the candidates are never none"))
}
