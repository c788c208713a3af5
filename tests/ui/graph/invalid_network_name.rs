nnue::nnue!(include "invalid_network_name.ron");

fn main() {}
