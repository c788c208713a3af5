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
//!
//! `for_each_shipped_arch!(callback)`: the registry of those shipped
//! architectures, read from `archs/**/*.ron` when it expands (see
//! [`for_each_shipped_arch!`]).

use proc_macro::TokenStream;
use std::path::{Path, PathBuf};
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token};

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
        Err(errors) => {
            errors.into_iter().map(syn::Error::into_compile_error).collect::<proc_macro2::TokenStream>().into()
        }
    }
}

/// `include "path"`.
struct Include {
    path: LitStr,
}

impl Parse for Include {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let keyword: Ident =
            input.parse().map_err(|e| syn::Error::new(e.span(), "expected `include \"path/to/arch.ron\"`"))?;
        if keyword != "include" {
            return Err(syn::Error::new(keyword.span(), "expected `include \"path/to/arch.ron\"`"));
        }
        let path = input
            .parse()
            .map_err(|e: syn::Error| syn::Error::new(e.span(), "expected `include \"path/to/arch.ron\"`"))?;
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
    let text =
        std::fs::read_to_string(&path).map_err(|e| error(format!("{written}: cannot read {}: {e}", path.display())))?;
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
    let bare = Path::new(written).is_relative()
        && !Path::new(written).components().any(|c| c == std::path::Component::ParentDir);
    let shipped = bare.then(|| PathBuf::from(SHIPPED_ARCHS));
    for dir in [manifest, call_dir, shipped].into_iter().flatten() {
        let candidate = dir.join(written);
        if candidate.is_file() {
            return Ok(candidate.canonicalize().unwrap_or(candidate));
        }
    }
    let mut shipped: Vec<String> = shipped_files().into_iter().map(|(file, _)| file).collect();
    shipped.sort();
    Err(format!(
        "{written}: architecture file not found relative to CARGO_MANIFEST_DIR or to the calling file{}",
        if bare { format!(", nor among the shipped architectures ({})", shipped.join(", ")) } else { String::new() }
    ))
}

/// Expands to `callback! { ... }` with one entry per architecture shipped
/// in nnue's `archs/` (every `.ron` file under it, subdirectories included),
/// read when the macro expands:
///
/// ```text
/// sfnnv9_small {
///     file: "sfnnv9-small.ron",  // under archs/, `/`-separated
///     source: "...",             // the file's text
///     network: true,             // implements nnue::runtime::Network
///     plain: true,               // one feature set: `active_features`, `update`
/// },
/// ```
///
/// `sfnnv9_small` is the module `nnue!(include "sfnnv9-small.ron")`
/// defines. `network` is `nnue_codegen::implements_network` (false for a
/// composed transformer in which a piece has more than one per-piece
/// feature); `plain` is a transformer of one feature set, whose network has
/// `active_features` and `update` by feature lists (a composed one has
/// neither). Both are the literals `true` or `false`: match them as `tt`
/// to pass them on to a macro with `true` and `false` arms (a `literal`
/// fragment cannot be matched again).
///
/// `for_each_shipped_arch!(callback, suffix = _random_net)` adds to each
/// entry, last, `named: sfnnv9_small_random_net`: the module's name with
/// the suffix, for items named per architecture (tests).
///
/// The order is fixed: the files of a directory before its subdirectories,
/// each in natural order (runs of digits compared as numbers, after
/// letters): `sfnnv1.ron` ... `sfnnv9.ron`, `sfnnv9-small.ron`,
/// `sfnnv10.ron`, `sfnnv16.ron`, `sf19-lite.ron`, then `bullet/...`. Where
/// two Stockfish architectures share a header hash (SFNNv4 and SFNNv5), the
/// older comes first.
///
/// The crate's build script reruns when `archs/` changes, so a new file
/// rebuilds every crate that expands this macro.
#[proc_macro]
pub fn for_each_shipped_arch(input: TokenStream) -> TokenStream {
    let request = syn::parse_macro_input!(input as ForEach);
    match shipped_entries(request.suffix.as_ref()) {
        Ok(entries) => {
            let callback = request.callback;
            quote::quote!(#callback! { #(#entries),* }).into()
        }
        Err(message) => syn::Error::new(proc_macro2::Span::call_site(), message).into_compile_error().into(),
    }
}

/// `callback` or `callback, suffix = _ident`.
struct ForEach {
    callback: syn::Path,
    suffix: Option<Ident>,
}

impl Parse for ForEach {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let callback = input.parse()?;
        let mut suffix = None;
        if input.parse::<Option<Token![,]>>()?.is_some() && !input.is_empty() {
            let key: Ident = input.parse()?;
            if key != "suffix" {
                return Err(syn::Error::new(key.span(), "expected `suffix = _name`"));
            }
            input.parse::<Token![=]>()?;
            suffix = Some(input.call(syn::ext::IdentExt::parse_any)?);
            input.parse::<Option<Token![,]>>()?;
        }
        if !input.is_empty() {
            return Err(input.error("expected `callback` or `callback, suffix = _name`"));
        }
        Ok(ForEach { callback, suffix })
    }
}

/// One entry of [`for_each_shipped_arch!`] per shipped file, in order.
fn shipped_entries(suffix: Option<&Ident>) -> Result<Vec<proc_macro2::TokenStream>, String> {
    let mut modules: Vec<(String, String)> = Vec::new();
    let mut entries = Vec::new();
    for (file, path) in shipped_files() {
        let source = std::fs::read_to_string(&path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        let arch = nnue_spec::parse(&source).map_err(|diagnostics| {
            diagnostics.iter().map(|d| format!("archs/{file}:{d}")).collect::<Vec<_>>().join("\n")
        })?;
        if let Some((_, other)) = modules.iter().find(|(module, _)| *module == arch.module) {
            return Err(format!("archs/{file} and archs/{other} both define the module `{}`", arch.module));
        }
        modules.push((arch.module.clone(), file.clone()));
        // At the call site, like the module `nnue!` makes.
        let module: Ident =
            syn::parse_str(&arch.module).map_err(|e| format!("archs/{file}: module `{}`: {e}", arch.module))?;
        let network = nnue_codegen::implements_network(&arch);
        let plain = arch.is_plain();
        let named = suffix.map(|suffix| {
            let named = Ident::new(
                &format!("{module}{}", suffix.to_string().trim_start_matches("r#")),
                proc_macro2::Span::call_site(),
            );
            quote::quote!(, named: #named)
        });
        entries.push(quote::quote! {
            #module { file: #file, source: #source, network: #network, plain: #plain #named }
        });
    }
    if entries.is_empty() {
        return Err(format!("no architecture files (.ron) in {SHIPPED_ARCHS}"));
    }
    Ok(entries)
}

/// The `.ron` files under [`SHIPPED_ARCHS`], each by its path relative to
/// it (`/`-separated) and its full path, in [`for_each_shipped_arch!`]'s
/// order.
fn shipped_files() -> Vec<(String, PathBuf)> {
    fn walk(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>) {
        let Ok(read) = std::fs::read_dir(dir) else { return };
        let mut files = Vec::new();
        let mut dirs = Vec::new();
        for entry in read.flatten() {
            let Ok(name) = entry.file_name().into_string() else { continue };
            let path = entry.path();
            if name.starts_with('.') {
                continue;
            }
            if path.is_dir() {
                dirs.push(name);
            } else if let Some(stem) = name.strip_suffix(".ron") {
                files.push(stem.to_owned());
            }
        }
        files.sort_by(|a, b| natural(a, b));
        dirs.sort_by(|a, b| natural(a, b));
        for stem in files {
            out.push((format!("{prefix}{stem}.ron"), dir.join(format!("{stem}.ron"))));
        }
        for sub in dirs {
            walk(&dir.join(&sub), &format!("{prefix}{sub}/"), out);
        }
    }
    let mut files = Vec::new();
    walk(Path::new(SHIPPED_ARCHS), "", &mut files);
    files
}

/// Natural order: runs of ASCII digits compare as numbers (and after any
/// other character), the rest by character; a prefix comes first.
fn natural(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        let order = match (x.is_ascii_digit(), y.is_ascii_digit()) {
            (true, true) => {
                let run = |s: &[u8], k: usize| s[k..].iter().take_while(|c| c.is_ascii_digit()).count();
                let (n, m) = (run(a, i), run(b, j));
                let trim = |s: &[u8]| -> Vec<u8> { s.iter().copied().skip_while(|&c| c == b'0').collect() };
                let (p, q) = (trim(&a[i..i + n]), trim(&b[j..j + m]));
                let order = p.len().cmp(&q.len()).then_with(|| p.cmp(&q)).then(n.cmp(&m));
                i += n;
                j += m;
                order
            }
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (false, false) => {
                i += 1;
                j += 1;
                x.cmp(&y)
            }
        };
        if order != Ordering::Equal {
            return order;
        }
    }
    (a.len() - i).cmp(&(b.len() - j))
}
