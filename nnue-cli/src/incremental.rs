//! [`Incremental`] for every network that implements
//! `nnue::runtime::Network`: `nnue bench`'s and `nnue walk`'s generic code.

use crate::registry::{Incremental, Timing};
use nnue::runtime::Network;
use nnue::runtime::shakmaty::bench::{BenchPosition, Operation};
use nnue::runtime::shakmaty::walk::WalkStats;
use std::io::Write;

impl<N: Network + Sync> Incremental for N {
    fn measure(&self, positions: Vec<BenchPosition>, ops: &[Operation], timing: Timing) -> Vec<f64> {
        crate::bench::measure(self, positions, ops, timing)
    }

    fn walk_all(
        &self,
        roots: &[(String, shakmaty::Chess)],
        depth: usize,
        verify: bool,
        mut out: &mut dyn Write,
    ) -> std::io::Result<WalkStats> {
        crate::walk::walk_all(self, roots, depth, verify, &mut out)
    }
}
