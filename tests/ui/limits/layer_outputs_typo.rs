nnue::nnue!(include "layer_outputs_typo.ron");

fn main() {}
