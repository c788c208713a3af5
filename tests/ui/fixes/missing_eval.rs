nnue::nnue!(include "missing_eval.ron");

fn main() {}
