nnue::nnue!(include "zero_dimensions.ron");

fn main() {}
