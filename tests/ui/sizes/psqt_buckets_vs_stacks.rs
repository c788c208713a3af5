nnue::nnue!(include "psqt_buckets_vs_stacks.ron");

fn main() {}
