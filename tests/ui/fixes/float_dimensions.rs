nnue::nnue!(include "float_dimensions.ron");

fn main() {}
