#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| arena_fuzz_targets::ddz_legal_batch(data));
