nnue::nnue!(include "missing_comma.ron");

fn main() {}
