nnue::nnue!(include "king_buckets_count.ron");

fn main() {}
