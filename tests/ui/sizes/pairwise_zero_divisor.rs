nnue::nnue!(include "pairwise_zero_divisor.ron");

fn main() {}
