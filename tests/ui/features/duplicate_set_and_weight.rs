nnue::nnue!(include "duplicate_set_and_weight.ron");

fn main() {}
