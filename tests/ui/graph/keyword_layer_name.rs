nnue::nnue!(include "keyword_layer_name.ron");

fn main() {}
