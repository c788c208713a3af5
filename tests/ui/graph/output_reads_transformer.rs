nnue::nnue!(include "output_reads_transformer.ron");

fn main() {}
