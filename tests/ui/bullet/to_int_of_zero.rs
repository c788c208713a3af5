nnue::nnue!(include "to_int_of_zero.ron");

fn main() {}
