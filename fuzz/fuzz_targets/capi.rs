#![no_main]
//! See `fuzz/src/capi.rs`: calls through nnue-capi's C functions.

#[path = "../src/capi.rs"]
mod capi;

libfuzzer_sys::fuzz_target!(|data: &[u8]| capi::capi(data));
