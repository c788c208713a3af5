nnue::nnue!(include "i8_feature_weights.ron");

fn main() {}
