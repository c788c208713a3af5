nnue::nnue!(include "no_layers.ron");

fn main() {}
