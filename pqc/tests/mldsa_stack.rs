//! Peak stack of ML-DSA keygen, sign and verify on the host, by stack
//! painting: in a thread with a 2 MiB stack, fill the unused stack below
//! the current frame with a pattern, run the operation, and find the
//! deepest overwritten word. Keys, message and signature live on the heap,
//! so the figure is the library's own stack use (plus one call frame of
//! this harness). Release builds also assert the signing budgets: 48 KiB
//! for ML-DSA-44 (the Cortex-A9 firmware goal) and, in the small-stack
//! mode, 32 KiB for ML-DSA-44 and 64 KiB for ML-DSA-87 (the Cortex-M4 goals).
//!
//! Painting writes below the stack pointer, which Rust does not model; it
//! is confined to this test (the `pqc` crate itself forbids `unsafe`).

use pqc::mldsa::{self, MlDsa, ParameterSet, SigningMode};
use std::hint::black_box;

const PAINT_BYTES: usize = 1 << 20;
const PATTERN: u64 = 0xC0DE_CAFE_F00D_5EED;
/// Words left alone just below the frame that paints (its own spills).
const SKIP_WORDS: usize = 256;

/// Paints, runs `f`, returns the bytes of stack `f` used below this frame.
#[inline(never)]
fn measure(f: &mut dyn FnMut()) -> usize {
    let marker = 0u64;
    let top = black_box(&marker as *const u64 as usize) & !7;
    let words = PAINT_BYTES / 8;
    let lowest = top - (words + SKIP_WORDS) * 8;
    // SAFETY (test only): the thread stack is 2 MiB and this frame is near
    // its top, so [lowest, top − SKIP_WORDS·8) is mapped, unused stack.
    unsafe {
        for i in 0..words {
            std::ptr::write_volatile((lowest + i * 8) as *mut u64, PATTERN);
        }
    }
    f();
    let mut untouched = 0;
    // SAFETY: same region as above.
    unsafe {
        while untouched < words
            && std::ptr::read_volatile((lowest + untouched * 8) as *const u64) == PATTERN
        {
            untouched += 1;
        }
    }
    assert!(untouched > 0, "painted region too small");
    (words - untouched + SKIP_WORDS) * 8
}

fn peak(set: ParameterSet, op: &'static str) -> usize {
    std::thread::Builder::new()
        .stack_size(2 * PAINT_BYTES)
        .spawn(move || {
            let mut pk = vec![0u8; set.public_key_len()];
            let mut sk = vec![0u8; set.secret_key_len()];
            let mut sig = vec![0u8; set.signature_len()];
            mldsa::keygen_internal(set, &[3; 32], &mut pk, &mut sk).unwrap();
            mldsa::sign(set, &sk, b"msg", b"", &[0; 32], &mut sig).unwrap();
            let mut worst = 0;
            // Several messages, so different rejection paths run.
            for i in 0..8u8 {
                let used = measure(&mut || match op {
                    "keygen" => mldsa::keygen_internal(set, &[i; 32], &mut pk, &mut sk).unwrap(),
                    "sign" => <MlDsa>::default()
                        .with_signing_mode(SigningMode::Fast)
                        .sign(set, &sk, &[i; 40], b"", &[i; 32], &mut sig)
                        .unwrap(),
                    "sign-small" => <MlDsa>::default()
                        .with_signing_mode(SigningMode::SmallStack)
                        .sign(set, &sk, &[i; 40], b"", &[i; 32], &mut sig)
                        .unwrap(),
                    "verify" => mldsa::verify(set, &pk, b"msg", b"", &sig).map_or((), |_| ()),
                    _ => unreachable!(),
                });
                worst = worst.max(used);
            }
            worst
        })
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn peak_stack_of_keygen_sign_verify() {
    let mut sign = std::collections::BTreeMap::new();
    for set in ParameterSet::ALL {
        let mut line = format!("{}:", set.params().name);
        for op in ["keygen", "sign", "sign-small", "verify"] {
            let used = peak(set, op);
            line += &format!(" {op} {used} B ({:.1} KiB)", used as f64 / 1024.0);
            sign.insert((set.params().name, op), used);
        }
        println!("{line}");
    }
    if !cfg!(debug_assertions) {
        for (name, op, budget) in [
            ("ML-DSA-44", "sign", 48 * 1024),
            ("ML-DSA-44", "sign-small", 32 * 1024),
            ("ML-DSA-87", "sign-small", 64 * 1024),
        ] {
            let used = sign[&(name, op)];
            assert!(
                used <= budget,
                "{name} {op} uses {used} bytes of stack, budget {budget}"
            );
        }
    }
}
