nnue::nnue!(include "unknown_input.ron");

fn main() {}
