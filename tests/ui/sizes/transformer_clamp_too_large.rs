nnue::nnue!(include "transformer_clamp_too_large.ron");

fn main() {}
