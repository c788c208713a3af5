//! `nnue`: the command with the shipped architectures.

fn main() -> std::process::ExitCode {
    nnue_cli::main_with(&[])
}
