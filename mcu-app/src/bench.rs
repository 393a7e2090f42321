//! The benchmark table: keygen, sign and verify of every ML-DSA set (sign in
//! the small-stack mode: the fast mode's working state does not fit the
//! 64 KiB stack, not even for ML-DSA-44) and of SLH-DSA 128f/128s (SHAKE,
//! SHA2), with the inputs of ps-app's table (`bench_inputs.rs`).

use crate::table::{self, Calibration, Row, Unit};
use core::fmt::Write;
use pqc::mldsa::{MlDsa, ParameterSet, SigningMode};
use pqc::slhdsa::{self, params as slh, Params};
use pqc_selftest::bench_inputs::{
    parse_iterations, sign_row_iterations, sign_row_message, MESSAGE, MLDSA_RND, MLDSA_SEED,
    SLH_SEED_BYTE,
};
pub use pqc_selftest::bench_inputs::{Iterations, SLH_TABLE};

/// The build's iteration counts (`MCU_APP_BENCH_MLDSA_ITERATIONS`,
/// default 10; `MCU_APP_BENCH_SLHDSA_ITERATIONS`, default 1: one
/// SLH-DSA-128s signature is billions of emulated instructions).
pub const ITERATIONS: Iterations = Iterations {
    mldsa: parse_iterations(option_env!("MCU_APP_BENCH_MLDSA_ITERATIONS"), 10),
    slhdsa: parse_iterations(option_env!("MCU_APP_BENCH_SLHDSA_ITERATIONS"), 1),
};

/// Small-stack signing goals on the Cortex-M4 (issue 16).
pub const SIGN_STACK_GOALS: [(ParameterSet, usize); 2] = [
    (ParameterSet::MlDsa44, 32 * 1024),
    (ParameterSet::MlDsa87, 64 * 1024),
];

/// Measures calls: SysTick ticks and painted stack, converted to counts.
pub struct Meter {
    /// Ticks to counts.
    pub calibration: Calibration,
    /// What the counts are.
    pub unit: Unit,
}

impl Meter {
    fn row(
        &self,
        (algorithm, operation): (&'static str, &'static str),
        iterations: u32,
        f: &mut dyn FnMut() -> bool,
    ) -> Row {
        let (mut total, mut stack, mut ok) = (0u64, 0usize, true);
        for _ in 0..iterations {
            let mut call_ok = false;
            let (ticks, bytes) = crate::board::measure(&mut || call_ok = f());
            ok &= call_ok;
            total += ticks;
            stack = stack.max(bytes);
        }
        Row {
            algorithm,
            operation,
            iterations,
            mean: self.calibration.counts(total / iterations as u64),
            stack_bytes: stack,
            ok,
        }
    }
}

const MLDSA_MAX: ParameterSet = ParameterSet::MlDsa87;
/// The largest SLH-DSA set of the table (all have n = 16).
const SLH_MAX: Params = slh::SHAKE_128F;

/// Key and signature buffers of the largest ML-DSA and SLH-DSA sets of the
/// table, outside the measured stack.
pub struct Buffers {
    mldsa_pk: [u8; MLDSA_MAX.public_key_len()],
    mldsa_sk: [u8; MLDSA_MAX.secret_key_len()],
    mldsa_sig: [u8; MLDSA_MAX.signature_len()],
    slh_pk: [u8; SLH_MAX.pk_bytes()],
    slh_sk: [u8; SLH_MAX.sk_bytes()],
    slh_sig: [u8; SLH_MAX.sig_bytes()],
}

impl Buffers {
    /// Zeroed buffers.
    pub const fn new() -> Self {
        Buffers {
            mldsa_pk: [0; MLDSA_MAX.public_key_len()],
            mldsa_sk: [0; MLDSA_MAX.secret_key_len()],
            mldsa_sig: [0; MLDSA_MAX.signature_len()],
            slh_pk: [0; SLH_MAX.pk_bytes()],
            slh_sk: [0; SLH_MAX.sk_bytes()],
            slh_sig: [0; SLH_MAX.sig_bytes()],
        }
    }
}

fn mldsa_rows(meter: &Meter, set: ParameterSet, iterations: u32, b: &mut Buffers) -> [Row; 3] {
    let name = set.params().name;
    let pk = &mut b.mldsa_pk[..set.public_key_len()];
    let sk = &mut b.mldsa_sk[..set.secret_key_len()];
    let sig = &mut b.mldsa_sig[..set.signature_len()];
    let mut engine = <MlDsa>::default().with_signing_mode(SigningMode::SmallStack);
    let keygen = meter.row((name, "keygen"), iterations, &mut || {
        engine.keygen_internal(set, &MLDSA_SEED, pk, sk).is_ok()
    });
    // The mean over the sign messages (the attempts vary with the
    // message), ending on MESSAGE, whose signature the verify row checks.
    let mut k = 0;
    let sign = meter.row((name, "sign"), sign_row_iterations(iterations), &mut || {
        let message = sign_row_message(k);
        k += 1;
        engine.sign(set, sk, &message, b"", &MLDSA_RND, sig).is_ok()
    });
    let verify = meter.row((name, "verify"), iterations, &mut || {
        engine.verify(set, pk, MESSAGE, b"", sig).is_ok()
    });
    [keygen, sign, verify]
}

fn slhdsa_rows(meter: &Meter, p: &'static Params, iterations: u32, b: &mut Buffers) -> [Row; 3] {
    let (pk, sk, sig) = (
        &mut b.slh_pk[..p.pk_bytes()],
        &mut b.slh_sk[..p.sk_bytes()],
        &mut b.slh_sig[..p.sig_bytes()],
    );
    let seed = [SLH_SEED_BYTE; SLH_MAX.n];
    let keygen = meter.row((p.name, "keygen"), iterations, &mut || {
        slhdsa::slh_keygen_internal(p, &seed, &seed, &seed, sk, pk).is_ok()
    });
    let sign = meter.row((p.name, "sign"), iterations, &mut || {
        slhdsa::slh_sign(p, sk, MESSAGE, b"", None, sig).is_ok()
    });
    let verify = meter.row((p.name, "verify"), iterations, &mut || {
        slhdsa::slh_verify(p, pk, MESSAGE, b"", sig).is_ok()
    });
    [keygen, sign, verify]
}

/// Prints the table and the stack lines; returns whether every operation
/// succeeded and every stack goal was met.
pub fn run_table(
    out: &mut dyn Write,
    meter: &Meter,
    iterations: Iterations,
    buffers: &mut Buffers,
) -> bool {
    let mut ok = true;
    let mut sign_stack = [0usize; 3];
    table::print_header(out, meter.unit);
    for (index, set) in ParameterSet::ALL.into_iter().enumerate() {
        for row in mldsa_rows(meter, set, iterations.mldsa, buffers) {
            table::print_row(out, &row);
            ok &= row.ok;
            if row.operation == "sign" {
                sign_stack[index] = row.stack_bytes;
            }
        }
    }
    for &p in SLH_TABLE {
        for row in slhdsa_rows(meter, p, iterations.slhdsa, buffers) {
            table::print_row(out, &row);
            ok &= row.ok;
        }
    }
    // The harness's own frames around a call that does nothing.
    let harness = meter.row(("harness", "noop"), 1, &mut || core::hint::black_box(true));
    let _ = writeln!(
        out,
        "stack: harness {} B (closures, counter reads, one SysTick frame), included in every peak",
        harness.stack_bytes
    );
    for (set, goal) in SIGN_STACK_GOALS {
        let index = ParameterSet::ALL
            .iter()
            .position(|&s| s == set)
            .unwrap_or(0);
        let used = sign_stack[index];
        let met = used <= goal;
        ok &= met;
        let _ = writeln!(
            out,
            "stack: {} sign (small-stack mode) peak {used} B, goal <= {goal} B: {}",
            set.params().name,
            if met { "met" } else { "NOT met" }
        );
    }
    ok
}
