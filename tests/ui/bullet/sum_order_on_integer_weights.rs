nnue::nnue!(include "sum_order_on_integer_weights.ron");

fn main() {}
