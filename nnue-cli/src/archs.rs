//! Every architecture shipped in `archs/`, compiled, and the registry the
//! commands search by header hash.

use nnue::nnue;
use nnue::runtime::{candidates, candidates_for, AnyNetwork, ArchEntry, LoadError, LoadOptions, NetReader};
use std::path::Path;

nnue!(include "sfnnv1.ron");
nnue!(include "sfnnv2.ron");
nnue!(include "sfnnv3.ron");
nnue!(include "sfnnv4.ron");
nnue!(include "sfnnv5.ron");
nnue!(include "sfnnv6.ron");
nnue!(include "sfnnv7.ron");
nnue!(include "sfnnv8.ron");
nnue!(include "sfnnv9.ron");
nnue!(include "sfnnv9-small.ron");
nnue!(include "sfnnv10.ron");
nnue!(include "sfnnv16.ron");
nnue!(include "bullet/obsidian.ron");
nnue!(include "bullet/akimbo.ron");

/// The compiled architectures. Where two share a header hash (Stockfish's
/// hash ignores layer input widths: SFNNv4 and SFNNv5 nets carry the same
/// words), [`load`] decides; the narrower comes first.
pub const ARCHITECTURES: &[ArchEntry] = &[
    sfnnv1::ENTRY,
    sfnnv2::ENTRY,
    sfnnv3::ENTRY,
    sfnnv4::ENTRY,
    sfnnv5::ENTRY,
    sfnnv6::ENTRY,
    sfnnv7::ENTRY,
    sfnnv8::ENTRY,
    sfnnv9::ENTRY,
    sfnnv9_small::ENTRY,
    sfnnv10::ENTRY,
    sfnnv16::ENTRY,
];

/// Every compiled architecture by its shipped file (under `archs/`) and
/// that file's text: what `--arch FILE.ron` names. Bullet nets have no
/// header to find their architecture by, so they are loaded only so.
const BY_FILE: &[(&str, &str, ArchEntry)] = &[
    ("sfnnv1.ron", include_str!("../../archs/sfnnv1.ron"), sfnnv1::ENTRY),
    ("sfnnv2.ron", include_str!("../../archs/sfnnv2.ron"), sfnnv2::ENTRY),
    ("sfnnv3.ron", include_str!("../../archs/sfnnv3.ron"), sfnnv3::ENTRY),
    ("sfnnv4.ron", include_str!("../../archs/sfnnv4.ron"), sfnnv4::ENTRY),
    ("sfnnv5.ron", include_str!("../../archs/sfnnv5.ron"), sfnnv5::ENTRY),
    ("sfnnv6.ron", include_str!("../../archs/sfnnv6.ron"), sfnnv6::ENTRY),
    ("sfnnv7.ron", include_str!("../../archs/sfnnv7.ron"), sfnnv7::ENTRY),
    ("sfnnv8.ron", include_str!("../../archs/sfnnv8.ron"), sfnnv8::ENTRY),
    ("sfnnv9.ron", include_str!("../../archs/sfnnv9.ron"), sfnnv9::ENTRY),
    ("sfnnv9-small.ron", include_str!("../../archs/sfnnv9-small.ron"), sfnnv9_small::ENTRY),
    ("sfnnv10.ron", include_str!("../../archs/sfnnv10.ron"), sfnnv10::ENTRY),
    ("sfnnv16.ron", include_str!("../../archs/sfnnv16.ron"), sfnnv16::ENTRY),
    ("bullet/obsidian.ron", include_str!("../../archs/bullet/obsidian.ron"), obsidian::ENTRY),
    ("bullet/akimbo.ron", include_str!("../../archs/bullet/akimbo.ron"), akimbo::ENTRY),
];

/// The compiled architecture that the architecture file at `path`
/// describes: one whose checked form equals the file's.
pub fn entry_for(path: &Path) -> Result<ArchEntry, String> {
    let arch = crate::expand::read_arch(path)?;
    BY_FILE
        .iter()
        .find(|(_, source, _)| nnue_spec::parse(source).is_ok_and(|shipped| shipped == arch))
        .map(|&(_, _, entry)| entry)
        .ok_or_else(|| {
            let shipped: Vec<&str> = BY_FILE.iter().map(|(file, ..)| *file).collect();
            format!(
                "{}: architecture `{}` is not compiled into this binary, which has the shipped ones (archs/{}); for your own, use `nnue!` in your crate",
                path.display(),
                arch.name,
                shipped.join(", archs/")
            )
        })
}

/// Loads a net file: with `arch`, as that architecture (see
/// [`entry_for`]); otherwise by its header ([`load`]). A regular file is
/// read as it is decoded; anything else (a pipe, which can be read only
/// once) is read whole first.
pub fn load_file(net: &Path, arch: Option<&Path>, options: LoadOptions) -> Result<Box<dyn AnyNetwork>, String> {
    let loaded = if std::fs::metadata(net).is_ok_and(|m| !m.is_file()) {
        let bytes = nnue::runtime::read_file(net).map_err(|e| e.to_string())?;
        match arch {
            Some(arch) => (entry_for(arch)?.load)(&bytes, options),
            None => candidates(ARCHITECTURES, &bytes).and_then(|found| best_of(found, |entry| (entry.load)(&bytes, options))),
        }
    } else {
        match arch {
            Some(arch) => (entry_for(arch)?.load_file)(net, options),
            None => load(net, options),
        }
    };
    loaded.map_err(|e| match e {
        LoadError::UnknownArchitecture { .. } => {
            format!("{}: {e} (a bullet net has no header: name its architecture with --arch FILE.ron)", net.display())
        }
        e => format!("{}: {e}", net.display()),
    })
}

/// Loads the net file at `path` as `options` say with an architecture whose
/// version and header hash match and which reads the whole file (see
/// [`best_of`]).
pub fn load(path: &Path, options: LoadOptions) -> Result<Box<dyn AnyNetwork>, LoadError> {
    let header = NetReader::open(path, "?")?.header()?;
    best_of(candidates_for(ARCHITECTURES, &header)?, |entry| (entry.load_file)(path, options))
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

/// Evaluates `$body` with `$bind` bound to `$net` (a `&dyn AnyNetwork`
/// loaded by [`load`]) as a reference to its concrete network type:
/// `Some(result)`, or `None` for an architecture whose network does not
/// implement `nnue::runtime::Network` (none of the shipped ones; a composed
/// transformer with two per-piece feature sets would not).
macro_rules! with_network {
    ($net:expr, $bind:ident => $body:expr) => {
        with_network!(@arms $net, $bind => $body;
            sfnnv1, sfnnv2, sfnnv3, sfnnv4, sfnnv5, sfnnv6, sfnnv7, sfnnv8, sfnnv9, sfnnv9_small, sfnnv10, sfnnv16, obsidian, akimbo)
    };
    (@arms $net:expr, $bind:ident => $body:expr; $($arch:ident),*) => {{
        let any = nnue::runtime::AnyNetwork::as_any($net);
        $(if let Some($bind) = any.downcast_ref::<$crate::archs::$arch::Network>() {
            Some($body)
        } else)* {
            None
        }
    }};
}
pub(crate) use with_network;

/// The error of a command that needs an incremental accumulator, for an
/// architecture without one.
pub fn not_incremental(network: &dyn AnyNetwork) -> String {
    format!(
        "architecture {} has no incremental accumulator (a piece has more than one per-piece feature); use `nnue eval`",
        network.arch().name
    )
}
