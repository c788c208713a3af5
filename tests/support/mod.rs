//! Shared by the integration tests: real nets (fetched into a cache on first
//! use) and the Stockfish reference files.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// The repository root (this module is shared by the root package's tests
/// and the member crates' tests).
pub fn repo() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    match manifest.join("tools/fetch-nets.py").is_file() {
        true => manifest,
        false => manifest.parent().expect("a member crate lives in the repository").to_owned(),
    }
}

/// The net cache: `$NNUE_NETS_DIR`, else `.cache/nets` in the repository.
pub fn nets_dir() -> PathBuf {
    std::env::var_os("NNUE_NETS_DIR").map(PathBuf::from).unwrap_or_else(|| repo().join(".cache/nets"))
}

/// The reference outputs (`tests/reference` in the repository, or
/// `$NNUE_REFERENCE_DIR`).
pub fn reference_dir() -> PathBuf {
    std::env::var_os("NNUE_REFERENCE_DIR").map(PathBuf::from).unwrap_or_else(|| repo().join("tests/reference"))
}

/// The path of net `name` (e.g. `nn-37f18f62d772.nnue`), fetched and verified
/// by `tools/fetch-nets.py` if it is not in the cache yet. A net that cannot
/// be had fails the test: a real-net test never passes without its net.
pub fn net(name: &str) -> PathBuf {
    static FETCHED: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let path = nets_dir().join(name);
    let mut fetched = FETCHED.lock().unwrap_or_else(|e| e.into_inner());
    if !fetched.iter().any(|n| n == name) {
        // The fetcher keeps a net whose SHA-256 is right and fetches it otherwise.
        let status = Command::new("python3")
            .arg(repo().join("tools/fetch-nets.py"))
            .arg("--dest")
            .arg(nets_dir())
            .arg(name)
            .status();
        match status {
            Ok(s) if s.success() => fetched.push(name.to_owned()),
            other => panic!(
                "net {name} is needed but could not be fetched into {} ({other:?}); run `python3 tools/fetch-nets.py`",
                nets_dir().display()
            ),
        }
    }
    assert!(path.is_file(), "{} missing after fetching", path.display());
    path
}

/// The path of net `name` in the nets directory (`nets_dir()`), for a net
/// that `tools/fetch-nets.py` does not fetch because it is not ours to
/// redistribute (Reckless's: `.ci/run` copies it there from `../shared`;
/// elsewhere copy it by hand). Without it a test cannot run: under
/// `CI=true` that fails the test; otherwise it is said on stderr, past the
/// test harness's capture, that `test` did not run, and the answer is `None`
/// (the caller returns).
pub fn copied_net(name: &str, test: &str) -> Option<PathBuf> {
    let path = nets_dir().join(name);
    if path.is_file() {
        return Some(path);
    }
    let why = format!(
        "net {name} is not in {} (not fetched: copy it there; see tests/nets/bullet/README.md)",
        nets_dir().display()
    );
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true: {why}");
    }
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "NOT RUN: {test}: {why}");
    None
}

/// A reference TSV: rows of column -> value.
pub struct Reference {
    pub path: PathBuf,
    pub rows: Vec<HashMap<String, String>>,
}

impl Reference {
    /// Reads `file` (relative to the reference directory). A missing file
    /// fails the test.
    pub fn read(file: &str) -> Reference {
        let path = reference_dir().join(file);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reference {} unreadable: {e}", path.display()));
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().expect("a header line").split('\t').collect();
        let rows = lines
            .filter(|l| !l.is_empty())
            .map(|l| header.iter().map(|h| h.to_string()).zip(l.split('\t').map(str::to_owned)).collect())
            .collect();
        Reference { path, rows }
    }
}

/// A FEN as a board, through shakmaty (accepting what Stockfish accepts).
pub fn board(fen: &str) -> nnue::runtime::Board {
    let chess = nnue::runtime::shakmaty::chess_from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    nnue::runtime::Board::from_position(&chess).unwrap()
}

/// Reads a file; for tests that corrupt nets.
pub fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The backends to test: every one this CPU runs. So that no backend is
/// skipped silently: `NNUE_EXPECT_ISAS` (comma-separated names) must equal
/// them exactly when set (the aarch64 runs under qemu set it), and under
/// `CI=true` on x86-64 Linux they must equal what the kernel's own CPU flag
/// list (`/proc/cpuinfo`) says this CPU has, so a detection bug cannot hide
/// a backend; the backends this CPU lacks are named on stderr (`.ci/run`
/// prints the same list once, from the same flags).
///
/// `NNUE_ONLY_ISAS` (comma-separated names) narrows the list to those
/// backends, each of which must be available: for runs under a slow
/// emulator (`tools/bochs-test.sh`), where the backends the host runs
/// natively need not run again.
pub fn isas() -> Vec<nnue::runtime::Isa> {
    use nnue::runtime::Isa;
    let mut available = Isa::available();
    if let Some(only) = isas_named("NNUE_ONLY_ISAS") {
        for isa in &only {
            assert!(available.contains(isa), "NNUE_ONLY_ISAS names {}, which this CPU cannot run", isa.name());
        }
        available.retain(|isa| only.contains(isa));
        eprintln!("NNUE_ONLY_ISAS: testing only {}", only.iter().map(|i| i.name()).collect::<Vec<_>>().join(", "));
        return available;
    }
    if let Some(expected) = isas_named("NNUE_EXPECT_ISAS") {
        assert_eq!(available, expected, "NNUE_EXPECT_ISAS");
    } else if cfg!(target_arch = "x86_64") && std::env::var("CI").is_ok_and(|v| v == "true") {
        let expected = x86_isas_from_cpuinfo();
        assert_eq!(available, expected, "CI=true: detection must find exactly the backends /proc/cpuinfo lists");
        let missing: Vec<&str> = Isa::NATIVE.iter().filter(|i| !available.contains(i)).map(|i| i.name()).collect();
        if !missing.is_empty() {
            eprintln!("NOT TESTED on this CPU (it lacks their instructions): {}", missing.join(", "));
        }
    }
    available
}

/// The backends named in environment variable `var` (comma-separated), if set.
fn isas_named(var: &str) -> Option<Vec<nnue::runtime::Isa>> {
    let names = std::env::var(var).ok()?;
    Some(
        names
            .split(',')
            .map(|n| nnue::runtime::Isa::from_name(n.trim()).unwrap_or_else(|e| panic!("{var}: {e}")))
            .collect(),
    )
}

/// The x86 backends whose instructions `/proc/cpuinfo`'s flags list.
fn x86_isas_from_cpuinfo() -> Vec<nnue::runtime::Isa> {
    use nnue::runtime::Isa;
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").expect("CI=true: /proc/cpuinfo must be readable");
    let flags: Vec<&str> = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("flags").map(|rest| rest.trim_start_matches([' ', '\t', ':'])))
        .expect("/proc/cpuinfo has a flags line")
        .split_whitespace()
        .collect();
    let has = |all: &[&str]| all.iter().all(|f| flags.contains(f));
    let avx2 = has(&["avx2", "fma", "popcnt"]);
    let avx512 = avx2 && has(&["avx512f", "avx512bw", "avx512vl"]);
    let mut isas = vec![Isa::Scalar];
    isas.extend(
        [
            (Isa::Avx2, avx2),
            (Isa::AvxVnni, avx2 && has(&["avx_vnni"])),
            (Isa::Avx512, avx512),
            (Isa::Avx512Vnni, avx512 && has(&["avx512_vnni"])),
        ]
        .into_iter()
        .filter_map(|(isa, ok)| ok.then_some(isa)),
    );
    isas
}

/// Starting points with castling rights, en-passant chances and promotions
/// close, so random games meet every kind of move.
pub const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4",
    "8/1P4k1/8/8/8/8/5Kp1/8 w - - 0 1",
];
