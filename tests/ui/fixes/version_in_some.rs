nnue::nnue!(include "version_in_some.ron");

fn main() {}
