nnue::nnue!(include "bare_layer_name.ron");

fn main() {}
