nnue::nnue!(include "several_semantic_errors.ron");

fn main() {}
