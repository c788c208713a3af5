nnue::nnue!(include "activation_max_zero.ron");

fn main() {}
