nnue::nnue!(include "number_for_bool.ron");

fn main() {}
