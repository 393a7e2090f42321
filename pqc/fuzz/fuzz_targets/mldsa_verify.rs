//! ML-DSA decoding + verification of arbitrary pk/sig/msg/ctx bytes and of
//! mutated valid signatures, all three sets (body: `pqc_fuzz`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pqc_fuzz::mldsa_decode_verify(data));
