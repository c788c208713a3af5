nnue::nnue!(include "transformer_and_stacks.ron");

fn main() {}
