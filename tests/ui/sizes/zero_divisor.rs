nnue::nnue!(include "zero_divisor.ron");

fn main() {}
