nnue::nnue!(include "i32_accumulator.ron");

fn main() {}
