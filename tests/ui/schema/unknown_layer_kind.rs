nnue::nnue!(include "unknown_layer_kind.ron");

fn main() {}
