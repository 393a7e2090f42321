//! The benchmark table: keygen / sign / verify per parameter set, timer
//! ticks (mean over the iterations) and peak stack (max over them).

use crate::app::{Measurement, MlDsaEngine, Platform, SlhDsaEngine};
use core::fmt::Write;
use driver::accel::{AccelError, AccelStats, SlhOnPl, WotsChainOffload};
use pqc::keccak::{KeccakBackend, SoftKeccak};
use pqc::mldsa::{self, MlDsa, ParameterSet};
use pqc::ring::{RingBackend, SoftRing};
use pqc::slhdsa::SlhBackend;
use pqc::slhdsa::{self, params as slh, HashFamily, Params};
use pqc_selftest::bench_inputs::{
    parse_iterations, sign_message, sign_row_iterations, sign_row_message, MESSAGE, MLDSA_RND,
    MLDSA_SEED, SLH_SEED_BYTE,
};
pub use pqc_selftest::bench_inputs::{Iterations, SLH_TABLE};
use ps_pl_contract::regmap::mldsa as mldsa_regs;
use ps_pl_contract::regmap::slhdsa as slhdsa_regs;

/// The build's iteration counts (environment variables
/// `PS_APP_BENCH_MLDSA_ITERATIONS`, default 10, and
/// `PS_APP_BENCH_SLHDSA_ITERATIONS`, default 1: one SLH-DSA-SHAKE-128s
/// signature is minutes of emulated time under QEMU, so CI keeps 1).
pub const ITERATIONS: Iterations = Iterations {
    mldsa: parse_iterations(option_env!("PS_APP_BENCH_MLDSA_ITERATIONS"), 10),
    slhdsa: parse_iterations(option_env!("PS_APP_BENCH_SLHDSA_ITERATIONS"), 1),
};

/// The ML-DSA-44 signing stack goal.
pub const MLDSA44_SIGN_STACK_GOAL: usize = 48 * 1024;

/// One measured operation.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// Parameter set.
    pub algorithm: &'static str,
    /// keygen, sign or verify.
    pub operation: &'static str,
    /// "sw", "hw" (primitive offload) or "engine" (the ML-DSA engine).
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

/// SLH-DSA SK.seed ‖ SK.prf ‖ PK.seed (n bytes each) of every row.
const SLH_SEEDS: [u8; 3 * slh::MAX_N] = [SLH_SEED_BYTE; 3 * slh::MAX_N];

/// Largest ML-DSA set: its sizes bound every buffer.
const MLDSA_MAX: ParameterSet = ParameterSet::MlDsa87;

/// ML-DSA key and signature buffers, sized for the largest set.
struct MlDsaBuffers {
    pk: [u8; MLDSA_MAX.public_key_len()],
    sk: [u8; MLDSA_MAX.secret_key_len()],
    sig: [u8; MLDSA_MAX.signature_len()],
}

impl MlDsaBuffers {
    fn new() -> Self {
        MlDsaBuffers {
            pk: [0; MLDSA_MAX.public_key_len()],
            sk: [0; MLDSA_MAX.secret_key_len()],
            sig: [0; MLDSA_MAX.signature_len()],
        }
    }

    /// (pk, sk, sig) of `set`'s lengths.
    fn of(&mut self, set: ParameterSet) -> (&mut [u8], &mut [u8], &mut [u8]) {
        (
            &mut self.pk[..set.public_key_len()],
            &mut self.sk[..set.secret_key_len()],
            &mut self.sig[..set.signature_len()],
        )
    }
}

/// SLH-DSA key and signature buffers, sized for the largest set.
struct SlhDsaBuffers {
    pk: [u8; 2 * slh::MAX_N],
    sk: [u8; 4 * slh::MAX_N],
    sig: [u8; slh::MAX_SIG_BYTES],
}

impl SlhDsaBuffers {
    fn new() -> Self {
        SlhDsaBuffers {
            pk: [0; 2 * slh::MAX_N],
            sk: [0; 4 * slh::MAX_N],
            sig: [0; slh::MAX_SIG_BYTES],
        }
    }

    /// (pk, sk, sig) of `p`'s lengths.
    fn of(&mut self, p: &Params) -> (&mut [u8], &mut [u8], &mut [u8]) {
        (
            &mut self.pk[..p.pk_bytes()],
            &mut self.sk[..p.sk_bytes()],
            &mut self.sig[..p.sig_bytes()],
        )
    }
}

/// keygen, sign, verify of one ML-DSA set on `engine`'s backends, in rows
/// labelled `backend`; the keys and the signature of [`MESSAGE`] are left
/// in `out`. The sign row is the mean over the benchmark's sign messages
/// ([`sign_row_iterations`]), ending on [`MESSAGE`], which the verify row
/// checks.
fn mldsa_rows_with<R: RingBackend, K: KeccakBackend>(
    platform: &mut dyn Platform,
    set: ParameterSet,
    iterations: u32,
    (backend, engine): (&'static str, &mut MlDsa<R, K>),
    out: &mut MlDsaBuffers,
) -> [Row; 3] {
    let name = (set.params().name, backend);
    let (pk, sk, sig) = out.of(set);
    let keygen = run(platform, name, "keygen", iterations, &mut || {
        engine.keygen_internal(set, &MLDSA_SEED, pk, sk).is_ok()
    });
    let mut k = 0;
    let sign = run(
        platform,
        name,
        "sign",
        sign_row_iterations(iterations),
        &mut || {
            let message = sign_row_message(k);
            k += 1;
            engine.sign(set, sk, &message, b"", &MLDSA_RND, sig).is_ok()
        },
    );
    let verify = run(platform, name, "verify", iterations, &mut || {
        engine.verify(set, pk, MESSAGE, b"", sig).is_ok()
    });
    [keygen, sign, verify]
}

/// keygen, sign, verify of one SLH-DSA set with `keccak` (the SHA2 sets do
/// not use it), in rows labelled `backend`; the keys and signature are left
/// in `out`.
fn slhdsa_rows_with<K: SlhBackend>(
    platform: &mut dyn Platform,
    p: &'static Params,
    iterations: u32,
    (backend, keccak): (&'static str, &mut K),
    out: &mut SlhDsaBuffers,
) -> [Row; 3] {
    let name = (p.name, backend);
    let (pk, sk, sig) = out.of(p);
    let seeds = slh_seeds(p);
    let keygen = run(platform, name, "keygen", iterations, &mut || {
        slhdsa::slh_keygen_internal_with(keccak, p, seeds[0], seeds[1], seeds[2], sk, pk).is_ok()
    });
    let sign = run(platform, name, "sign", iterations, &mut || {
        slhdsa::slh_sign_with(keccak, p, sk, MESSAGE, b"", None, sig).is_ok()
    });
    let verify = run(platform, name, "verify", iterations, &mut || {
        slhdsa::slh_verify_with(keccak, p, pk, MESSAGE, b"", sig).is_ok()
    });
    [keygen, sign, verify]
}

/// SK.seed, SK.prf, PK.seed of `p` from [`SLH_SEEDS`].
fn slh_seeds(p: &Params) -> [&'static [u8]; 3] {
    let n = p.n;
    [
        &SLH_SEEDS[..n],
        &SLH_SEEDS[n..2 * n],
        &SLH_SEEDS[2 * n..3 * n],
    ]
}

/// keygen, sign, verify of one ML-DSA set in software.
pub fn mldsa_rows(platform: &mut dyn Platform, set: ParameterSet, iterations: u32) -> [Row; 3] {
    let mut engine = MlDsa::<SoftRing, SoftKeccak>::default();
    let mut out = MlDsaBuffers::new();
    mldsa_rows_with(platform, set, iterations, ("sw", &mut engine), &mut out)
}

/// keygen, sign, verify of one SLH-DSA set in software.
pub fn slhdsa_rows(platform: &mut dyn Platform, p: &'static Params, iterations: u32) -> [Row; 3] {
    let mut out = SlhDsaBuffers::new();
    slhdsa_rows_with(platform, p, iterations, ("sw", &mut SoftKeccak), &mut out)
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
    for &p in SLH_TABLE {
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

/// keygen, sign, verify of one ML-DSA set on the given backends, with the
/// inputs of [`mldsa_rows`]; a row is ok only if its output equals the
/// software result (the hardware backends must be bit-identical).
pub fn mldsa_rows_on(
    platform: &mut dyn Platform,
    set: ParameterSet,
    iterations: u32,
    ring: &mut dyn RingBackend,
    keccak: &mut dyn WotsChainOffload,
) -> [Row; 3] {
    let mut hw = MlDsaBuffers::new();
    let mut engine = MlDsa::new(ring, keccak);
    let [mut keygen, mut sign, verify] =
        mldsa_rows_with(platform, set, iterations, ("hw", &mut engine), &mut hw);
    // The same deterministic inputs in software: the outputs must agree.
    let mut sw = MlDsaBuffers::new();
    let (pk_sw, sk_sw, sig_sw) = sw.of(set);
    let same = mldsa::keygen_internal(set, &MLDSA_SEED, pk_sw, sk_sw).is_ok()
        && mldsa::sign(set, sk_sw, MESSAGE, b"", &MLDSA_RND, sig_sw).is_ok()
        && hw.of(set) == sw.of(set);
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
    keccak: &mut dyn WotsChainOffload,
) -> [Row; 3] {
    let mut hw = SlhDsaBuffers::new();
    let [mut keygen, mut sign, verify] = slhdsa_rows_with(
        platform,
        p,
        iterations,
        ("hw", &mut SlhOnPl(keccak)),
        &mut hw,
    );
    let mut sw = SlhDsaBuffers::new();
    let seeds = slh_seeds(p);
    let (pk_sw, sk_sw, sig_sw) = sw.of(p);
    let same_keys =
        slhdsa::slh_keygen_internal(p, seeds[0], seeds[1], seeds[2], sk_sw, pk_sw).is_ok();
    let same_sig = slhdsa::slh_sign(p, sk_sw, MESSAGE, b"", None, sig_sw).is_ok();
    let ((pk, sk, sig), (pk_sw, sk_sw, sig_sw)) = (hw.of(p), sw.of(p));
    keygen.ok &= same_keys && (&*pk, &*sk) == (&*pk_sw, &*sk_sw);
    sign.ok &= same_sig && *sig == *sig_sw;
    [keygen, sign, verify]
}

/// The hardware table: every ML-DSA set and every SHAKE set of
/// [`SLH_TABLE`] (the SHA2 sets do not use Keccak, so "hw" would be "sw").
/// Returns whether every operation succeeded and matched software.
pub fn run_hw_table(
    out: &mut dyn Write,
    platform: &mut dyn Platform,
    ring: &mut dyn RingBackend,
    keccak: &mut dyn WotsChainOffload,
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

/// KeyGen_internal of `set` on the ML-DSA engine from the ξ of
/// [`mldsa_rows`], in a row labelled "engine"; ok only if every call
/// succeeded and the keys equal software KeyGen_internal's on that ξ.
pub fn mldsa_engine_keygen_row(
    platform: &mut dyn Platform,
    set: ParameterSet,
    iterations: u32,
    engine: &mut dyn MlDsaEngine,
) -> Row {
    let mut hw = MlDsaBuffers::new();
    let (pk, sk, _) = hw.of(set);
    let name = (set.params().name, "engine");
    let mut row = run(platform, name, "keygen", iterations, &mut || {
        engine.keygen_internal(set, &MLDSA_SEED, pk, sk).is_ok()
    });
    let mut sw = MlDsaBuffers::new();
    let (pk_sw, sk_sw, _) = sw.of(set);
    let same = mldsa::keygen_internal(set, &MLDSA_SEED, pk_sw, sk_sw).is_ok()
        && (&*pk, &*sk) == (&*pk_sw, &*sk_sw);
    row.ok &= same;
    row
}

/// M′ of pure ML-DSA with an empty context (FIPS 204 Algorithm 3, what
/// the software rows' `sign` and `verify(set, pk, message, b"", sig)`
/// hash): the domain byte 0, the context length 0, then `message`.
fn mldsa_m_prime(message: &[u8; MESSAGE.len()]) -> [u8; 2 + MESSAGE.len()] {
    let mut m_prime = [0; 2 + MESSAGE.len()];
    m_prime[2..].copy_from_slice(message);
    m_prime
}

/// Sign_internal of `set` on the ML-DSA engine, of what the software sign
/// row signs (the secret key from the ξ of [`mldsa_rows`], the sign
/// messages with an empty context, so M′ = 0 ‖ 0 ‖ message, and
/// [`MLDSA_RND`]), in a row labelled "engine"; ok only if every call
/// succeeded and the last signature, of [`MESSAGE`], equals the software
/// one.
pub fn mldsa_engine_sign_row(
    platform: &mut dyn Platform,
    set: ParameterSet,
    iterations: u32,
    engine: &mut dyn MlDsaEngine,
) -> Row {
    let mut sw = MlDsaBuffers::new();
    let (pk, sk, want) = sw.of(set);
    let signed = mldsa::keygen_internal(set, &MLDSA_SEED, pk, sk).is_ok()
        && mldsa::sign(set, sk, MESSAGE, b"", &MLDSA_RND, want).is_ok();
    let mut hw = MlDsaBuffers::new();
    let (_, _, sig) = hw.of(set);
    let name = (set.params().name, "engine");
    let mut k = 0;
    let mut row = run(
        platform,
        name,
        "sign",
        sign_row_iterations(iterations),
        &mut || {
            let m_prime = mldsa_m_prime(&sign_row_message(k));
            k += 1;
            engine
                .sign_internal(set, sk, &m_prime, &MLDSA_RND, sig)
                .is_ok()
        },
    );
    row.ok &= signed && *sig == *want;
    row
}

/// Verify_internal of `set` on the ML-DSA engine, of the signature the
/// software verify row checks (keys from the ξ of [`mldsa_rows`], the
/// deterministic signature of [`MESSAGE`] with an empty context, both
/// computed in software) on M′ = 0 ‖ 0 ‖ [`MESSAGE`], in a row labelled
/// "engine"; ok only if that signing succeeded and
/// [`mldsa_engine_verify_row_on`] says ok.
pub fn mldsa_engine_verify_row(
    platform: &mut dyn Platform,
    set: ParameterSet,
    iterations: u32,
    engine: &mut dyn MlDsaEngine,
) -> Row {
    let mut sw = MlDsaBuffers::new();
    let (pk, sk, sig) = sw.of(set);
    let signed = mldsa::keygen_internal(set, &MLDSA_SEED, pk, sk).is_ok()
        && mldsa::sign(set, sk, MESSAGE, b"", &MLDSA_RND, sig).is_ok();
    let mut row = mldsa_engine_verify_row_on(
        platform,
        set,
        iterations,
        engine,
        (pk, &mldsa_m_prime(&sign_message(0)), sig),
    );
    row.ok &= signed;
    row
}

/// Verify_internal of `sig` on `m_prime` under `pk` on the engine, in a
/// row labelled "engine"; ok only if every call's result equals software
/// Verify_internal's on the same inputs and software accepts the
/// signature.
pub fn mldsa_engine_verify_row_on(
    platform: &mut dyn Platform,
    set: ParameterSet,
    iterations: u32,
    engine: &mut dyn MlDsaEngine,
    (pk, m_prime, sig): (&[u8], &[u8], &[u8]),
) -> Row {
    let expected = mldsa::verify_internal(set, pk, m_prime, sig);
    let name = (set.params().name, "engine");
    let mut row = run(platform, name, "verify", iterations, &mut || {
        engine.verify_internal(set, pk, m_prime, sig) == expected
    });
    row.ok &= expected.is_ok();
    row
}

/// Which operations an engine runs (its `CONFIG`; the ML-DSA and SLH-DSA
/// engines share the bits, `ps_pl_contract::regmap::slhdsa::CONFIG_KEYGEN`
/// and its neighbours being the ML-DSA ones).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineOps {
    /// `OP_KEYGEN`.
    pub keygen: bool,
    /// `OP_SIGN`.
    pub sign: bool,
    /// `OP_VERIFY`.
    pub verify: bool,
}

impl EngineOps {
    /// The operations of an engine's `CONFIG` word.
    pub fn from_config(config: u32) -> Self {
        EngineOps {
            keygen: config & mldsa_regs::CONFIG_KEYGEN != 0,
            sign: config & mldsa_regs::CONFIG_SIGN != 0,
            verify: config & mldsa_regs::CONFIG_VERIFY != 0,
        }
    }

    /// "keygen, sign and verify", "keygen and verify", …, or "no".
    pub fn names(&self) -> &'static str {
        match (self.keygen, self.sign, self.verify) {
            (true, true, true) => "keygen, sign and verify",
            (true, true, false) => "keygen and sign",
            (true, false, true) => "keygen and verify",
            (false, true, true) => "sign and verify",
            (true, false, false) => "keygen",
            (false, true, false) => "sign",
            (false, false, true) => "verify",
            (false, false, false) => "no",
        }
    }
}

const _: () = {
    use ps_pl_contract::regmap::slhdsa as slhdsa_regs;
    assert!(slhdsa_regs::CONFIG_KEYGEN == mldsa_regs::CONFIG_KEYGEN);
    assert!(slhdsa_regs::CONFIG_SIGN == mldsa_regs::CONFIG_SIGN);
    assert!(slhdsa_regs::CONFIG_VERIFY == mldsa_regs::CONFIG_VERIFY);
};

/// The engine table: per ML-DSA set, keygen, sign and verify on the
/// engine, each when it runs it (`ops`). Returns whether every row
/// succeeded and matched software.
pub fn run_engine_table(
    out: &mut dyn Write,
    platform: &mut dyn Platform,
    engine: &mut dyn MlDsaEngine,
    iterations: Iterations,
    ops: EngineOps,
) -> bool {
    let mut ok = true;
    print_header(out);
    for set in ParameterSet::ALL {
        if ops.keygen {
            let keygen = mldsa_engine_keygen_row(platform, set, iterations.mldsa, engine);
            print_row(out, &keygen);
            ok &= keygen.ok;
        }
        if ops.sign {
            let sign = mldsa_engine_sign_row(platform, set, iterations.mldsa, engine);
            print_row(out, &sign);
            ok &= sign.ok;
        }
        if ops.verify {
            let verify = mldsa_engine_verify_row(platform, set, iterations.mldsa, engine);
            print_row(out, &verify);
            ok &= verify.ok;
        }
    }
    ok
}

/// The sets of [`SLH_TABLE`] that an SLH-DSA engine with `CONFIG` =
/// `config` runs (the contract's `set_arg`).
pub fn slh_engine_sets(config: u32) -> impl Iterator<Item = &'static Params> {
    SLH_TABLE
        .iter()
        .copied()
        .filter(move |p| slhdsa_regs::set_arg(p.name, config).is_some())
}

/// The SLH-DSA engine table: per set of [`SLH_TABLE`] that the engine's
/// `CONFIG` offers ([`slh_engine_sets`]), keygen, sign and verify on the
/// engine (`pqc`'s `*_on` functions, which hash the message on the CPU),
/// each when the engine runs it, on the inputs of the software rows. A
/// row is ok only if every call succeeded and the keys, the deterministic
/// signature of [`MESSAGE`] and the verdict equal software's. Returns
/// whether every row was ok.
pub fn run_slh_engine_table(
    out: &mut dyn Write,
    platform: &mut dyn Platform,
    engine: &mut dyn SlhDsaEngine,
    iterations: Iterations,
    config: u32,
) -> bool {
    let ops = EngineOps::from_config(config);
    let mut ok = true;
    print_header(out);
    for p in slh_engine_sets(config) {
        for row in slhdsa_engine_rows(platform, p, iterations.slhdsa, engine, ops) {
            print_row(out, &row);
            ok &= row.ok;
        }
    }
    ok
}

/// The engine rows of one SLH-DSA set (see [`run_slh_engine_table`]).
fn slhdsa_engine_rows(
    platform: &mut dyn Platform,
    p: &'static Params,
    iterations: u32,
    engine: &mut dyn SlhDsaEngine,
    ops: EngineOps,
) -> impl Iterator<Item = Row> {
    let seeds = slh_seeds(p);
    let mut sw = SlhDsaBuffers::new();
    let (pk_sw, sk_sw, sig_sw) = sw.of(p);
    let software = slhdsa::slh_keygen_internal(p, seeds[0], seeds[1], seeds[2], sk_sw, pk_sw)
        .is_ok()
        && slhdsa::slh_sign(p, sk_sw, MESSAGE, b"", None, sig_sw).is_ok();
    let (pk_sw, sk_sw, sig_sw) = (&*pk_sw, &*sk_sw, &*sig_sw);
    let name = (p.name, "engine");
    let mut hw = SlhDsaBuffers::new();
    let (pk, sk, sig) = hw.of(p);
    let keygen = ops.keygen.then(|| {
        let mut row = run(platform, name, "keygen", iterations, &mut || {
            slhdsa::slh_keygen_internal_on(engine, p, seeds[0], seeds[1], seeds[2], sk, pk).is_ok()
        });
        row.ok &= software && (&*pk, &*sk) == (pk_sw, sk_sw);
        row
    });
    let sign = ops.sign.then(|| {
        let mut row = run(platform, name, "sign", iterations, &mut || {
            slhdsa::slh_sign_on(engine, p, sk_sw, MESSAGE, b"", None, sig).is_ok()
        });
        row.ok &= software && *sig == *sig_sw;
        row
    });
    let verify = ops.verify.then(|| {
        let mut row = run(platform, name, "verify", iterations, &mut || {
            slhdsa::slh_verify_on(engine, p, pk_sw, MESSAGE, b"", sig_sw).is_ok()
        });
        row.ok &= software;
        row
    });
    [keygen, sign, verify].into_iter().flatten()
}

/// One `accel:` line: a hardware backend's counters and first fault (after
/// a fault it computes in software, so its rows stay correct but are
/// software timings: this line tells).
pub fn print_accel_line(
    out: &mut dyn Write,
    name: &str,
    stats: AccelStats,
    fault: Option<AccelError>,
    abandoned: bool,
) {
    let _ = write!(
        out,
        "accel: {name}: {} calls in hw, {} in sw, {} jobs, {} failed jobs, {} PL busy cycles, {} DMA bytes, {}, first fault: ",
        stats.hw_calls,
        stats.sw_calls,
        stats.jobs,
        stats.failed_jobs,
        stats.busy_cycles,
        stats.dma_bytes,
        if abandoned { "abandoned" } else { "in use" }
    );
    let _ = match fault {
        Some(e) => writeln!(out, "{e}"),
        None => writeln!(out, "none"),
    };
}
