nnue::nnue!(include "output_reads_activation.ron");

fn main() {}
