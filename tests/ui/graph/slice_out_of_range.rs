nnue::nnue!(include "slice_out_of_range.ron");

fn main() {}
