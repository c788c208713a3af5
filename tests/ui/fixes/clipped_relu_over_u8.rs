nnue::nnue!(include "clipped_relu_over_u8.ron");

fn main() {}
