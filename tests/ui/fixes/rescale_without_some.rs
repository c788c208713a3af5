nnue::nnue!(include "rescale_without_some.ron");

fn main() {}
