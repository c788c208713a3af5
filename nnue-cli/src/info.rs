//! `nnue info --net FILE`.

use crate::registry::Registry;
use std::path::Path;

pub fn run(
    registry: &Registry,
    net: &Path,
    arch: Option<&Path>,
    options: nnue::runtime::LoadOptions,
) -> Result<(), String> {
    let network = registry.load_file(net, arch, options)?;
    let a = network.arch();
    let len = std::fs::metadata(net).map_err(|e| format!("{}: {e}", net.display()))?.len();
    println!("file               {} ({len} bytes)", net.display());
    println!("architecture       {} - {}", a.name, a.description);
    if let Some(h) = a.cbnf {
        println!(
            "format             bullet tensors after a CBNF header (architecture id {}, activation id {}), which names the architecture",
            h.arch, h.activation
        );
    } else if a.file_bytes.is_some() {
        println!("format             bullet (raw tensors, no header: the architecture was named with --arch)");
    } else {
        println!("version            0x{:08X}", a.version);
        println!("header hash        0x{:08X}", a.header_hash);
        println!("transformer hash   0x{:08X}", a.transformer_hash);
        println!("layer stack hash   0x{:08X}", a.layer_stack_hash);
        println!("description        {}", network.description().replace('\n', " "));
    }
    println!(
        "backend            {} (available: {})",
        network.isa(),
        nnue::runtime::Isa::available().iter().map(|i| i.name()).collect::<Vec<_>>().join(", ")
    );
    println!("feature set        {} ({} features)", a.feature_set, a.feature_dimensions);
    println!("transformer        {} lanes per perspective, {} PSQT buckets", a.transformer_dimensions, a.psqt_buckets);
    println!("layer stacks       {}", a.layer_stacks);
    for l in a.layers {
        println!("  {:<10} {:<22} {:>5} -> {}", l.name, l.kind, l.inputs, l.outputs);
    }
    println!("parameters         transformer {} bytes in memory", a.transformer_bytes);
    let proof = network.overflow_proof();
    let wrapping: Vec<&str> = proof.wrapping().map(|b| b.value.as_str()).collect();
    let verdict = match (proof.holds(), wrapping.is_empty()) {
        (false, _) => "SOME VALUES CAN OVERFLOW (loaded with --allow-overflow)".to_owned(),
        (true, true) => "no integer can overflow in any legal position".to_owned(),
        (true, false) => format!(
            "no value can overflow in any legal position but wrapping i32 values ({}), which every backend wraps alike, modulo 2^32",
            wrapping.join(", ")
        ),
    };
    println!("overflow proof     {verdict}; margins (distance to the type's limits):");
    for line in proof.to_string().lines() {
        println!("  {line}");
    }
    Ok(())
}
