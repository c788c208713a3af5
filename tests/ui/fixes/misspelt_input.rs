nnue::nnue!(include "misspelt_input.ron");

fn main() {}
