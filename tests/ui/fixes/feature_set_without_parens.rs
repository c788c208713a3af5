nnue::nnue!(include "feature_set_without_parens.ron");

fn main() {}
