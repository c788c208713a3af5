nnue::nnue!(include "unknown_tensor_layer.ron");

fn main() {}
