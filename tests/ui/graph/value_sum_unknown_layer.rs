nnue::nnue!(include "value_sum_unknown_layer.ron");

fn main() {}
