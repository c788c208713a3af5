nnue::nnue!(include "i32_feature_weights.ron");

fn main() {}
