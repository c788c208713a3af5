//! `--arch FILE.ron` for a file this binary was not built with: the file is
//! compiled once with `nnue!`, exactly as an engine's crate would compile
//! it, into a binary of its own (this command with that architecture added
//! to the shipped ones), which is cached and then run with the same
//! arguments.
//!
//! Why a build and not an interpreter: the outputs are then those of
//! `nnue!` by construction (the same generated code, every backend's
//! kernels, the same overflow proof and load checks), and `bench` times
//! what an engine would run. The cost is a build the first time a file is
//! used (about a minute: the runtime comes from the cache's own target
//! directory after the first file) and Rust's `cargo` on the PATH; later
//! runs start the cached binary at once.
//!
//! The cache: `$NNUE_CACHE_DIR`, else `$XDG_CACHE_HOME/nnue`, else
//! `~/.cache/nnue`; under it `archs/<module>-<key>/` holds the crate (its
//! `arch.ron` a copy of the file) and `archs/target/` the build. The key
//! hashes the file's text, this binary's version and commit, and where its
//! sources are, so an edited file or another `nnue` gets a binary of its
//! own.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// Set in the environment of the binary built for a file: it must find the
/// file compiled in (else building again would loop).
const BUILT_FOR: &str = "NNUE_BUILT_FOR_ARCH";

/// Runs this command's arguments in the binary built for `arch` (building
/// it first if it is not cached).
pub fn run(arch: &Path) -> ExitCode {
    match binary_for(arch).and_then(|binary| exec(&binary, arch)) {
        Ok(code) => code,
        Err(message) => crate::fail(&message),
    }
}

/// The cached binary for `arch`, built if it is missing or (for a binary
/// built from a modified work tree) out of date.
fn binary_for(arch: &Path) -> Result<PathBuf, String> {
    if std::env::var_os(BUILT_FOR).is_some() {
        return Err(format!(
            "{}: the binary built for this architecture file does not have it compiled in",
            arch.display()
        ));
    }
    let parsed = crate::expand::read_arch(arch)?;
    let source = std::fs::read_to_string(arch).map_err(|e| format!("cannot read {}: {e}", arch.display()))?;
    let file = std::fs::canonicalize(arch).unwrap_or_else(|_| arch.to_path_buf()).display().to_string();
    let dependencies = dependencies();
    let key = fnv1a(&[crate::VERSION, &dependencies.manifest, &file, &source]);
    let cache = cache_dir()?.join("archs");
    let name = format!("nnue-arch-{}-{key:016x}", parsed.module.replace('_', "-"));
    let crate_dir = cache.join(&name);
    let target = cache.join("target");
    let binary = target.join("release").join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    // A released `nnue` and its dependencies do not change: a binary built
    // once is reused as it is. Sources in a work tree may have changed
    // since: cargo decides (a no-op when nothing did).
    if binary.is_file() && !dependencies.may_change {
        return Ok(binary);
    }
    write_crate(&crate_dir, &name, &parsed, &file, &source, &dependencies)?;
    if !binary.is_file() {
        eprintln!(
            "nnue: {} is not one of the shipped architectures: building a binary for it once ({}; about a minute the first time)",
            arch.display(),
            crate_dir.display()
        );
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let status = Command::new(&cargo)
        .args(["build", "--release", "--quiet", "--manifest-path"])
        .arg(crate_dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        .status()
        .map_err(|e| {
            format!(
                "{}: not compiled into this binary, and building it needs Rust's cargo ({}: {e}); or use `nnue!` in your crate",
                arch.display(),
                Path::new(&cargo).display()
            )
        })?;
    if !status.success() {
        return Err(format!(
            "{}: building the binary for it in {} failed ({status})",
            arch.display(),
            crate_dir.display()
        ));
    }
    Ok(binary)
}

/// Runs `binary` with this process's arguments; its exit status is ours.
fn exec(binary: &Path, arch: &Path) -> Result<ExitCode, String> {
    let mut command = Command::new(binary);
    command.args(std::env::args_os().skip(1)).env(BUILT_FOR, arch);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let error = command.exec();
        Err(format!("cannot run {}: {error}", binary.display()))
    }
    #[cfg(not(unix))]
    {
        let status = command.status().map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
        Ok(ExitCode::from(status.code().map_or(1, |c| c as u8)))
    }
}

/// How the built crate depends on `nnue` and this command.
struct Dependencies {
    /// The `[dependencies]` lines.
    manifest: String,
    /// The lock file to start from (this workspace's), if any.
    lock: Option<PathBuf>,
    /// Whether the sources may change under the same version (a work tree).
    may_change: bool,
}

/// This binary's own sources where they are still on disk (a work tree, or
/// cargo's copy of the published crate beside its `nnue` sibling): the
/// built binary then has exactly this code. Otherwise the published crates
/// of this version.
fn dependencies() -> Dependencies {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = cli.parent().filter(|root| root.join("nnue-runtime").is_dir() && root.join("Cargo.toml").is_file());
    match root {
        Some(root) if cli.join("Cargo.toml").is_file() => Dependencies {
            manifest: format!(
                "nnue = {{ path = {} }}\nnnue-cli = {{ path = {} }}\n",
                toml_string(&root.display().to_string()),
                toml_string(&cli.display().to_string())
            ),
            lock: Some(root.join("Cargo.lock")).filter(|lock| lock.is_file()),
            may_change: root.join(".git").exists(),
        },
        _ => Dependencies {
            manifest: format!("nnue = \"={0}\"\nnnue-cli = \"={0}\"\n", env!("CARGO_PKG_VERSION")),
            lock: None,
            may_change: false,
        },
    }
}

/// Writes the crate: a manifest, the architecture file and a `main` that
/// adds it to the shipped architectures.
fn write_crate(
    dir: &Path,
    name: &str,
    arch: &nnue_spec::Arch,
    file: &str,
    source: &str,
    dependencies: &Dependencies,
) -> Result<(), String> {
    let write = |path: &Path, text: &str| {
        let unchanged = std::fs::read_to_string(path).is_ok_and(|old| old == text);
        if unchanged {
            Ok(())
        } else {
            std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
    };
    std::fs::create_dir_all(dir.join("src")).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let manifest = format!(
        "# Made by `nnue` for {file}: the `nnue` command with that architecture compiled in.\n\
         [package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\n{}\n[workspace]\n",
        dependencies.manifest
    );
    write(&dir.join("Cargo.toml"), &manifest)?;
    write(&dir.join("arch.ron"), source)?;
    let incremental = if nnue_codegen::implements_network(arch) { "" } else { ", not_incremental" };
    let main = format!(
        "//! `nnue` with the architecture of {file} compiled in besides the shipped ones.\n\n\
         nnue::nnue!(include \"arch.ron\");\n\n\
         static EXTRA: [nnue_cli::Compiled; 1] = [nnue_cli::compiled!({module}, {file:?}, include_str!(\"../arch.ron\"){incremental})];\n\n\
         fn main() -> std::process::ExitCode {{\n    nnue_cli::main_with(&EXTRA)\n}}\n",
        module = arch.module,
    );
    write(&dir.join("src/main.rs"), &main)?;
    if let Some(lock) = &dependencies.lock
        && !dir.join("Cargo.lock").exists()
    {
        std::fs::copy(lock, dir.join("Cargo.lock")).map_err(|e| format!("cannot copy {}: {e}", lock.display()))?;
    }
    Ok(())
}

/// Where built binaries are kept (see the module's documentation).
fn cache_dir() -> Result<PathBuf, String> {
    let from = |var: &str| std::env::var_os(var).filter(|v| !v.is_empty()).map(PathBuf::from);
    from("NNUE_CACHE_DIR")
        .or_else(|| from("XDG_CACHE_HOME").map(|d| d.join("nnue")))
        .or_else(|| from("HOME").map(|d| d.join(".cache/nnue")))
        .ok_or_else(|| "no cache directory for built architectures: set NNUE_CACHE_DIR".to_owned())
}

/// A TOML basic string holding `s`.
fn toml_string(s: &str) -> String {
    let mut quoted = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            c if c.is_control() => quoted.push_str(&format!("\\u{:04X}", c as u32)),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// FNV-1a over the parts, each followed by a zero byte: a key that stays
/// the same from one run (and Rust version) to the next.
fn fnv1a(parts: &[&str]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in parts.iter().flat_map(|p| p.bytes().chain([0])) {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}
