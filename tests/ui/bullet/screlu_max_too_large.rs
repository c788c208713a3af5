nnue::nnue!(include "screlu_max_too_large.ron");

fn main() {}
