//! Reruns when a file under `archs/` (the shipped architectures) is added,
//! removed or edited: this crate is then rebuilt, and with it every crate
//! that expands `for_each_shipped_arch!`, which reads that directory (a
//! proc macro cannot tell Cargo which directories it read).

fn main() {
    println!("cargo:rerun-if-changed=archs");
    println!("cargo:rerun-if-changed=build.rs");
}
