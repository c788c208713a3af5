nnue::nnue!(include "float_weights_stored_as_i16.ron");

fn main() {}
