nnue::nnue!(include "divisor_with_i8_weights.ron");

fn main() {}
