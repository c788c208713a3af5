nnue::nnue!(include "misspelt_variant_field.ron");

fn main() {}
