nnue::nnue!(include "string_for_number.ron");

fn main() {}
