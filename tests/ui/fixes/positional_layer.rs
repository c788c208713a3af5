nnue::nnue!(include "positional_layer.ron");

fn main() {}
