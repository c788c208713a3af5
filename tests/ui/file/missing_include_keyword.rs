nnue::nnue!("sfnnv1.ron");

fn main() {}
