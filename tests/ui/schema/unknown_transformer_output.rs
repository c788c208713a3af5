nnue::nnue!(include "unknown_transformer_output.ron");

fn main() {}
