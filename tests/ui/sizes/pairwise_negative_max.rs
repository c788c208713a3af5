nnue::nnue!(include "pairwise_negative_max.ron");

fn main() {}
