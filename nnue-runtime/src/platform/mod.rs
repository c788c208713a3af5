//! What the CPU running the code offers: its instruction sets ([`isa`],
//! detected once at run time) and the size of its L1 data cache
//! ([`cpu_cache`]).

pub mod cpu_cache;
pub mod isa;
