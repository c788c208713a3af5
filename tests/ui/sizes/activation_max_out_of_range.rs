nnue::nnue!(include "activation_max_out_of_range.ron");

fn main() {}
