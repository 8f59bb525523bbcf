#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| arena_fuzz_targets::job_payload(data));
