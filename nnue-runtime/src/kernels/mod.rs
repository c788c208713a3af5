//! The SIMD algorithms, each written once against the [`crate::simd`]
//! traits and instantiated per instruction set and per architecture (sizes
//! are const generics, so every instance is specialised and unrolled for its
//! shape). [`layout`] holds the load-time weight layouts they expect.
//!
//! Every function here is `unsafe` only because it runs vector instructions:
//! the backend tokens of [`crate::simd::x86`] call them inside
//! `#[target_feature]` functions after checking the CPU. Memory accesses are
//! bounds-checked up front (a panic, never an out-of-bounds read).

pub mod layout;

mod accumulate;
mod affine;
mod i32_affine;
mod nonzero;
mod screlu_affine;
mod set_updates;
mod transform;

pub use accumulate::accumulate;
pub use affine::{affine_columns, affine_columns_listed, affine_rows};
pub use i32_affine::i32_affine_pairs;
pub use nonzero::{ChunkList, ChunkSearch, ChunkSlots, nonzero_chunks};
pub use screlu_affine::{screlu_affine, screlu_affine_accumulators};
pub use set_updates::{
    Base, PREFETCH_LANES, Rebase, SetRows, SetUpdate, SetUpdates, UpdateBase, prefetch_sets, update_sets,
};
pub use transform::{
    search_while_storing, transform_clip, transform_clip_listed, transform_pairwise_mulhi,
    transform_pairwise_mulhi_listed, transform_pairwise_mulhi_signed, transform_pairwise_mulhi_signed_listed,
    transform_pairwise_mullo, transform_pairwise_mullo_listed,
};
