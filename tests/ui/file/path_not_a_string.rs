nnue::nnue!(include sfnnv1);

fn main() {}
