nnue::nnue!(include "unknown_field.ron");

fn main() {}
