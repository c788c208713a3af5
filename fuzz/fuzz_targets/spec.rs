#![no_main]
//! See `nnue_fuzz::spec`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| nnue_fuzz::spec(data));
