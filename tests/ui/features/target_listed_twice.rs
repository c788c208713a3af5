nnue::nnue!(include "target_listed_twice.ron");

fn main() {}
