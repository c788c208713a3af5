nnue::nnue!(include "repeat_expression.ron");

fn main() {}
