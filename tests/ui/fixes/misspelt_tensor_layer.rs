nnue::nnue!(include "misspelt_tensor_layer.ron");

fn main() {}
