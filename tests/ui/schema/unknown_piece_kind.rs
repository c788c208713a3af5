nnue::nnue!(include "unknown_piece_kind.ron");

fn main() {}
