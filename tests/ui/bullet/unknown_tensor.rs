nnue::nnue!(include "unknown_tensor.ron");

fn main() {}
