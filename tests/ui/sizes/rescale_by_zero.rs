nnue::nnue!(include "rescale_by_zero.ron");

fn main() {}
