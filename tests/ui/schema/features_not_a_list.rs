nnue::nnue!(include "features_not_a_list.ron");

fn main() {}
