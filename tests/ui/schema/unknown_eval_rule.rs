nnue::nnue!(include "unknown_eval_rule.ron");

fn main() {}
