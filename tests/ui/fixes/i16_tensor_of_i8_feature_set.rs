nnue::nnue!(include "i16_tensor_of_i8_feature_set.ron");

fn main() {}
