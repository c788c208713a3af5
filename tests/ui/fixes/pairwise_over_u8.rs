nnue::nnue!(include "pairwise_over_u8.ron");

fn main() {}
