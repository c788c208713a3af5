nnue::nnue!(include "sparse_not_on_transformer.ron");

fn main() {}
