nnue::nnue!(import "sfnnv1.ron");

fn main() {}
