nnue::nnue!(include "king_bucket_gap.ron");

fn main() {}
