nnue::nnue!(include "pairwise_not_block_multiple.ron");

fn main() {}
