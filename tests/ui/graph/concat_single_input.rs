nnue::nnue!(include "concat_single_input.ron");

fn main() {}
