//! The overflow proof: from a loaded net's parameters, bounds on every
//! integer the network computes, each checked against the type that holds
//! it. A net passes when no value can leave its type for any legal position;
//! otherwise the proof names the value, where it can overflow, and by how
//! much.
//!
//! - [`transformer`]: the accumulator lanes and PSQT values over every
//!   combination of features a legal position can activate;
//! - [`rows`]: a further feature set summed into the same accumulator,
//!   bounded by its rows alone; [`threats`]: FullThreats, bounded by one
//!   attacker per square, alone or square by square with the piece-square
//!   set (and PP_3Wide's pawns); [`pairwise`]: where that leaves i16, one
//!   lane and king view again, with each feature's second piece priced;
//! - [`layers`]: the layer stacks, by interval arithmetic from the
//!   transformer's output range to the evaluation.
//!
//! Two kinds of value are bounded. Most must fit their type: a value that
//! leaves it would be narrowed (an i16 accumulator lane, a `maddubs` pair
//! sum saturating at i16, a byte of a `packus`, a product that must fit 16
//! bits), and how each backend or the engine narrows differs. The others are
//! *wrapping* ([`OverflowProof::record_wrapping`]): i32 values that every
//! backend forms only by wrapping adds and multiplies of i32 (the sums of an
//! i16-weight layer, Reckless's `madd` pairs then i32 adds, an i32
//! rescale). Such a value has one result modulo 2^32 whatever the order of
//! its additions, and held in an i32 that result is one integer: backends
//! (and an engine that wraps the same) cannot disagree on it. Their bounds
//! are reported; leaving i32 does not refuse the net.
//!
//! Generated code builds the proof on loading; an engine reads it from
//! `Network::overflow_proof`. The pieces, by hand:
//!
//! ```
//! use nnue_runtime::overflow::{layers, Int, Interval};
//! use nnue_runtime::OverflowProof;
//!
//! let mut proof = OverflowProof::default();
//! // One affine layer, 2 inputs in 0..=127 -> 1 output, bias 1000.
//! let out = layers::affine(&mut proof, "fc", 0, &[1000], &[100, -50], 2, &[Interval::new(0, 127); 2]);
//! assert_eq!(out, [Interval::new(1000 - 50 * 127, 1000 + 100 * 127)]);
//! let sums = &proof.bounds()[1];
//! assert_eq!((sums.value.as_str(), sums.ty, sums.tightest.as_str()), ("fc sums", Int::I32, "layer stack 0, output 0"));
//! assert!(proof.check().is_ok());
//! println!("{proof}"); // the table `nnue info --net` prints
//! ```

pub mod layers;
pub mod pairwise;
pub mod rows;
pub mod threats;
pub mod transformer;

use crate::error::LoadError;
pub use crate::interval::{Int, Interval};
use std::fmt;

/// One checked quantity: all values computed under one name (for example
/// every lane of every accumulator, or every output of `fc_0` in every
/// layer stack).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bound {
    /// What is bounded, e.g. `transformer accumulator` or `fc_0 sums`.
    pub value: String,
    /// The type that holds it.
    pub ty: Int,
    /// The range every value of this name lies in.
    pub range: Interval,
    /// The value with the smallest margin: which lane, king square, layer
    /// stack or output.
    pub tightest: String,
    /// That value's range.
    pub tightest_range: Interval,
    /// Whether the value is formed by wrapping i32 arithmetic on every
    /// backend (see the module's documentation): then leaving the type is
    /// reported, not refused.
    pub wraps: bool,
}

impl Bound {
    /// How far the tightest value stays inside the type (negative: by how
    /// much it can leave it).
    pub fn margin(&self) -> i64 {
        self.tightest_range.margin(self.ty)
    }

    /// Whether no value of this name can leave its type.
    pub fn fits(&self) -> bool {
        self.margin() >= 0
    }

    /// Whether every backend computes the same values: they fit their type,
    /// or they wrap (see [`Bound::wraps`]).
    pub fn holds(&self) -> bool {
        self.wraps || self.fits()
    }
}

/// The proof for one loaded net: a bound per computed quantity, in the order
/// the network computes them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OverflowProof {
    bounds: Vec<Bound>,
}

impl OverflowProof {
    /// Records that values named `value`, held in `ty`, lie in `range`;
    /// `at` says which one this is (called only when it is the tightest so
    /// far). Records under one name merge.
    pub fn record(&mut self, value: &str, ty: Int, range: Interval, at: impl FnOnce() -> String) {
        self.record_as(value, ty, range, false, at);
    }

    /// [`Self::record`] for an i32 value that every backend forms only by
    /// wrapping adds and multiplies (the module's documentation says why
    /// such a value may leave i32): its bound is kept and shown, and does
    /// not refuse the net.
    pub fn record_wrapping(&mut self, value: &str, range: Interval, at: impl FnOnce() -> String) {
        self.record_as(value, Int::I32, range, true, at);
    }

    fn record_as(&mut self, value: &str, ty: Int, range: Interval, wraps: bool, at: impl FnOnce() -> String) {
        match self.bounds.iter_mut().find(|b| b.value == value) {
            Some(bound) => {
                bound.range = bound.range.union(range);
                if range.margin(ty) < bound.margin() {
                    bound.tightest = at();
                    bound.tightest_range = range;
                }
            }
            None => self.bounds.push(Bound {
                value: value.to_owned(),
                ty,
                range,
                tightest: at(),
                tightest_range: range,
                wraps,
            }),
        }
    }

    /// Records the ranges of the lanes of one value (`ranges[lane]`): the
    /// lane with the least margin first, so that it is named (`at(lane)`),
    /// then the union of all of them.
    pub fn record_lanes(&mut self, value: &str, ty: Int, ranges: &[Interval], at: impl Fn(usize) -> String) {
        if let Some((lane, range)) = ranges.iter().enumerate().min_by_key(|(_, r)| r.margin(ty)) {
            let all = ranges.iter().copied().reduce(Interval::union).unwrap_or(*range);
            self.record(value, ty, *range, || at(lane));
            self.record(value, ty, all, || at(lane));
        }
    }

    /// Every bound, in computation order.
    pub fn bounds(&self) -> &[Bound] {
        &self.bounds
    }

    /// Whether every backend computes the same values: no value can leave
    /// its type, but for wrapping ones ([`Self::wrapping`]).
    pub fn holds(&self) -> bool {
        self.bounds.iter().all(Bound::holds)
    }

    /// The wrapping values that can leave i32 (and wrap around) in some
    /// position: allowed, since every backend wraps them alike.
    pub fn wrapping(&self) -> impl Iterator<Item = &Bound> {
        self.bounds.iter().filter(|b| b.wraps && !b.fits())
    }

    /// `Ok` if every backend computes the same values ([`Self::holds`]),
    /// else an error naming the first value that can overflow: where, its
    /// bound, and its type.
    pub fn check(&self) -> Result<(), LoadError> {
        match self.bounds.iter().find(|b| !b.holds()) {
            None => Ok(()),
            Some(b) => Err(LoadError::Overflow {
                value: b.value.clone(),
                at: b.tightest.clone(),
                range: b.tightest_range,
                ty: b.ty,
            }),
        }
    }
}

impl fmt::Display for OverflowProof {
    /// A table: value, type, range, margin, and where the margin is smallest.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self.bounds.iter().map(|b| b.value.len()).max().unwrap_or(0).max(5);
        writeln!(f, "{:<width$}  type  {:>25}  {:>11}  tightest at", "value", "bound", "margin")?;
        for b in &self.bounds {
            let flag = match (b.fits(), b.wraps) {
                (true, _) => "",
                (false, true) => "  WRAPS (modulo 2^32, alike on every backend)",
                (false, false) => "  CAN OVERFLOW",
            };
            writeln!(
                f,
                "{:<width$}  {:<4}  {:>25}  {:>11}  {}{flag}",
                b.value,
                b.ty,
                b.range.to_string(),
                b.margin(),
                b.tightest
            )?;
        }
        Ok(())
    }
}

/// `f` of every item, in order, the items shared out among the threads
/// this process may run on (one thread: in turn, on this one). A proof's
/// independent parts (the views of a threat net) run side by side, and the
/// result does not depend on how many threads there were.
pub(crate) fn map_parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(items.len());
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    // Items are taken one at a time from a shared counter, so a thread that
    // drew cheap ones takes more.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break mine };
                        mine.push((i, f(item)));
                    }
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    done.sort_unstable_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_merge_and_keep_the_tightest() {
        let mut proof = OverflowProof::default();
        proof.record("x", Int::I16, Interval::new(0, 100), || "first".into());
        proof.record("x", Int::I16, Interval::new(-32_000, 0), || "second".into());
        proof.record("x", Int::I16, Interval::new(0, 200), || "third".into());
        let b = &proof.bounds()[0];
        assert_eq!((b.range, b.tightest.as_str(), b.margin()), (Interval::new(-32_000, 200), "second", 768));
        assert!(proof.check().is_ok());
        proof.record("y", Int::I32, Interval::new(0, 1 << 40), || "lane 3".into());
        let err = proof.check().unwrap_err().to_string();
        assert!(
            err.contains("y") && err.contains("lane 3") && err.contains("1099511627776") && err.contains("i32"),
            "{err}"
        );
    }

    /// The results come in the items' order whatever thread computed each,
    /// items of very different cost included.
    #[test]
    fn map_parallel_keeps_the_order() {
        let items: Vec<u64> = (0..200).map(|i| (i * 7919) % 1000).collect();
        let slow_square = |&n: &u64| (0..n * 100).fold(0u64, |a, _| std::hint::black_box(a + 1)) / 100 * n;
        assert_eq!(super::map_parallel(&items, slow_square), items.iter().map(|n| n * n).collect::<Vec<_>>());
        assert_eq!(super::map_parallel(&[] as &[u64], slow_square), Vec::<u64>::new());
    }
}
