nnue::nnue!(include "zero_outputs.ron");

fn main() {}
