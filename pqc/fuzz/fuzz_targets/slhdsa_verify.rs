//! SLH-DSA decoding + verification of arbitrary pk/sig/msg/ctx bytes and of
//! mutated valid signatures, all twelve sets (body: `pqc_fuzz`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pqc_fuzz::slhdsa_decode_verify(data));
