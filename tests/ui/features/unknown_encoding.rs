nnue::nnue!(include "unknown_encoding.ron");

fn main() {}
