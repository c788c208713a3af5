nnue::nnue!(include "transformer_output_too_large.ron");

fn main() {}
