nnue::nnue!(include "unknown_mirror.ron");

fn main() {}
