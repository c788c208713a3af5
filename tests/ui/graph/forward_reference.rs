nnue::nnue!(include "forward_reference.ron");

fn main() {}
