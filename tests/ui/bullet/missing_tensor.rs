nnue::nnue!(include "missing_tensor.ron");

fn main() {}
