nnue::nnue!(include "tensor_type_too_wide.ron");

fn main() {}
