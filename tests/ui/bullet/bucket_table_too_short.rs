nnue::nnue!(include "bucket_table_too_short.ron");

fn main() {}
