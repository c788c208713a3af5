nnue::nnue!(include "transformer_over_stack_budget.ron");

fn main() {}
