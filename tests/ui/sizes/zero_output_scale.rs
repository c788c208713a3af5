nnue::nnue!(include "zero_output_scale.ron");

fn main() {}
