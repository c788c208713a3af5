//! What is wrong with an architecture file, and where: a leaf that the
//! validator and the limits it checks both report through.

/// A problem with the value at `path` (e.g. `layers[2].input`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub message: String,
}
