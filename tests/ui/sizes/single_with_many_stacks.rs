nnue::nnue!(include "single_with_many_stacks.ron");

fn main() {}
