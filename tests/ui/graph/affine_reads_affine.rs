nnue::nnue!(include "affine_reads_affine.ron");

fn main() {}
