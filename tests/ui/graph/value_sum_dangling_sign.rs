nnue::nnue!(include "value_sum_dangling_sign.ron");

fn main() {}
