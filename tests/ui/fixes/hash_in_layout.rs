nnue::nnue!(include "hash_in_layout.ron");

fn main() {}
