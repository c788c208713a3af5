nnue::nnue!(include "divisor_without_i16_weights.ron");

fn main() {}
