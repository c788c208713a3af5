nnue::nnue!(include "malformed_reference.ron");

fn main() {}
