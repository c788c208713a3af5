nnue::nnue!(include "unclosed_string.ron");

fn main() {}
