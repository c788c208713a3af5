nnue::nnue!(include "missing_layer_field.ron");

fn main() {}
