nnue::nnue!(include "latin1.ron");

fn main() {}
