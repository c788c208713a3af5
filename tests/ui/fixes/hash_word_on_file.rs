nnue::nnue!(include "hash_word_on_file.ron");

fn main() {}
