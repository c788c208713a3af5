nnue::nnue!(include "missing_field.ron");

fn main() {}
