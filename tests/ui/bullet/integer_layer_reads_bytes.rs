nnue::nnue!(include "integer_layer_reads_bytes.ron");

fn main() {}
