nnue::nnue!(include "shift_too_large.ron");

fn main() {}
