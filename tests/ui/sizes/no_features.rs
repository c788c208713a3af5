nnue::nnue!(include "no_features.ron");

fn main() {}
