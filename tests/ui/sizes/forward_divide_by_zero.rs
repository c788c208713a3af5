nnue::nnue!(include "forward_divide_by_zero.ron");

fn main() {}
