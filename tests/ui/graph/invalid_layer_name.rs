nnue::nnue!(include "invalid_layer_name.ron");

fn main() {}
