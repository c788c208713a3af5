nnue::nnue!(include "empty.ron");

fn main() {}
