nnue::nnue!(include "too_few_stacks.ron");

fn main() {}
