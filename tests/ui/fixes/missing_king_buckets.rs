nnue::nnue!(include "missing_king_buckets.ron");

fn main() {}
