//! The SLH-DSA engine's top at the bus (AXI4-Lite control, the two
//! streams, the contract's header layout): the identification registers,
//! every refusal and an abort, each ending in DONE | ERROR; key generation
//! of the ACVP SLH-DSA-SHAKE-128f case on the rust-hdl model; the Verilated
//! top against it, clock for clock at the bus; and on the Verilated top the
//! whole ACVP SHAKE-128f operations: PK.root, the signature (its SHA3-256),
//! verification of it, of a forged copy and of the short sigVer case; key
//! generation, signing and verification of `pqc`'s keys and signatures for
//! the f sets, and with `PQC_FULL=1` the s sets.

use super::pl_top::{beats, bus_request};
use super::slhdsa_top::set_params;
use super::{AccelBench, PlTop, SlhDsaAccel, SlhDsaSha2Accel, StreamWord};
use crate::slhdsa::engine::{keygen_clocks, sign_clocks};
use crate::slhdsa::fors_reference::digest_parts;
use crate::slhdsa::sha2_tests::SHA2_128F_ACVP_KEYGEN_CLOCKS;
use crate::verilated::VerilatedTop;
use crate::verilator::verilator_required;
use pqc::slhdsa::Params;
use pqc_selftest::selftest::SlhDsaSet;
use ps_pl_contract::regmap::{ctrl, slhdsa as reg};
use sha3::{Digest, Sha3_256};

/// `ARG0` of SLH-DSA-SHAKE-128f.
const SET_128F: u32 = 1;

/// Little-endian words of `bytes`, zero-padded to `words` words.
fn padded(bytes: &[u8], words: usize) -> Vec<u32> {
    let mut b = bytes.to_vec();
    b.resize(4 * words, 0);
    b.chunks_exact(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect()
}

/// The public inputs of one request.
struct Request<'a> {
    sk_seed: &'a [u8],
    pk_seed: &'a [u8],
    pk_root: &'a [u8],
    md: &'a [u8],
    idx_tree: u64,
    idx_leaf: u32,
}

impl Request<'_> {
    /// The input stream of `op` (the contract's header, then for
    /// verification `signature`, the signature without R).
    fn words(&self, op: u32, signature: &[u8]) -> Vec<u32> {
        let v = reg::VALUE_WORDS;
        let mut w = Vec::new();
        if op != reg::OP_VERIFY {
            w.extend(padded(self.sk_seed, v));
        }
        w.extend(padded(self.pk_seed, v));
        if op == reg::OP_KEYGEN {
            return w;
        }
        w.extend(padded(self.pk_root, v));
        w.extend(padded(self.md, reg::MD_WORDS));
        w.extend([
            self.idx_tree as u32,
            (self.idx_tree >> 32) as u32,
            self.idx_leaf,
        ]);
        w.extend(padded(signature, signature.len() / 4));
        w
    }
}

/// One request for set `set` at the bus: `input` on the stream (`TLAST`
/// on word `last_at`), at most `max_clocks`: the output words, STATUS and
/// CYCLES.
fn request(
    top: &mut dyn PlTop,
    op: u32,
    set: u32,
    input: &[u32],
    last_at: Option<usize>,
    max_clocks: u64,
) -> (Vec<StreamWord>, u32, u32) {
    let beats = beats(input.iter().copied(), last_at.unwrap_or(usize::MAX));
    bus_request(top, op, &[set], &beats, max_clocks)
}

fn bytes_of(words: &[StreamWord]) -> Vec<u8> {
    words.iter().flat_map(|w| w.data.to_le_bytes()).collect()
}

/// The ACVP keyGen case of SHAKE-128f as a request.
fn acvp_keygen() -> (Request<'static>, &'static [u8]) {
    let set = &pqc_selftest::vectors::SLH_DSA[0];
    assert_eq!(set.name, reg::SETS[SET_128F as usize]);
    let kg = &set.keygen;
    let request = Request {
        sk_seed: kg.sk_seed,
        pk_seed: kg.pk_seed,
        pk_root: &[],
        md: &[],
        idx_tree: 0,
        idx_leaf: 0,
    };
    (request, &kg.pk[16..])
}

/// Starts key generation of `set` with `words` on the input stream, lets
/// it run `clocks` clocks and aborts it; the abort must end in DONE |
/// ERROR with nothing on the output. Returns STATUS before and after the
/// abort.
fn keygen_aborted_after(top: &mut dyn PlTop, set: u32, words: &[u32], clocks: u64) -> (u32, u32) {
    top.push_input(&beats(words.iter().copied(), words.len() - 1));
    top.write(ctrl::ARG0 as u32, set).unwrap();
    top.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | reg::OP_KEYGEN)
        .unwrap();
    let mut run = 0;
    while run < clocks {
        run += top.run(clocks - run);
    }
    let running = top.read(ctrl::STATUS as u32).unwrap();
    top.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | reg::OP_ABORT)
        .unwrap();
    let aborted = top.read(ctrl::STATUS as u32).unwrap();
    assert_eq!(aborted, ctrl::STATUS_DONE | ctrl::STATUS_ERROR, "abort");
    assert!(top.pop_output().is_none(), "output after the abort");
    (running, aborted)
}

/// Refusals (an unknown set or operation, `TLAST` early, late or inside a
/// verification header), then an abort during key generation, each ending
/// in DONE | ERROR with nothing on the output; then the ACVP key
/// generation. Returns a transcript: outputs, STATUS and CYCLES.
pub(super) fn script(top: &mut dyn PlTop) -> Vec<u64> {
    let mut log = vec![];
    for off in [ctrl::ID, ctrl::VERSION, ctrl::CONFIG, ctrl::STATUS] {
        log.push(u64::from(top.read(off as u32).unwrap()));
    }
    let (kg, pk_root) = acvp_keygen();
    let keygen_words = kg.words(reg::OP_KEYGEN, &[]);
    let last = Some(keygen_words.len() - 1);
    let error = ctrl::STATUS_DONE | ctrl::STATUS_ERROR;
    // Past every set: refused by every configuration.
    let unknown_set = reg::SHA2_SET_BASE + reg::SHA2_SETS.len() as u32;
    for (op, set, last_at) in [
        (reg::OP_KEYGEN, unknown_set, last),
        (0x07, SET_128F, last),
        (reg::OP_KEYGEN, SET_128F, Some(3)),
        (reg::OP_KEYGEN, SET_128F, None),
        (reg::OP_VERIFY, SET_128F, last),
    ] {
        let (out, status, cycles) = request(top, op, set, &keygen_words, last_at, 100_000);
        assert!(out.is_empty(), "op {op:#x} set {set}: output");
        assert_eq!(status, error, "op {op:#x} set {set} TLAST {last_at:?}");
        log.extend([u64::from(status), u64::from(cycles)]);
    }
    // Abort during key generation.
    let (running, status) = keygen_aborted_after(top, SET_128F, &keygen_words, 500);
    assert!(running & ctrl::STATUS_BUSY != 0);
    log.push(u64::from(status));

    let (out, status, cycles) = request(
        top,
        reg::OP_KEYGEN,
        SET_128F,
        &keygen_words,
        last,
        1_000_000,
    );
    assert_eq!(status, ctrl::STATUS_DONE, "keygen");
    assert_eq!(bytes_of(&out), pk_root, "PK.root");
    assert!(out.iter().take(out.len() - 1).all(|w| !w.last) && out.last().unwrap().last);
    // The accepted start and the header words, the engine's start and
    // count, a clock to see its done.
    let header = reg::KEYGEN_INPUT_WORDS as u64;
    assert_eq!(u64::from(cycles), 1 + header + keygen_clocks(16, 3) + 1);
    log.extend(
        out.iter()
            .map(|w| u64::from(w.data) << 1 | u64::from(w.last)),
    );
    log.extend([u64::from(status), u64::from(cycles), top.cycles()]);
    log
}

/// The rust-hdl top: identification, refusals, abort and the ACVP key
/// generation at the bus.
#[test]
fn slhdsa_accel_refuses_aborts_and_generates_the_acvp_key() {
    let mut top = AccelBench::<SlhDsaAccel>::new();
    let log = script(&mut top);
    assert_eq!(log[0], u64::from(reg::ID));
    assert_eq!(log[1], u64::from(ctrl::VERSION_VALUE));
    let rounds = ps_pl_contract::cores::SLHDSA_KECCAK_ROUNDS_PER_CLOCK;
    assert_eq!(log[2], u64::from(reg::config(rounds, false)));
}

/// The ACVP sigGen case of `vectors`: `pqc`'s signature (whose SHA3-256
/// the case records), and the request of its digest.
fn acvp_signature(p: &Params, vectors: &SlhDsaSet) -> (Vec<u8>, Vec<u8>, u64, u32) {
    assert_eq!(vectors.name, p.name);
    let sg = &vectors.siggen;
    let mut sig = vec![0; p.sig_bytes()];
    pqc::slhdsa::slh_sign(p, sg.sk, sg.message, sg.context, None, &mut sig).unwrap();
    let digest: [u8; 32] = Sha3_256::digest(&sig).into();
    assert_eq!(digest, sg.signature_sha3_256, "pqc's signature (ACVP)");
    let header = [0, sg.context.len() as u8];
    let (md, idx_tree, idx_leaf) = digest_parts(p, sg.sk, &sig, &[&header, sg.context, sg.message]);
    (sig, md, idx_tree, idx_leaf)
}

/// Signs the digest of `sig` for set `set` on `top` and checks that the
/// output, with R, is `sig`, and the verdict OKAY; verifies `sig` (OKAY),
/// a forged copy (FAIL, no error) and `sig` one word short (an error).
/// Signing may take `limit` clocks, verification a quarter. Returns the
/// signing CYCLES.
fn sign_and_verify(
    top: &mut dyn PlTop,
    set: u32,
    (sk, sig): (&[u8], &[u8]),
    md: &[u8],
    idx: (u64, u32),
    limit: u64,
) -> u32 {
    let p = set_params(set as usize);
    let n = p.n;
    let request = Request {
        sk_seed: &sk[..n],
        pk_seed: &sk[2 * n..3 * n],
        pk_root: &sk[3 * n..],
        md,
        idx_tree: idx.0,
        idx_leaf: idx.1,
    };
    let words = request.words(reg::OP_SIGN, &[]);
    let (out, status, cycles) = request_all(top, reg::OP_SIGN, set, &words, limit);
    assert_eq!(status, ctrl::STATUS_DONE, "{}: sign", p.name);
    let (verdict, body) = out.split_last().unwrap();
    assert_eq!((verdict.data, verdict.last), (reg::VERDICT_VALID, true));
    assert!(body.iter().all(|w| !w.last), "TLAST on the verdict only");
    let got = [&sig[..n], &bytes_of(body)].concat();
    assert_eq!(got.len(), sig.len(), "{}: signature length", p.name);
    let first_wrong = got.iter().zip(sig).position(|(a, b)| a != b);
    assert_eq!(
        first_wrong, None,
        "{}: the signature's first wrong byte",
        p.name
    );

    let verify_limit = limit / 4;
    let mut forged = sig[n..].to_vec();
    forged[100] ^= 0x20;
    for (signature, want) in [
        (&sig[n..], reg::VERDICT_VALID),
        (&forged[..], reg::VERDICT_INVALID),
    ] {
        let words = request.words(reg::OP_VERIFY, signature);
        assert_eq!(words.len(), reg::verify_stream_words(n, sig.len()));
        let (out, status, verify_cycles) =
            request_all(top, reg::OP_VERIFY, set, &words, verify_limit);
        assert_eq!(status, ctrl::STATUS_DONE, "{}: verify", p.name);
        if want == reg::VERDICT_VALID {
            eprintln!("{} verify at the bus: {verify_cycles} cycles", p.name);
        }
        assert_eq!(
            out,
            [StreamWord {
                data: want,
                last: true
            }],
            "{}",
            p.name
        );
    }
    let words = request.words(reg::OP_VERIFY, &sig[n..sig.len() - 4]);
    let (out, status, _) = request_all(top, reg::OP_VERIFY, set, &words, verify_limit);
    assert_eq!(status, ctrl::STATUS_DONE | ctrl::STATUS_ERROR, "short");
    assert!(out.is_empty());
    cycles
}

/// [`request`] with `TLAST` on the final word.
fn request_all(
    top: &mut dyn PlTop,
    op: u32,
    set: u32,
    words: &[u32],
    max_clocks: u64,
) -> (Vec<StreamWord>, u32, u32) {
    request(top, op, set, words, Some(words.len() - 1), max_clocks)
}

/// The exported top under Verilator: the same transcript as the rust-hdl
/// model; the whole ACVP SHAKE-128f signature (its SHA3-256 with R from
/// `pqc`), its verification, a forged one and a short one; the ACVP
/// sigVer case that is invalid.
#[test]
fn verilated_slhdsa_accel_runs_the_acvp_shake_128f_operations_at_the_bus() {
    if !verilator_required("verilated slhdsa_accel") {
        return;
    }
    let mut top = VerilatedTop::slhdsa(false).unwrap();
    let verilated = script(&mut top);
    assert_eq!(verilated, script(&mut AccelBench::<SlhDsaAccel>::new()));

    let p = set_params(SET_128F as usize);
    let vectors = &pqc_selftest::vectors::SLH_DSA[0];
    let (sig, md, idx_tree, idx_leaf) = acvp_signature(p, vectors);
    let header = reg::SIGN_INPUT_WORDS as u64;
    let engine = sign_clocks(16, p.a as u32, p.k, p.hp as u32, p.d as u64);
    let idx = (idx_tree, idx_leaf);
    let cycles = sign_and_verify(
        &mut top,
        SET_128F,
        (vectors.siggen.sk, &sig),
        &md,
        idx,
        2 * engine,
    );
    // The accepted start and the header words, the engine's start and
    // count, a clock to see its done, the verdict word.
    assert_eq!(u64::from(cycles), 1 + header + engine + 2);
    eprintln!("SLH-DSA-SHAKE-128f sign at the bus: {cycles} cycles");

    short_acvp_sigver_is_an_error(&mut top, SET_128F, vectors);
}

/// The ACVP sigVer case of `vectors` that is invalid, one byte short: its
/// whole words are a truncated stream, which the engine ends with an
/// error and no verdict.
fn short_acvp_sigver_is_an_error(top: &mut dyn PlTop, set: u32, vectors: &SlhDsaSet) {
    let p = set_params(set as usize);
    let sv = &vectors.sigver_invalid;
    assert_eq!(sv.signature.len(), p.sig_bytes() - 1, "tcId {}", sv.tc_id);
    let header = [0, sv.context.len() as u8];
    let sk_like = [&[0u8; 32][..], sv.pk].concat();
    let mut padded_sig = sv.signature.to_vec();
    padded_sig.push(0);
    let (md, idx_tree, idx_leaf) =
        digest_parts(p, &sk_like, &padded_sig, &[&header, sv.context, sv.message]);
    let request = Request {
        sk_seed: &[],
        pk_seed: &sv.pk[..16],
        pk_root: &sv.pk[16..],
        md: &md,
        idx_tree,
        idx_leaf,
    };
    let whole = (sv.signature.len() - 16) / 4 * 4;
    let words = request.words(reg::OP_VERIFY, &sv.signature[16..16 + whole]);
    let (out, status, _) = request_all(top, reg::OP_VERIFY, set, &words, 10_000_000);
    assert_eq!(
        status,
        ctrl::STATUS_DONE | ctrl::STATUS_ERROR,
        "tcId {}",
        sv.tc_id
    );
    assert!(out.is_empty());
}

/// Sets of `ARG0` values on the Verilated top: a key pair from `pqc`
/// (whose PK.root the engine's key generation gives), `pqc`'s signature of
/// a message (which the engine's signature equals, R from `pqc`), its
/// verification, a forged one and a short one; the CYCLES of each
/// signature against `sign_clocks`.
fn sign_and_verify_sets(mut top: VerilatedTop, sets: &[u32]) {
    for &set in sets {
        let p = set_params(set as usize);
        let n = p.n;
        let seeds: Vec<u8> = (0..3 * n)
            .map(|i| (i as u8).wrapping_mul(29) ^ set as u8)
            .collect();
        let (mut pk, mut sk) = (vec![0; p.pk_bytes()], vec![0; p.sk_bytes()]);
        let (sk_seed, rest) = seeds.split_at(n);
        let (sk_prf, pk_seed) = rest.split_at(n);
        pqc::slhdsa::slh_keygen_internal(p, sk_seed, sk_prf, pk_seed, &mut sk, &mut pk).unwrap();
        let keygen = Request {
            sk_seed: &sk[..n],
            pk_seed: &sk[2 * n..3 * n],
            pk_root: &[],
            md: &[],
            idx_tree: 0,
            idx_leaf: 0,
        };
        let words = keygen.words(reg::OP_KEYGEN, &[]);
        // The engine's counts on the sponge; on SHA-256 they are measured.
        let shake = set < reg::SHA2_SET_BASE;
        let limit = match shake {
            true => 2 * keygen_clocks(n, p.hp as u32),
            false => reg::MAX_JOB_CYCLES,
        };
        let (out, status, keygen_cycles) =
            request_all(&mut top, reg::OP_KEYGEN, set, &words, limit);
        assert_eq!(status, ctrl::STATUS_DONE, "{}: keygen", p.name);
        assert_eq!(bytes_of(&out), pk[n..], "{}: PK.root", p.name);
        if shake {
            assert_eq!(
                u64::from(keygen_cycles),
                1 + reg::KEYGEN_INPUT_WORDS as u64 + keygen_clocks(n, p.hp as u32) + 1
            );
        }
        eprintln!("{} keygen at the bus: {keygen_cycles} cycles", p.name);

        let message = b"SLH-DSA engine at the bus";
        let mut sig = vec![0; p.sig_bytes()];
        pqc::slhdsa::slh_sign(p, &sk, message, b"", None, &mut sig).unwrap();
        let (md, idx_tree, idx_leaf) = digest_parts(p, &sk, &sig, &[&[0, 0], message]);
        let idx = (idx_tree, idx_leaf);
        let engine = sign_clocks(n, p.a as u32, p.k, p.hp as u32, p.d as u64);
        let limit = if shake {
            2 * engine
        } else {
            reg::MAX_JOB_CYCLES
        };
        let cycles = sign_and_verify(&mut top, set, (&sk, &sig), &md, idx, limit);
        if shake {
            assert_eq!(
                u64::from(cycles),
                1 + reg::SIGN_INPUT_WORDS as u64 + engine + 2
            );
        }
        assert!(u64::from(cycles) < reg::MAX_JOB_CYCLES);
        eprintln!("{} sign at the bus: {cycles} cycles", p.name);
    }
}

/// The fast SHAKE sets (128f, 192f, 256f): about 15 million clocks.
#[test]
fn verilated_slhdsa_accel_signs_and_verifies_the_fast_shake_sets() {
    if !verilator_required("verilated slhdsa_accel, the f sets") {
        return;
    }
    sign_and_verify_sets(VerilatedTop::slhdsa(false).unwrap(), &[1, 3, 5]);
}

/// The small SHAKE sets (128s, 192s, 256s): about 245 million clocks.
#[test]
#[ignore = "about two minutes of Verilator simulation; PQC_FULL=1 runs it"]
fn verilated_slhdsa_accel_signs_and_verifies_the_small_shake_sets() {
    if !verilator_required("verilated slhdsa_accel, the s sets") {
        return;
    }
    sign_and_verify_sets(VerilatedTop::slhdsa(false).unwrap(), &[0, 2, 4]);
}

/// Every set's longest job at the bus (signing: the header, the engine's
/// asserted count and the verdict) stays under the contract's bound on the
/// drivers' waits.
#[test]
fn every_sets_signing_fits_the_contracts_cycle_bound() {
    for set in 0..reg::SETS.len() {
        let p = set_params(set);
        let engine = sign_clocks(p.n, p.a as u32, p.k, p.hp as u32, p.d as u64);
        let at_bus = 1 + reg::SIGN_INPUT_WORDS as u64 + engine + 2;
        assert!(at_bus < reg::MAX_JOB_CYCLES, "{}: {at_bus}", p.name);
    }
}

/// `ARG0` of SLH-DSA-SHA2-128f.
const SET_SHA2_128F: u32 = reg::SHA2_SET_BASE + 1;
/// `ARG0` values the contract says an engine with `CONFIG` = `config`
/// refuses ([`reg::set_name`] is `None`): those of the known sets it does
/// not run, the first past them, and the largest.
fn refused_sets(config: u32) -> Vec<u32> {
    let past = reg::SHA2_SET_BASE + reg::SHA2_SETS.len() as u32;
    (0..=past)
        .chain([u32::MAX])
        .filter(|&arg| reg::set_name(arg, config).is_none())
        .collect()
}

/// The ACVP SLH-DSA-SHA2-128f keyGen case as a request.
fn sha2_acvp_keygen_words() -> Vec<u32> {
    let vectors = &pqc_selftest::vectors::SLH_DSA[1];
    assert_eq!(vectors.name, reg::SHA2_SETS[1]);
    let kg = &vectors.keygen;
    let request = Request {
        sk_seed: kg.sk_seed,
        pk_seed: kg.pk_seed,
        pk_root: &[],
        md: &[],
        idx_tree: 0,
        idx_leaf: 0,
    };
    request.words(reg::OP_KEYGEN, &[])
}

/// The SHA2 top's script: identification, the refused sets (each DONE |
/// ERROR with nothing out), then the ACVP SHA2-128f key generation
/// aborted after [`SHA2_ABORT_AFTER`] clocks of hashing, and a refused
/// set after it. Returns a transcript: ID, VERSION, CONFIG, STATUS, and
/// STATUS and CYCLES of each request. Short enough for the rust-hdl top
/// (a whole SHA2 operation is 0.3 million clocks or more, minutes of
/// rust-hdl simulation): the whole key generation runs in
/// [`sha2_acvp_keygen`].
pub(super) fn sha2_script(top: &mut dyn PlTop) -> Vec<u64> {
    let mut log = vec![];
    for off in [ctrl::ID, ctrl::VERSION, ctrl::CONFIG, ctrl::STATUS] {
        log.push(u64::from(top.read(off as u32).unwrap()));
    }
    let refused = refused_sets(log[2] as u32);
    assert!(refused.contains(&u32::MAX) && !refused.contains(&SET_SHA2_128F));
    let words = sha2_acvp_keygen_words();
    let error = ctrl::STATUS_DONE | ctrl::STATUS_ERROR;
    for &set in &refused {
        let (out, status, cycles) = request_all(top, reg::OP_KEYGEN, set, &words, 100_000);
        assert!(out.is_empty(), "set {set}: output");
        assert_eq!(status, error, "set {set}");
        log.extend([u64::from(status), u64::from(cycles)]);
    }
    let (running, status) = keygen_aborted_after(top, SET_SHA2_128F, &words, SHA2_ABORT_AFTER);
    assert_eq!(running, ctrl::STATUS_BUSY, "keygen under way");
    log.extend([
        u64::from(running),
        u64::from(status),
        u64::from(top.read(ctrl::CYCLES as u32).unwrap()),
    ]);
    let (out, status, cycles) = request_all(top, reg::OP_KEYGEN, refused[0], &words, 100_000);
    assert!(
        out.is_empty() && status == error,
        "a refusal after the abort"
    );
    log.extend([u64::from(status), u64::from(cycles), top.cycles()]);
    log
}

/// Clocks of SHA2 key generation before [`sha2_script`]'s abort: past the
/// header and into the first leaves' chains on SHA-256.
const SHA2_ABORT_AFTER: u64 = 20_000;

/// The ACVP SLH-DSA-SHA2-128f key generation on `top`: PK.root, `TLAST`
/// on its last word, and CYCLES = the accepted start, the header words,
/// the engine's [`SHA2_128F_ACVP_KEYGEN_CLOCKS`] (the rust-hdl engine's,
/// asserted by its test) and a clock to see its done.
pub(super) fn sha2_acvp_keygen(top: &mut dyn PlTop) {
    let kg = &pqc_selftest::vectors::SLH_DSA[1].keygen;
    let words = sha2_acvp_keygen_words();
    let (out, status, cycles) = request_all(top, reg::OP_KEYGEN, SET_SHA2_128F, &words, 2_000_000);
    assert_eq!(status, ctrl::STATUS_DONE, "keygen");
    assert_eq!(bytes_of(&out), kg.pk[16..], "tcId {}: PK.root", kg.tc_id);
    assert!(out.iter().take(out.len() - 1).all(|w| !w.last) && out.last().unwrap().last);
    let header = reg::KEYGEN_INPUT_WORDS as u64;
    assert_eq!(
        u64::from(cycles),
        1 + header + SHA2_128F_ACVP_KEYGEN_CLOCKS + 1,
        "CYCLES"
    );
}

/// The rust-hdl SHA2 top: identification (CONFIG: the three operations,
/// the SHA2 sets, no sponge), refusals and an abort during key
/// generation.
#[test]
fn slhdsa_sha2_accel_refuses_the_shake_sets_and_aborts() {
    let mut top = AccelBench::<SlhDsaSha2Accel>::new();
    let log = sha2_script(&mut top);
    assert_eq!(log[0], u64::from(reg::ID));
    assert_eq!(log[2], u64::from(reg::config(0, true)));
    // The refusals: the six SHAKE sets, the first past the SHA2 sets, 2^32 − 1.
    assert_eq!(refused_sets(log[2] as u32).len(), 8);
}

/// The rust-hdl SHA2 top runs the ACVP SHA2-128f key generation at the
/// bus. By default the Verilated tops run it, in the same CYCLES.
#[test]
#[ignore = "0.34 million clocks, two minutes of rust-hdl simulation; PQC_FULL=1 runs it"]
fn slhdsa_sha2_accel_generates_the_acvp_key() {
    sha2_acvp_keygen(&mut AccelBench::<SlhDsaSha2Accel>::new());
}

/// The exported SHA2 top under Verilator: the same transcript as the
/// rust-hdl model, clock for clock; the ACVP SHA2-128f key generation
/// (CYCLES as the rust-hdl engine's); the whole ACVP
/// SLH-DSA-SHA2-128f signature (its SHA3-256 with R from `pqc`), its
/// verification, a forged one and a short one; the ACVP sigVer case that
/// is invalid; then key generation, signing and verification of `pqc`'s
/// keys and signature of a message.
#[test]
fn verilated_slhdsa_sha2_accel_runs_the_acvp_sha2_128f_operations_at_the_bus() {
    if !verilator_required("verilated slhdsa_sha2_accel") {
        return;
    }
    let mut top = VerilatedTop::slhdsa_sha2(false).unwrap();
    let verilated = sha2_script(&mut top);
    let model = sha2_script(&mut AccelBench::<SlhDsaSha2Accel>::new());
    assert_eq!(verilated, model);
    sha2_acvp_keygen(&mut top);
    acvp_sha2_128f_operations(&mut top);
    sign_and_verify_sets(top, &[SET_SHA2_128F]);
}

/// The whole ACVP SLH-DSA-SHA2-128f signature on `top` (its SHA3-256
/// with R from `pqc`), its verification, a forged one and a short one;
/// the ACVP sigVer case that is invalid.
pub(super) fn acvp_sha2_128f_operations(top: &mut dyn PlTop) {
    let p = set_params(SET_SHA2_128F as usize);
    let vectors = &pqc_selftest::vectors::SLH_DSA[1];
    let (sig, md, idx_tree, idx_leaf) = acvp_signature(p, vectors);
    let idx = (idx_tree, idx_leaf);
    let sk = vectors.siggen.sk;
    let limit = reg::MAX_JOB_CYCLES;
    let cycles = sign_and_verify(top, SET_SHA2_128F, (sk, &sig), &md, idx, limit);
    eprintln!("SLH-DSA-SHA2-128f sign at the bus: {cycles} cycles");
    short_acvp_sigver_is_an_error(top, SET_SHA2_128F, vectors);
}

/// SLH-DSA-SHA2-192f and -256f on the Verilated SHA2 top (H and T_l on
/// SHA-512): key generation, signing and verification of `pqc`'s keys and
/// signature.
#[test]
fn verilated_slhdsa_sha2_accel_signs_and_verifies_sha2_192f_and_256f() {
    if !verilator_required("verilated slhdsa_sha2_accel, 192f and 256f") {
        return;
    }
    sign_and_verify_sets(
        VerilatedTop::slhdsa_sha2(false).unwrap(),
        &[reg::SHA2_SET_BASE + 3, reg::SHA2_SET_BASE + 5],
    );
}

/// SLH-DSA-SHA2-192s and -256s on the Verilated SHA2 top.
#[test]
#[ignore = "about 600 million clocks of Verilator simulation; PQC_FULL=1 runs it"]
fn verilated_slhdsa_sha2_accel_signs_and_verifies_sha2_192s_and_256s() {
    if !verilator_required("verilated slhdsa_sha2_accel, 192s and 256s") {
        return;
    }
    sign_and_verify_sets(
        VerilatedTop::slhdsa_sha2(false).unwrap(),
        &[reg::SHA2_SET_BASE + 2, reg::SHA2_SET_BASE + 4],
    );
}

/// SLH-DSA-SHA2-128s on the Verilated SHA2 top: key generation, signing
/// and verification of `pqc`'s keys and signature.
#[test]
#[ignore = "about 200 million clocks of Verilator simulation; PQC_FULL=1 runs it"]
fn verilated_slhdsa_sha2_accel_signs_and_verifies_sha2_128s() {
    if !verilator_required("verilated slhdsa_sha2_accel, 128s") {
        return;
    }
    sign_and_verify_sets(
        VerilatedTop::slhdsa_sha2(false).unwrap(),
        &[reg::SHA2_SET_BASE],
    );
}
