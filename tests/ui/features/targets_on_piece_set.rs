nnue::nnue!(include "targets_on_piece_set.ron");

fn main() {}
