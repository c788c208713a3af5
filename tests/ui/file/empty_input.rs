nnue::nnue!();

fn main() {}
