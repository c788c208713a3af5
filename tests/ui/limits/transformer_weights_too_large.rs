nnue::nnue!(include "transformer_weights_too_large.ron");

fn main() {}
