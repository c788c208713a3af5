nnue::nnue!(include "stockfish_without_version.ron");

fn main() {}
