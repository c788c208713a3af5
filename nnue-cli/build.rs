//! Records which commit the `nnue` binary is built from, for `nnue --version`
//! and the speed comparisons that report it (`tools/stockfish-compare`,
//! `tools/bullet-compare`): `NNUE_BUILD_COMMIT` is the short hash, with
//! `-modified` when tracked files of the work tree differ from it, or
//! `unknown` outside a git checkout.

use std::path::Path;
use std::process::Command;

/// The workspace's sources, relative to this package: a change to any of
/// them may change the binary, and so whether the tree is modified.
const SOURCES: [&str; 9] = [
    "src",
    "../src",
    "../archs",
    "../nnue-spec/src",
    "../nnue-codegen/src",
    "../nnue-macros/src",
    "../nnue-runtime/src",
    "../Cargo.toml",
    "../Cargo.lock",
];

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

fn main() {
    // Those that exist: outside the repository (the published crate) the
    // others are not there, and a missing path would rerun this script, and
    // rebuild the crate, on every build.
    println!("cargo:rerun-if-changed=build.rs");
    for source in SOURCES.into_iter().filter(|source| Path::new(source).exists()) {
        println!("cargo:rerun-if-changed={source}");
    }
    let commit = match (git(&["rev-parse", "--short=7", "HEAD"]), git(&["rev-parse", "--absolute-git-dir"])) {
        (Some(commit), Some(git_dir)) => {
            // A commit or checkout rewrites the index; HEAD moves with a checkout.
            for file in ["HEAD", "index"] {
                let path = Path::new(&git_dir).join(file);
                println!("cargo:rerun-if-changed={}", path.display());
            }
            let modified = git(&["status", "--porcelain", "--untracked-files=no"]).is_none_or(|s| !s.is_empty());
            if modified { format!("{commit}-modified") } else { commit }
        }
        _ => "unknown".to_owned(),
    };
    println!("cargo:rustc-env=NNUE_BUILD_COMMIT={commit}");
}
