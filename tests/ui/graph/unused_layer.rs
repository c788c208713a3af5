nnue::nnue!(include "unused_layer.ron");

fn main() {}
