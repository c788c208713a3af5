nnue::nnue!(include "tensor_listed_twice.ron");

fn main() {}
