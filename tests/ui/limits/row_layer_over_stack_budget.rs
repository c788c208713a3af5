nnue::nnue!(include "row_layer_over_stack_budget.ron");

fn main() {}
