nnue::nnue!(include "unknown_bucket_select.ron");

fn main() {}
