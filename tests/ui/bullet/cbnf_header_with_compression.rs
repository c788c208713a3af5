nnue::nnue!(include "cbnf_header_with_compression.ron");

fn main() {}
