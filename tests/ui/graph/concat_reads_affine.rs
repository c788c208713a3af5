nnue::nnue!(include "concat_reads_affine.ron");

fn main() {}
