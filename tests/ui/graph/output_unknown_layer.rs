nnue::nnue!(include "output_unknown_layer.ron");

fn main() {}
