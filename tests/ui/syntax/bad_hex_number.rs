nnue::nnue!(include "bad_hex_number.ron");

fn main() {}
