nnue::nnue!(include "crelu_on_integers.ron");

fn main() {}
