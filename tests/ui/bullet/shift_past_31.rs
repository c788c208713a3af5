nnue::nnue!(include "shift_past_31.ron");

fn main() {}
