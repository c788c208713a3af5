nnue::nnue!(include "zero_stacks.ron");

fn main() {}
