nnue::nnue!(include "i32_weights_read_bytes.ron");

fn main() {}
