nnue::nnue!(include "king_buckets_without_mirror.ron");

fn main() {}
