nnue::nnue!(include "bucket_table_stack_missing.ron");

fn main() {}
