//! `nnue eval`: one TSV row per position.

use crate::position;
use crate::registry::Registry;
use std::io::{BufWriter, Write};
use std::path::Path;

pub fn run(
    registry: &Registry,
    net: &Path,
    arch: Option<&Path>,
    options: nnue::runtime::LoadOptions,
    fen: Option<&str>,
    fens: Option<&Path>,
) -> Result<(), String> {
    let network = registry.load_file(net, arch, options)?;
    let fens: Vec<(String, String)> = match (fen, fens) {
        (Some(fen), _) => vec![("--fen".to_owned(), fen.to_owned())],
        (None, Some(file)) => position::read_fens(file)?,
        (None, None) => return Err("give --fen or --fens".to_owned()),
    };
    // A bullet net's output is its engine's evaluation: no PSQT part, and
    // only the selected output bucket's value is printed.
    let stacks = if network.arch().file_bytes.is_some() { 0 } else { network.arch().layer_stacks };
    let mut out = BufWriter::new(std::io::stdout().lock());
    let header: Vec<String> = ["fen", "stm", "bucket"]
        .into_iter()
        .map(str::to_owned)
        .chain((0..stacks).map(|b| format!("psqt_{b}")))
        .chain((0..stacks).map(|b| format!("positional_{b}")))
        .chain(["eval".to_owned()])
        .collect();
    let write_error = |e: std::io::Error| format!("cannot write output: {e}");
    writeln!(out, "{}", header.join("\t")).map_err(write_error)?;
    for (at, fen) in &fens {
        let board = position::parse(fen).map_err(|e| format!("{at}: {e}"))?;
        let v = network.evaluate_board(&board);
        let mut row = vec![fen.clone(), position::side(&board).to_owned(), v.bucket.to_string()];
        row.extend(v.psqt[..stacks].iter().chain(&v.positional[..stacks]).map(i32::to_string));
        row.push(v.value.to_string());
        writeln!(out, "{}", row.join("\t")).map_err(write_error)?;
    }
    out.flush().map_err(write_error)
}
