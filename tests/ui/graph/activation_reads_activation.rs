nnue::nnue!(include "activation_reads_activation.ron");

fn main() {}
