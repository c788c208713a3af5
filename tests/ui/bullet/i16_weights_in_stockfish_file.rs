nnue::nnue!(include "i16_weights_in_stockfish_file.ron");

fn main() {}
