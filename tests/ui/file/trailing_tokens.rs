nnue::nnue!(include "sfnnv1.ron", "sfnnv4.ron");

fn main() {}
