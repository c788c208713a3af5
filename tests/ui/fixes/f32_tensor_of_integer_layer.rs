nnue::nnue!(include "f32_tensor_of_integer_layer.ron");

fn main() {}
