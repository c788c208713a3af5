nnue::nnue!(include "sfnnv10.ron");

fn main() {}
