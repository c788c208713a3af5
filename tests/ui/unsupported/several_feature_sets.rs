nnue::nnue!(include "several_feature_sets.ron");

fn main() {}
