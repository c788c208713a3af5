nnue::nnue!(include "too_many_layer_stacks.ron");

fn main() {}
