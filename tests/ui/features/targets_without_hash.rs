nnue::nnue!(include "targets_without_hash.ron");

fn main() {}
