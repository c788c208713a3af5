nnue::nnue!(include "output_not_single.ron");

fn main() {}
