nnue::nnue!(include "pairwise_divisor_not_power_of_two.ron");

fn main() {}
