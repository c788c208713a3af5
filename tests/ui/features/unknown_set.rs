nnue::nnue!(include "unknown_set.ron");

fn main() {}
