nnue::nnue!(include "load_scale_out_of_range.ron");

fn main() {}
