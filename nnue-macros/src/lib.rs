//! `nnue!(include "archs/sfnnv9.ron")`: expands an architecture file into a
//! module with its network type. A thin shim: reading the file is done here,
//! checking it by `nnue-spec` and generating code by `nnue-codegen`.
//!
//! The path is looked up, in order:
//! 1. relative to the calling crate's `CARGO_MANIFEST_DIR`;
//! 2. relative to the directory of the source file holding the call;
//! 3. for a relative path without `..` (`sfnnv9.ron`, `bullet/obsidian.ron`),
//!    among the architectures shipped in nnue's `archs/`.
//!
//! Every problem is a `compile_error!` at the path literal whose message
//! starts with `file:line:col`; never a panic.

use proc_macro::TokenStream;
use std::path::{Path, PathBuf};
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr};

/// The directory of the architectures shipped with nnue: inside this crate,
/// so that it travels with the published crate (in the repository, a link to
/// the top-level `archs/`).
const SHIPPED_ARCHS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/archs");

/// Expands an architecture file into a module; see the crate documentation.
#[proc_macro]
pub fn nnue(input: TokenStream) -> TokenStream {
    let call_file = proc_macro::Span::call_site().local_file();
    let request = syn::parse_macro_input!(input as Include);
    match expand(&request, call_file.as_deref()) {
        Ok(tokens) => tokens.into(),
        Err(errors) => errors.into_iter().map(syn::Error::into_compile_error).collect::<proc_macro2::TokenStream>().into(),
    }
}

/// `include "path"`.
struct Include {
    path: LitStr,
}

impl Parse for Include {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let keyword: Ident = input.parse().map_err(|e| syn::Error::new(e.span(), "expected `include \"path/to/arch.ron\"`"))?;
        if keyword != "include" {
            return Err(syn::Error::new(keyword.span(), "expected `include \"path/to/arch.ron\"`"));
        }
        let path = input.parse().map_err(|e: syn::Error| syn::Error::new(e.span(), "expected `include \"path/to/arch.ron\"`"))?;
        if !input.is_empty() {
            return Err(input.error("unexpected tokens after the path"));
        }
        Ok(Include { path })
    }
}

fn expand(request: &Include, call_file: Option<&Path>) -> Result<proc_macro2::TokenStream, Vec<syn::Error>> {
    let written = request.path.value();
    let span = request.path.span();
    let error = |message: String| vec![syn::Error::new(span, message)];
    let path = resolve(&written, call_file).map_err(error)?;
    let text = std::fs::read_to_string(&path).map_err(|e| error(format!("{written}: cannot read {}: {e}", path.display())))?;
    let arch = nnue_spec::parse(&text).map_err(|diagnostics| {
        diagnostics.iter().map(|d| syn::Error::new(span, format!("{written}:{d}"))).collect::<Vec<_>>()
    })?;
    let options = nnue_codegen::Options { spec_path: Some(path.to_string_lossy().into_owned()) };
    Ok(nnue_codegen::generate(&arch, &options))
}

/// Finds the file, or says where it looked.
fn resolve(written: &str, call_file: Option<&Path>) -> Result<PathBuf, String> {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
    let call_dir = call_file.and_then(Path::parent).map(Path::to_path_buf);
    let bare = Path::new(written).is_relative() && !Path::new(written).components().any(|c| c == std::path::Component::ParentDir);
    let shipped = bare.then(|| PathBuf::from(SHIPPED_ARCHS));
    for dir in [manifest, call_dir, shipped].into_iter().flatten() {
        let candidate = dir.join(written);
        if candidate.is_file() {
            return Ok(candidate.canonicalize().unwrap_or(candidate));
        }
    }
    let ron_files = |sub: &str| -> Vec<String> {
        std::fs::read_dir(Path::new(SHIPPED_ARCHS).join(sub))
            .map(|dir| {
                dir.filter_map(|e| e.ok()?.file_name().into_string().ok())
                    .filter(|n| n.ends_with(".ron"))
                    .map(|n| if sub.is_empty() { n } else { format!("{sub}/{n}") })
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut shipped: Vec<String> = ron_files("").into_iter().chain(ron_files("bullet")).collect();
    shipped.sort();
    Err(format!(
        "{written}: architecture file not found relative to CARGO_MANIFEST_DIR or to the calling file{}",
        if bare { format!(", nor among the shipped architectures ({})", shipped.join(", ")) } else { String::new() }
    ))
}
