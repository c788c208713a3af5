//! What an engine holds and calls: the architecture as a type ([`network`]:
//! the `Network` trait that generated code implements, and how a net file
//! is loaded), a search thread's accumulators ([`stack`]: the
//! `AccumulatorStack`, updated lazily from the pieces each move changed,
//! [`changes`]; [`refresh_cache`]: the refresh cache), what an evaluation
//! returns ([`evaluation`]), and any architecture behind a vtable
//! ([`any_network`]).

pub mod accumulator;
pub mod any_network;
pub mod changes;
pub mod evaluation;
pub mod network;
pub mod refresh_cache;
pub mod sparse_transformed;
pub mod stack;
