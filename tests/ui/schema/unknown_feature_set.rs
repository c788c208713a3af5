nnue::nnue!(include "unknown_feature_set.ron");

fn main() {}
