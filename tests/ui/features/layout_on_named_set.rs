nnue::nnue!(include "layout_on_named_set.ron");

fn main() {}
