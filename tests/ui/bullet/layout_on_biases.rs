nnue::nnue!(include "layout_on_biases.ron");

fn main() {}
