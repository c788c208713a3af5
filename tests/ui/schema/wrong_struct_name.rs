nnue::nnue!(include "wrong_struct_name.ron");

fn main() {}
