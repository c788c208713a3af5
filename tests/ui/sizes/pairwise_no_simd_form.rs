nnue::nnue!(include "pairwise_no_simd_form.ron");

fn main() {}
