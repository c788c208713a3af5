nnue::nnue!(include "trailing_characters.ron");

fn main() {}
