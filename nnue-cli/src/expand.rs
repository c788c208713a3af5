//! `nnue expand ARCH.ron [--isa NAME]`: the generated Rust, formatted, as
//! `nnue!` would expand it (the snapshots in `tests/snapshots/` are this
//! output); with `--isa`, only that backend's kernel module.

use std::path::Path;

/// Reads and checks an architecture file; every problem as `file:line:col: message`.
pub fn read_arch(path: &Path) -> Result<nnue_spec::Arch, String> {
    let source = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    nnue_spec::parse(&source)
        .map_err(|problems| problems.iter().map(|p| format!("{}:{p}", path.display())).collect::<Vec<_>>().join("\n"))
}

pub fn run(path: &Path, isa: Option<&str>) -> Result<(), String> {
    let arch = read_arch(path)?;
    let code = match isa {
        None | Some("scalar") => nnue_codegen::generate_pretty(&arch, &nnue_codegen::Options::default()),
        Some(name) => nnue_codegen::backend_pretty(&arch, name).ok_or_else(|| {
            format!("--isa: no backend `{name}` (known: scalar, {})", nnue_codegen::backend_names().join(", "))
        })?,
    };
    print!("{code}");
    Ok(())
}
