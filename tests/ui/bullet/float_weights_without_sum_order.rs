nnue::nnue!(include "float_weights_without_sum_order.ron");

fn main() {}
