nnue::nnue!(include "duplicate_layer_name.ron");

fn main() {}
