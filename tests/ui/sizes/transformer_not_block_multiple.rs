nnue::nnue!(include "transformer_not_block_multiple.ron");

fn main() {}
