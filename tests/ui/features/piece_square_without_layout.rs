nnue::nnue!(include "piece_square_without_layout.ron");

fn main() {}
