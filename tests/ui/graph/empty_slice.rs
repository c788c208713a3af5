nnue::nnue!(include "empty_slice.ron");

fn main() {}
