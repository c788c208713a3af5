nnue::nnue!(include);

fn main() {}
