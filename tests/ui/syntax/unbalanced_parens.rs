nnue::nnue!(include "unbalanced_parens.ron");

fn main() {}
