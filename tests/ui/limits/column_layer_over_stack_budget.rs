nnue::nnue!(include "column_layer_over_stack_budget.ron");

fn main() {}
