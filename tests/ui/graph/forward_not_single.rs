nnue::nnue!(include "forward_not_single.ron");

fn main() {}
