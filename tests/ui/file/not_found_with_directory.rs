nnue::nnue!(include "archs/sfnnv9-large.ron");

fn main() {}
