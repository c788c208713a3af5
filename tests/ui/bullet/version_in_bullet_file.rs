nnue::nnue!(include "version_in_bullet_file.ron");

fn main() {}
