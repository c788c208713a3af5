nnue::nnue!(include "inclusive_range_reference.ron");

fn main() {}
