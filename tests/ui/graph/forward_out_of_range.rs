nnue::nnue!(include "forward_out_of_range.ron");

fn main() {}
