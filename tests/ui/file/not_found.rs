nnue::nnue!(include "sfnnv11.ron");

fn main() {}
