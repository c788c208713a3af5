nnue::nnue!(include "negative_outputs.ron");

fn main() {}
