nnue::nnue!(include "accumulators_into_i8_weights.ron");

fn main() {}
