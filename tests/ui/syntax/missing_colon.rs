nnue::nnue!(include "missing_colon.ron");

fn main() {}
