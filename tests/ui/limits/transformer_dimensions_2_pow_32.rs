nnue::nnue!(include "transformer_dimensions_2_pow_32.ron");

fn main() {}
