nnue::nnue!(include "positional_fields.ron");

fn main() {}
