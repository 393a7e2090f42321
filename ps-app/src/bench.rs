//! The benchmark table: keygen / sign / verify per parameter set, timer
//! ticks (mean over the iterations) and peak stack (max over them).

use crate::app::{Measurement, Platform};
use core::fmt::Write;
use pqc::keccak::{KeccakBackend, SpongeMode};
use pqc::mldsa::{self, MlDsa, ParameterSet};
use pqc::ring::{Poly, RingBackend};
use pqc::slhdsa::{self, params as slh, HashFamily, Params};

/// Iteration counts, fixed at build time (environment variables
/// `PS_APP_BENCH_MLDSA_ITERATIONS`, default 10, and
/// `PS_APP_BENCH_SLHDSA_ITERATIONS`, default 1: one SLH-DSA-SHAKE-128s
/// signature is minutes of emulated time under QEMU, so CI keeps 1).
#[derive(Clone, Copy, Debug)]
pub struct Iterations {
    /// Per ML-DSA row.
    pub mldsa: u32,
    /// Per SLH-DSA row.
    pub slhdsa: u32,
}

const fn parse(text: Option<&str>, default: u32) -> u32 {
    let Some(text) = text else { return default };
    let bytes = text.as_bytes();
    let mut value = 0u32;
    let mut i = 0;
    while i < bytes.len() {
        assert!(bytes[i].is_ascii_digit(), "iteration count must be decimal");
        value = value * 10 + (bytes[i] - b'0') as u32;
        i += 1;
    }
    assert!(value > 0, "iteration count must be at least 1");
    value
}

/// The build's iteration counts.
pub const ITERATIONS: Iterations = Iterations {
    mldsa: parse(option_env!("PS_APP_BENCH_MLDSA_ITERATIONS"), 10),
    slhdsa: parse(option_env!("PS_APP_BENCH_SLHDSA_ITERATIONS"), 1),
};

/// The message every benchmark signs.
const MESSAGE: &[u8] = b"ps-app benchmark message: 48 bytes of plain text";

/// SLH-DSA sets in the table.
pub const SLH_TABLE: [&Params; 4] = [
    &slh::SHAKE_128F,
    &slh::SHA2_128F,
    &slh::SHAKE_128S,
    &slh::SHA2_128S,
];

/// The ML-DSA-44 signing stack goal.
pub const MLDSA44_SIGN_STACK_GOAL: usize = 48 * 1024;

/// One measured operation.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// Parameter set.
    pub algorithm: &'static str,
    /// keygen, sign or verify.
    pub operation: &'static str,
    /// "sw" or "hw".
    pub backend: &'static str,
    /// Iterations measured.
    pub iterations: u32,
    /// Mean ticks per call.
    pub mean_ticks: u64,
    /// Peak stack over the iterations.
    pub stack_bytes: Option<usize>,
    /// Every call succeeded (and verify accepted).
    pub ok: bool,
}

fn run(
    platform: &mut dyn Platform,
    (algorithm, backend): (&'static str, &'static str),
    operation: &'static str,
    iterations: u32,
    f: &mut dyn FnMut() -> bool,
) -> Row {
    let mut total = 0u64;
    let mut stack: Option<usize> = None;
    let mut ok = true;
    for _ in 0..iterations {
        let mut call_ok = false;
        let Measurement { ticks, stack_bytes } = platform.measure(&mut || call_ok = f());
        ok &= call_ok;
        total += ticks;
        stack = match (stack, stack_bytes) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
    }
    Row {
        algorithm,
        operation,
        backend,
        iterations,
        mean_ticks: total / iterations as u64,
        stack_bytes: stack,
        ok,
    }
}

/// Prints the table header.
pub fn print_header(out: &mut dyn Write) {
    let _ = writeln!(
        out,
        "| algorithm            | op     | backend | iters | ticks (mean)  | peak stack (B) | result |"
    );
    let _ = writeln!(
        out,
        "|----------------------|--------|---------|-------|---------------|----------------|--------|"
    );
}

/// Prints one table row.
pub fn print_row(out: &mut dyn Write, row: &Row) {
    let mut stack = [0u8; 20];
    let stack = match row.stack_bytes {
        Some(bytes) => format_usize(bytes, &mut stack),
        None => "n/a",
    };
    let _ = writeln!(
        out,
        "| {:<20} | {:<6} | {:<7} | {:>5} | {:>13} | {:>14} | {:<6} |",
        row.algorithm,
        row.operation,
        row.backend,
        row.iterations,
        row.mean_ticks,
        stack,
        if row.ok { "ok" } else { "FAIL" }
    );
}

fn format_usize(mut value: usize, buf: &mut [u8; 20]) -> &str {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    core::str::from_utf8(&buf[at..]).unwrap_or("?")
}

/// keygen, sign, verify of one ML-DSA set in software.
pub fn mldsa_rows(platform: &mut dyn Platform, set: ParameterSet, iterations: u32) -> [Row; 3] {
    let name = set.params().name;
    let (mut pk, mut sk, mut sig) = ([0u8; 2592], [0u8; 4896], [0u8; 4627]);
    let pk = &mut pk[..set.public_key_len()];
    let sk = &mut sk[..set.secret_key_len()];
    let sig = &mut sig[..set.signature_len()];
    let seed = [0x42u8; 32];
    let keygen = run(platform, (name, "sw"), "keygen", iterations, &mut || {
        mldsa::keygen_internal(set, &seed, pk, sk).is_ok()
    });
    let sign = run(platform, (name, "sw"), "sign", iterations, &mut || {
        mldsa::sign(set, sk, MESSAGE, b"", &[0; 32], sig).is_ok()
    });
    let verify = run(platform, (name, "sw"), "verify", iterations, &mut || {
        mldsa::verify(set, pk, MESSAGE, b"", sig).is_ok()
    });
    [keygen, sign, verify]
}

/// keygen, sign, verify of one SLH-DSA set in software.
pub fn slhdsa_rows(platform: &mut dyn Platform, p: &'static Params, iterations: u32) -> [Row; 3] {
    let mut sig = [0u8; slh::MAX_SIG_BYTES];
    let (mut pk, mut sk) = ([0u8; 64], [0u8; 128]);
    let (pk, sk) = (&mut pk[..p.pk_bytes()], &mut sk[..p.sk_bytes()]);
    let sig = &mut sig[..p.sig_bytes()];
    let seeds = [0x24u8; 3 * slh::MAX_N];
    let n = p.n;
    let keygen = run(platform, (p.name, "sw"), "keygen", iterations, &mut || {
        slhdsa::slh_keygen_internal(
            p,
            &seeds[..n],
            &seeds[n..2 * n],
            &seeds[2 * n..3 * n],
            sk,
            pk,
        )
        .is_ok()
    });
    let sign = run(platform, (p.name, "sw"), "sign", iterations, &mut || {
        slhdsa::slh_sign(p, sk, MESSAGE, b"", None, sig).is_ok()
    });
    let verify = run(platform, (p.name, "sw"), "verify", iterations, &mut || {
        slhdsa::slh_verify(p, pk, MESSAGE, b"", sig).is_ok()
    });
    [keygen, sign, verify]
}

/// Prints the whole table and the stack lines; returns whether every
/// operation succeeded.
pub fn run_table(out: &mut dyn Write, platform: &mut dyn Platform, iterations: Iterations) -> bool {
    let mut ok = true;
    print_header(out);
    let mut mldsa44_sign = None;
    let mut mldsa87_sign = None;
    for set in ParameterSet::ALL {
        for row in mldsa_rows(platform, set, iterations.mldsa) {
            print_row(out, &row);
            ok &= row.ok;
            if row.operation == "sign" {
                match set {
                    ParameterSet::MlDsa44 => mldsa44_sign = row.stack_bytes,
                    ParameterSet::MlDsa87 => mldsa87_sign = row.stack_bytes,
                    _ => {}
                }
            }
        }
    }
    for p in SLH_TABLE {
        for row in slhdsa_rows(platform, p, iterations.slhdsa) {
            print_row(out, &row);
            ok &= row.ok;
        }
    }
    // SLH-DSA-SHAKE-256f: not a table row, only its signing stack.
    let [_, slh256f_sign, slh256f_verify] = slhdsa_rows(platform, &slh::SHAKE_256F, 1);
    ok &= slh256f_sign.ok && slh256f_verify.ok;

    // The measuring harness's own frames (closures, timer reads) around a
    // call that does nothing: included in every peak above.
    let harness = run(platform, ("harness", "sw"), "noop", 1, &mut || {
        core::hint::black_box(true)
    });
    let harness = harness.stack_bytes.unwrap_or(0);
    let mut line = |label: &str, bytes: Option<usize>| {
        let _ = match bytes {
            Some(b) => writeln!(
                out,
                "stack: {label:<26} peak {b} B ({} KiB; {} B without the {harness} B harness)",
                b.div_ceil(1024),
                b.saturating_sub(harness)
            ),
            None => writeln!(out, "stack: {label:<26} not measurable on this platform"),
        };
    };
    line("ML-DSA-87 sign", mldsa87_sign);
    line("SLH-DSA-SHAKE-256f sign", slh256f_sign.stack_bytes);
    line("ML-DSA-44 sign", mldsa44_sign);
    if let Some(bytes) = mldsa44_sign {
        let _ = writeln!(
            out,
            "stack: ML-DSA-44 sign goal <= {} B: {} (with harness {bytes} B, without {} B)",
            MLDSA44_SIGN_STACK_GOAL,
            if bytes <= MLDSA44_SIGN_STACK_GOAL {
                "met"
            } else if bytes.saturating_sub(harness) <= MLDSA44_SIGN_STACK_GOAL {
                "met by the operation alone, not with the harness"
            } else {
                "NOT met"
            },
            bytes.saturating_sub(harness)
        );
    }
    ok
}

/// A `&mut dyn RingBackend` as a sized backend (the engines are generic).
/// Forwards every method, so the hardware backend's overrides are used.
struct DynRing<'a>(&'a mut dyn RingBackend);

impl RingBackend for DynRing<'_> {
    fn ntt(&mut self, a: &mut Poly) {
        self.0.ntt(a)
    }
    fn intt(&mut self, a: &mut Poly) {
        self.0.intt(a)
    }
    fn pointwise_mul(&mut self, a: &Poly, b: &Poly, out: &mut Poly) {
        self.0.pointwise_mul(a, b, out)
    }
    fn pointwise_mul_acc(&mut self, acc: &mut Poly, a: &Poly, b: &Poly) {
        self.0.pointwise_mul_acc(acc, a, b)
    }
    fn ntt_vec(&mut self, v: &mut [Poly]) {
        self.0.ntt_vec(v)
    }
    fn intt_vec(&mut self, v: &mut [Poly]) {
        self.0.intt_vec(v)
    }
    fn dot(&mut self, row: &[Poly], v: &[Poly], out: &mut Poly) {
        self.0.dot(row, v, out)
    }
    fn scale_vec(&mut self, c: &Poly, v: &[Poly], out: &mut [Poly]) {
        self.0.scale_vec(c, v, out)
    }
}

/// A `&mut dyn KeccakBackend` as a sized backend; forwards every method.
struct DynKeccak<'a>(&'a mut dyn KeccakBackend);

impl KeccakBackend for DynKeccak<'_> {
    fn permute(&mut self, state: &mut [u64; 25]) {
        self.0.permute(state)
    }
    fn sponge(&mut self, mode: SpongeMode, parts: &[&[u8]], out: &mut [u8]) {
        self.0.sponge(mode, parts, out)
    }
    fn slh_shake_chain(
        &mut self,
        pk_seed: &[u8],
        adrs: &[u8; 32],
        x: &[u8],
        start: u32,
        steps: u32,
        out: &mut [u8],
    ) {
        self.0.slh_shake_chain(pk_seed, adrs, x, start, steps, out)
    }
    fn slh_shake_thash(
        &mut self,
        pk_seed: &[u8],
        adrs: &[u8; 32],
        m1: &[u8],
        m2: &[u8],
        out: &mut [u8],
    ) {
        self.0.slh_shake_thash(pk_seed, adrs, m1, m2, out)
    }
    fn slh_shake_tree_level(
        &mut self,
        pk_seed: &[u8],
        adrs: &[u8; 32],
        children: &[u8],
        out: &mut [u8],
    ) {
        self.0.slh_shake_tree_level(pk_seed, adrs, children, out)
    }
    fn slh_shake_wots_pk(
        &mut self,
        pk_seed: &[u8],
        sk_seed: &[u8],
        adrs: &[u8; 32],
        out: &mut [u8],
    ) {
        self.0.slh_shake_wots_pk(pk_seed, sk_seed, adrs, out)
    }
    fn slh_shake_fors_leaves(
        &mut self,
        pk_seed: &[u8],
        sk_seed: &[u8],
        adrs: &[u8; 32],
        first_index: u32,
        out: &mut [u8],
    ) {
        self.0
            .slh_shake_fors_leaves(pk_seed, sk_seed, adrs, first_index, out)
    }
}

/// keygen, sign, verify of one ML-DSA set on the given backends, with the
/// inputs of [`mldsa_rows`]; a row is ok only if its output equals the
/// software result (the hardware backends must be bit-identical).
pub fn mldsa_rows_on(
    platform: &mut dyn Platform,
    set: ParameterSet,
    iterations: u32,
    ring: &mut dyn RingBackend,
    keccak: &mut dyn KeccakBackend,
) -> [Row; 3] {
    let name = set.params().name;
    let mut engine = MlDsa::new(DynRing(ring), DynKeccak(keccak));
    let (mut pk, mut sk, mut sig) = ([0u8; 2592], [0u8; 4896], [0u8; 4627]);
    let pk = &mut pk[..set.public_key_len()];
    let sk = &mut sk[..set.secret_key_len()];
    let sig = &mut sig[..set.signature_len()];
    let seed = [0x42u8; 32];
    let keygen = run(platform, (name, "hw"), "keygen", iterations, &mut || {
        engine.keygen_internal(set, &seed, pk, sk).is_ok()
    });
    let sign = run(platform, (name, "hw"), "sign", iterations, &mut || {
        engine.sign(set, sk, MESSAGE, b"", &[0; 32], sig).is_ok()
    });
    let verify = run(platform, (name, "hw"), "verify", iterations, &mut || {
        engine.verify(set, pk, MESSAGE, b"", sig).is_ok()
    });
    // The same deterministic inputs in software: the outputs must agree.
    let (mut pk_sw, mut sk_sw, mut sig_sw) = ([0u8; 2592], [0u8; 4896], [0u8; 4627]);
    let pk_sw = &mut pk_sw[..set.public_key_len()];
    let sk_sw = &mut sk_sw[..set.secret_key_len()];
    let sig_sw = &mut sig_sw[..set.signature_len()];
    let same = mldsa::keygen_internal(set, &seed, pk_sw, sk_sw).is_ok()
        && mldsa::sign(set, sk_sw, MESSAGE, b"", &[0; 32], sig_sw).is_ok()
        && (&*pk, &*sk, &*sig) == (&*pk_sw, &*sk_sw, &*sig_sw);
    let [mut keygen, mut sign, verify] = [keygen, sign, verify];
    keygen.ok &= same;
    sign.ok &= same;
    [keygen, sign, verify]
}

/// keygen, sign, verify of one SLH-DSA set on the given Keccak backend,
/// checked against the software result like [`mldsa_rows_on`] (the
/// deterministic variant, so the signatures must be equal).
pub fn slhdsa_rows_on(
    platform: &mut dyn Platform,
    p: &'static Params,
    iterations: u32,
    keccak: &mut dyn KeccakBackend,
) -> [Row; 3] {
    let mut keccak = DynKeccak(keccak);
    let mut sig = [0u8; slh::MAX_SIG_BYTES];
    let (mut pk, mut sk) = ([0u8; 64], [0u8; 128]);
    let (pk, sk) = (&mut pk[..p.pk_bytes()], &mut sk[..p.sk_bytes()]);
    let sig = &mut sig[..p.sig_bytes()];
    let seeds = [0x24u8; 3 * slh::MAX_N];
    let n = p.n;
    let (a, b, c) = (&seeds[..n], &seeds[n..2 * n], &seeds[2 * n..3 * n]);
    let name = (p.name, "hw");
    let mut keygen = run(platform, name, "keygen", iterations, &mut || {
        slhdsa::slh_keygen_internal_with(&mut keccak, p, a, b, c, sk, pk).is_ok()
    });
    let mut sign = run(platform, name, "sign", iterations, &mut || {
        slhdsa::slh_sign_with(&mut keccak, p, sk, MESSAGE, b"", None, sig).is_ok()
    });
    let verify = run(platform, name, "verify", iterations, &mut || {
        slhdsa::slh_verify_with(&mut keccak, p, pk, MESSAGE, b"", sig).is_ok()
    });
    let (mut pk_sw, mut sk_sw) = ([0u8; 64], [0u8; 128]);
    let (pk_sw, sk_sw) = (&mut pk_sw[..p.pk_bytes()], &mut sk_sw[..p.sk_bytes()]);
    let same_keys = slhdsa::slh_keygen_internal(p, a, b, c, sk_sw, pk_sw).is_ok()
        && (&*pk, &*sk) == (&*pk_sw, &*sk_sw);
    let mut sig_sw = [0u8; slh::MAX_SIG_BYTES];
    let sig_sw = &mut sig_sw[..p.sig_bytes()];
    let same_sig =
        slhdsa::slh_sign(p, sk_sw, MESSAGE, b"", None, sig_sw).is_ok() && *sig == *sig_sw;
    keygen.ok &= same_keys;
    sign.ok &= same_sig;
    [keygen, sign, verify]
}

/// The hardware table: every ML-DSA set and every SHAKE set of
/// [`SLH_TABLE`] (the SHA2 sets do not use Keccak, so "hw" would be "sw").
/// Returns whether every operation succeeded and matched software.
pub fn run_hw_table(
    out: &mut dyn Write,
    platform: &mut dyn Platform,
    ring: &mut dyn RingBackend,
    keccak: &mut dyn KeccakBackend,
    iterations: Iterations,
) -> bool {
    let mut ok = true;
    print_header(out);
    for set in ParameterSet::ALL {
        for row in mldsa_rows_on(platform, set, iterations.mldsa, ring, keccak) {
            print_row(out, &row);
            ok &= row.ok;
        }
    }
    for p in SLH_TABLE.iter().filter(|p| p.family == HashFamily::Shake) {
        for row in slhdsa_rows_on(platform, p, iterations.slhdsa, keccak) {
            print_row(out, &row);
            ok &= row.ok;
        }
    }
    ok
}
