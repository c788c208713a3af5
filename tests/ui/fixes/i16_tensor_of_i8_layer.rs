nnue::nnue!(include "i16_tensor_of_i8_layer.ron");

fn main() {}
