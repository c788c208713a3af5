#![no_main]
//! See `nnue_fuzz::net_edits_three_sets`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| nnue_fuzz::net_edits_three_sets(data));
