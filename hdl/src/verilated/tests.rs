//! The Verilated tops against [`AccelBench`] through [`PlTop`]: the same
//! register transcript, output words and clock counts.

use super::VerilatedTop;
use crate::axi::pl_top::{beats, bus_request};
use crate::axi::{AccelBench, KeccakAccel, NttAccel, PlTop, StreamWord};
use crate::keccak::harness::pack_words;
use crate::keccak::sponge::mode_code;
use crate::ntt::sim::Lcg;
use crate::verilator::verilator_required;
use pqc::keccak::SpongeMode;
use ps_pl_contract::regmap::{ctrl, keccak as kreg, ntt as nreg};

/// Register reads, output words and clock counts of a script of jobs, with
/// the output sink toggled and stream words fed, run with `run` batching.
fn transcript(top: &mut dyn PlTop, jobs: &[(Vec<u32>, u32, [u32; 3])]) -> Vec<u64> {
    let mut log = vec![top.cycles()];
    for off in [ctrl::ID, ctrl::VERSION, ctrl::CONFIG, ctrl::STATUS] {
        log.push(u64::from(top.read(off as u32).unwrap()));
    }
    for (words, op, args) in jobs {
        top.push_input(&beats(words.iter().copied(), words.len().wrapping_sub(1)));
        top.set_sink_ready(false);
        for (off, a) in [ctrl::ARG0, ctrl::ARG1, ctrl::ARG2].into_iter().zip(args) {
            top.write(off as u32, *a).unwrap();
        }
        top.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | op)
            .unwrap();
        // 37 clocks at a time (`run` may stop early: it is called until
        // they are done), the sink opened after a while.
        let mut clocks = 0;
        while top.read(ctrl::STATUS as u32).unwrap() & ctrl::STATUS_BUSY != 0 {
            let target = clocks + 37;
            while clocks < target {
                clocks += top.run(target - clocks);
            }
            top.set_sink_ready(clocks > 100);
            log.push(top.cycles());
            log.push(u64::from(top.input_drained()));
            while let Some(w) = top.pop_output() {
                log.push(u64::from(w.data) << 1 | u64::from(w.last));
            }
        }
        log.push(u64::from(top.read(ctrl::CYCLES as u32).unwrap()));
        top.drop_input();
        top.drop_output();
        log.push(top.cycles());
    }
    log
}

#[test]
fn verilated_tops_match_accel_bench_through_pl_top() {
    if !verilator_required("verilated tops") {
        return;
    }
    let msg: Vec<u8> = (0..300u32).map(|i| (i * 13 + 1) as u8).collect();
    let keccak_jobs = vec![
        (
            pack_words(&msg, 0),
            kreg::OP_SPONGE,
            [mode_code(SpongeMode::Shake256), 300, 200],
        ),
        (
            pack_words(&msg[..3], 0),
            kreg::OP_SPONGE,
            [mode_code(SpongeMode::Sha3_256), 3, 32],
        ),
    ];
    let mut vk = VerilatedTop::keccak(false).unwrap();
    assert_eq!(
        transcript(&mut vk, &keccak_jobs),
        transcript(&mut AccelBench::<KeccakAccel>::new(), &keccak_jobs)
    );
    let poly: Vec<u32> = Lcg::new(7).poly().iter().map(|&c| c as u32).collect();
    let ntt_jobs = vec![
        (poly, nreg::OP_LOAD, [0, 0, 0]),
        (vec![], nreg::OP_NTT, [0, 0, 0]),
        (vec![], nreg::OP_STORE, [0, 0, 0]),
    ];
    let mut vn = VerilatedTop::ntt(false).unwrap();
    assert_eq!(
        transcript(&mut vn, &ntt_jobs),
        transcript(&mut AccelBench::<NttAccel>::new(), &ntt_jobs)
    );
}

/// One ML-DSA engine request at the bus: arguments, command, `input` on the
/// stream, then clocks until STATUS shows done (bounded). Returns the
/// output words, STATUS and CYCLES.
fn mldsa_request(
    top: &mut dyn PlTop,
    op: u32,
    set: u32,
    input: &[StreamWord],
) -> (Vec<StreamWord>, u32, u32) {
    mldsa_request_with(top, op, [set, 0], input)
}

/// [`mldsa_request`] with `ARG0` and `ARG1`.
fn mldsa_request_with(
    top: &mut dyn PlTop,
    op: u32,
    args: [u32; 2],
    input: &[StreamWord],
) -> (Vec<StreamWord>, u32, u32) {
    bus_request(top, op, &args, input, 10_000_000)
}

pub(crate) fn xi_words(xi: &[u8; 32], last_at: usize) -> Vec<StreamWord> {
    beats(
        xi.chunks_exact(4)
            .map(|w| u32::from_le_bytes(w.try_into().unwrap())),
        last_at,
    )
}

/// The payload of a KeyGen or Sign output: checks that it ends with the
/// check word of the words before it (`output_check`), `TLAST` on that
/// word only, and returns the words before it with `TLAST` on the final
/// one (as the stream was before the check word). An empty output (an
/// error) stays empty.
pub(crate) fn checked_payload(out: Vec<StreamWord>) -> Vec<StreamWord> {
    use ps_pl_contract::regmap::mldsa as mreg;
    let Some((check, payload)) = out.split_last() else {
        return out;
    };
    assert!(check.last, "TLAST on the check word");
    assert!(
        payload.iter().all(|w| !w.last),
        "TLAST only on the check word"
    );
    assert_eq!(
        check.data,
        mreg::output_check(payload.iter().map(|w| w.data)),
        "the check word"
    );
    let mut payload = payload.to_vec();
    if let Some(w) = payload.last_mut() {
        w.last = true;
    }
    payload
}

pub(crate) fn bytes_of(words: &[StreamWord]) -> Vec<u8> {
    words.iter().flat_map(|w| w.data.to_le_bytes()).collect()
}

/// The ML-DSA engine's exported top at the bus (AXI4-Lite control, the two
/// streams): KeyGen of the NIST ACVP cases of every set, checked by their
/// SHA3-256 digests, `TLAST` on the final word only; then every refusal and
/// an abort, each ending in DONE | ERROR, and a correct key generation
/// after them.
#[test]
fn verilated_mldsa_accel_runs_acvp_keygen_at_the_bus() {
    if !verilator_required("verilated mldsa_accel") {
        return;
    }
    let mut top = VerilatedTop::mldsa(false).unwrap();
    acvp_keygen_at_the_bus(&mut top, crate::mldsa::keygen::ACVP_KEYGEN_CLOCKS);
}

/// [`verilated_mldsa_accel_runs_acvp_keygen_at_the_bus`] on the engines'
/// top (the ML-DSA block, on the shared sponge).
#[test]
fn verilated_engines_accel_runs_acvp_mldsa_keygen_at_the_bus() {
    if !verilator_required("verilated engines_accel") {
        return;
    }
    let mut top = VerilatedTop::engines(false).unwrap();
    acvp_keygen_at_the_bus(&mut top, crate::mldsa::keygen::SHARED_ACVP_KEYGEN_CLOCKS);
}

/// The key generations of [`verilated_mldsa_accel_runs_acvp_keygen_at_the_bus`]
/// on `top`, whose engine takes `clocks` for the ACVP cases.
fn acvp_keygen_at_the_bus(top: &mut VerilatedTop, clocks: [usize; 3]) {
    use ps_pl_contract::regmap::mldsa as mreg;
    use sha3::{Digest, Sha3_256};
    let mut top: &mut dyn PlTop = top;
    assert_eq!(top.read(ctrl::ID as u32).unwrap(), mreg::ID);
    assert_eq!(top.read(ctrl::VERSION as u32).unwrap(), ctrl::VERSION_VALUE);
    assert_eq!(
        top.read(ctrl::CONFIG as u32).unwrap(),
        mreg::CONFIG_KEYGEN | mreg::CONFIG_SIGN | mreg::CONFIG_VERIFY
    );
    for (set, case) in pqc_selftest::vectors::ML_DSA.iter().enumerate() {
        let p = crate::mldsa::keygen::SETS[set];
        let (out, status, cycles) = mldsa_request(
            &mut top,
            mreg::OP_KEYGEN,
            set as u32,
            &xi_words(&case.keygen.seed, 7),
        );
        let out = checked_payload(out);
        assert_eq!(status & ctrl::STATUS_ERROR, 0, "{}", p.name);
        assert_eq!(out.len() * 4, p.pk_len() + p.sk_len(), "{}", p.name);
        assert!(out
            .iter()
            .enumerate()
            .all(|(i, w)| w.last == (i + 1 == out.len())));
        let bytes = bytes_of(&out);
        assert_eq!(
            Sha3_256::digest(&bytes[..p.pk_len()])[..],
            case.keygen.pk_sha3_256[..],
            "{} pk",
            p.name
        );
        assert_eq!(
            Sha3_256::digest(&bytes[p.pk_len()..])[..],
            case.keygen.sk_sha3_256[..],
            "{} sk",
            p.name
        );
        // The engine's count plus the 8 clocks that take ξ and the 2 of
        // the check word (folding the last word, then sending the check).
        let want = clocks[set] + mreg::KEYGEN_INPUT_WORDS + 2;
        assert_eq!(cycles as usize, want, "{} CYCLES", p.name);
    }
    let xi = [0x3Cu8; 32];
    // Refused: unknown set, unknown op, TLAST on the 4th word, none on the 8th.
    for (op, set, input) in [
        (mreg::OP_KEYGEN, 3, xi_words(&xi, 7)),
        (0x42, 0, Vec::new()),
        (mreg::OP_KEYGEN, 0, xi_words(&xi, 3)[..4].to_vec()),
        (mreg::OP_KEYGEN, 0, xi_words(&xi, 99)),
    ] {
        let (out, status, _) = mldsa_request(&mut top, op, set, &input);
        assert!(out.is_empty(), "op {op:#x} set {set}: output");
        assert_eq!(
            status & (ctrl::STATUS_DONE | ctrl::STATUS_ERROR),
            ctrl::STATUS_DONE | ctrl::STATUS_ERROR
        );
    }
    // Abort half-way through an ML-DSA-87 key generation.
    top.push_input(&xi_words(&xi, 7));
    top.write(ctrl::ARG0 as u32, mreg::SET_87).unwrap();
    top.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | mreg::OP_KEYGEN)
        .unwrap();
    let mut clocks = 0;
    while clocks < 20_000 {
        clocks += top.run(20_000 - clocks);
    }
    assert_ne!(
        top.read(ctrl::STATUS as u32).unwrap() & ctrl::STATUS_BUSY,
        0
    );
    top.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | mreg::OP_ABORT)
        .unwrap();
    let status = top.read(ctrl::STATUS as u32).unwrap();
    assert_eq!(
        status,
        ctrl::STATUS_DONE | ctrl::STATUS_ERROR,
        "{status:#x}"
    );
    // Usable again: ML-DSA-65 against pqc.
    let (out, status, _) =
        mldsa_request(&mut top, mreg::OP_KEYGEN, mreg::SET_65, &xi_words(&xi, 7));
    let out = checked_payload(out);
    assert_eq!(status & ctrl::STATUS_ERROR, 0);
    let p = pqc::mldsa::ParameterSet::MlDsa65;
    let mut pk = vec![0u8; p.params().pk_len()];
    let mut sk = vec![0u8; p.params().sk_len()];
    pqc::mldsa::keygen_internal(p, &xi, &mut pk, &mut sk).unwrap();
    pk.extend_from_slice(&sk);
    assert_eq!(bytes_of(&out), pk);
}

/// The Verify engine at the bus: the NIST ACVP sigVer cases of every set
/// (valid and invalid, M′ of the external interface) give the verdict
/// word with `TLAST` and `CYCLES` = the engine's clocks + 2 (start and the
/// verdict word); an external μ; a truncated stream, a refused set and an
/// abort each end in DONE | ERROR with no output; then a right verdict.
#[test]
fn verilated_mldsa_accel_runs_acvp_sigver_at_the_bus() {
    if !verilator_required("verilated mldsa_accel verify") {
        return;
    }
    let mut top = VerilatedTop::mldsa(false).unwrap();
    acvp_sigver_at_the_bus(&mut top, crate::mldsa::verify::ACVP_VERIFY_CLOCKS);
}

/// [`verilated_mldsa_accel_runs_acvp_sigver_at_the_bus`] on the engines'
/// top (the ML-DSA block, on the shared sponge).
#[test]
fn verilated_engines_accel_runs_acvp_mldsa_sigver_at_the_bus() {
    if !verilator_required("verilated engines_accel verify") {
        return;
    }
    let mut top = VerilatedTop::engines(false).unwrap();
    acvp_sigver_at_the_bus(&mut top, crate::mldsa::verify::SHARED_ACVP_VERIFY_CLOCKS);
}

/// The requests of [`verilated_mldsa_accel_runs_acvp_sigver_at_the_bus`]
/// on `top`, whose engine takes `clocks` for the valid ACVP cases.
fn acvp_sigver_at_the_bus(top: &mut VerilatedTop, clocks: [usize; 3]) {
    use crate::mldsa::verify::{pure_m_prime, verify_stream};
    use ps_pl_contract::regmap::mldsa as mreg;
    let mut top: &mut dyn PlTop = top;
    // The engine's clocks of the valid cases: CYCLES less the start and
    // the verdict word.
    let mut measured = [0usize; 3];
    for (set, vectors) in pqc_selftest::vectors::ML_DSA.iter().enumerate() {
        for case in &vectors.sigver {
            let m = pure_m_prime(case.message, case.context);
            let words = verify_stream(case.pk, case.signature, &m);
            let last = words.len() - 1;
            let (out, status, cycles) = mldsa_request_with(
                &mut top,
                mreg::OP_VERIFY,
                [set as u32, m.len() as u32],
                &beats(words, last),
            );
            let name = vectors.name;
            assert_eq!(status & ctrl::STATUS_ERROR, 0, "{name} tcId {}", case.tc_id);
            let want = if case.valid {
                mreg::VERDICT_VALID
            } else {
                mreg::VERDICT_INVALID
            };
            assert_eq!(
                out,
                vec![StreamWord {
                    data: want,
                    last: true
                }],
                "{name} tcId {}",
                case.tc_id
            );
            if case.valid {
                measured[set] = cycles as usize - 2;
            }
        }
    }
    assert_eq!(measured, clocks, "the engine's clocks of the valid cases");
    // External μ (ML-DSA-44 ACVP valid case).
    let case = &pqc_selftest::vectors::ML_DSA[0].sigver[0];
    let mu = pqc::mldsa::external_mu(
        pqc::mldsa::ParameterSet::MlDsa44,
        case.pk,
        case.message,
        case.context,
    )
    .unwrap();
    let words = verify_stream(case.pk, case.signature, &mu);
    let last = words.len() - 1;
    let (out, status, _) = mldsa_request_with(
        &mut top,
        mreg::OP_VERIFY,
        [mreg::SET_44 | mreg::VERIFY_EXTERNAL_MU, 0],
        &beats(words.clone(), last),
    );
    assert_eq!(status & ctrl::STATUS_ERROR, 0);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].data, mreg::VERDICT_VALID);
    // Truncated (TLAST on word 500, inside σ) and a refused set.
    for (arg0, input) in [
        (
            mreg::SET_44 | mreg::VERIFY_EXTERNAL_MU,
            beats(words[..501].to_vec(), 500),
        ),
        (3, beats(words.clone(), last)),
    ] {
        let (out, status, _) = mldsa_request_with(&mut top, mreg::OP_VERIFY, [arg0, 0], &input);
        assert!(out.is_empty(), "arg0 {arg0:#x}: output");
        assert_eq!(
            status & (ctrl::STATUS_DONE | ctrl::STATUS_ERROR),
            ctrl::STATUS_DONE | ctrl::STATUS_ERROR,
            "arg0 {arg0:#x}"
        );
    }
    // Abort in the row loop.
    top.push_input(&beats(words.clone(), last));
    top.write(ctrl::ARG0 as u32, mreg::SET_44 | mreg::VERIFY_EXTERNAL_MU)
        .unwrap();
    top.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | mreg::OP_VERIFY)
        .unwrap();
    let mut clocks = 0;
    while clocks < 10_000 {
        clocks += top.run(10_000 - clocks);
    }
    assert_ne!(
        top.read(ctrl::STATUS as u32).unwrap() & ctrl::STATUS_BUSY,
        0
    );
    top.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | mreg::OP_ABORT)
        .unwrap();
    let status = top.read(ctrl::STATUS as u32).unwrap();
    assert_eq!(
        status,
        ctrl::STATUS_DONE | ctrl::STATUS_ERROR,
        "{status:#x}"
    );
    top.drop_input();
    top.drop_output();
    let (out, status, _) = mldsa_request_with(
        &mut top,
        mreg::OP_VERIFY,
        [mreg::SET_44 | mreg::VERIFY_EXTERNAL_MU, 0],
        &beats(words, last),
    );
    assert_eq!(status & ctrl::STATUS_ERROR, 0);
    assert_eq!(out[0].data, mreg::VERDICT_VALID);
}

/// σ as `pqc` gives it, as the output stream's words (padded to a word).
fn sig_words(sig: &[u8]) -> Vec<StreamWord> {
    let padded = crate::mldsa::sign_tests::padded(sig);
    beats(
        padded
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes(w.try_into().unwrap())),
        padded.len() / 4 - 1,
    )
}

/// One `OP_SIGN` at the bus: (output words without the check word, which
/// is checked, see [`checked_payload`]; STATUS, CYCLES, RESULT).
fn sign_request(
    top: &mut dyn PlTop,
    arg0: u32,
    sk: &[u8],
    rnd: &[u8; 32],
    tail: &[u8],
) -> (Vec<StreamWord>, u32, u32, u32) {
    use crate::mldsa::sign::sign_stream;
    use ps_pl_contract::regmap::mldsa as mreg;
    let words = sign_stream(sk, rnd, tail);
    let last = words.len() - 1;
    let (out, status, cycles) = mldsa_request_with(
        top,
        mreg::OP_SIGN,
        [arg0, tail.len() as u32],
        &beats(words, last),
    );
    let attempts = top.read(ctrl::RESULT as u32).unwrap();
    (checked_payload(out), status, cycles, attempts)
}

/// σ and the number of attempts of `pqc` for an M′.
fn pqc_sign(set: usize, sk: &[u8], m_prime: &[u8], rnd: &[u8; 32]) -> (Vec<u8>, u32) {
    let ps = crate::mldsa::verify_tests::PARAMETER_SETS[set];
    let mut sig = vec![0u8; ps.params().sig_len()];
    let attempts = pqc::mldsa::sign_internal_counting(ps, sk, m_prime, rnd, &mut sig).unwrap();
    (sig, attempts as u32)
}

/// A key pair of `pqc` from a seed.
fn mldsa_keys(set: usize, seed: u8) -> (Vec<u8>, Vec<u8>) {
    let ps = crate::mldsa::verify_tests::PARAMETER_SETS[set];
    let p = ps.params();
    let (mut pk, mut sk) = (vec![0u8; p.pk_len()], vec![0u8; p.sk_len()]);
    pqc::mldsa::keygen_internal(ps, &[seed; 32], &mut pk, &mut sk).unwrap();
    (pk, sk)
}

/// The Sign engine at the bus: the NIST ACVP sigGen case of every set
/// (deterministic, M′ of the external interface) byte for byte with
/// `TLAST` on the final word only; hedged signing and an external μ
/// against `pqc`; a truncated stream, a refused set, an sk with an s1
/// coefficient out of range and an abort each end in DONE | ERROR with no
/// output; then a right signature.
#[test]
fn verilated_mldsa_accel_runs_acvp_siggen_at_the_bus() {
    if !verilator_required("verilated mldsa_accel sign") {
        return;
    }
    acvp_siggen_at_the_bus(&mut VerilatedTop::mldsa(false).unwrap());
}

/// [`verilated_mldsa_accel_runs_acvp_siggen_at_the_bus`] on the engines'
/// top (the ML-DSA block, on the shared sponge).
#[test]
fn verilated_engines_accel_runs_acvp_mldsa_siggen_at_the_bus() {
    if !verilator_required("verilated engines_accel sign") {
        return;
    }
    acvp_siggen_at_the_bus(&mut VerilatedTop::engines(false).unwrap());
}

/// The requests of [`verilated_mldsa_accel_runs_acvp_siggen_at_the_bus`]
/// on `top`.
fn acvp_siggen_at_the_bus(top: &mut VerilatedTop) {
    use crate::mldsa::verify::pure_m_prime;
    use crate::mldsa::verify_tests::PARAMETER_SETS;
    use ps_pl_contract::regmap::mldsa as mreg;
    let mut top: &mut dyn PlTop = top;
    for (set, vectors) in pqc_selftest::vectors::ML_DSA.iter().enumerate() {
        let case = &vectors.siggen;
        let m = pure_m_prime(case.message, case.context);
        let (out, status, cycles, attempts) =
            sign_request(&mut top, set as u32, case.sk, &[0; 32], &m);
        eprintln!(
            "{} ACVP sigGen tcId {}: {attempts} attempts, {cycles} cycles",
            vectors.name, case.tc_id
        );
        assert_eq!(status & ctrl::STATUS_ERROR, 0, "{}", vectors.name);
        assert_eq!(out, sig_words(case.signature), "{}", vectors.name);
        let (want, want_attempts) = pqc_sign(set, case.sk, &m, &[0; 32]);
        assert_eq!(want, case.signature);
        assert_eq!(
            attempts, want_attempts,
            "{} RESULT (attempts)",
            vectors.name
        );
        // Hedged, with a fresh key and message.
        let (pk, sk) = mldsa_keys(set, 17 + set as u8);
        let rnd = [0xA5 ^ set as u8; 32];
        let m = pure_m_prime(b"hedged signing in the PL", b"ctx");
        let (want, want_attempts) = pqc_sign(set, &sk, &m, &rnd);
        let (out, status, _, attempts) = sign_request(&mut top, set as u32, &sk, &rnd, &m);
        assert_eq!(status & ctrl::STATUS_ERROR, 0, "{} hedged", vectors.name);
        assert_eq!(out, sig_words(&want), "{} hedged", vectors.name);
        assert_eq!(attempts, want_attempts, "{} hedged attempts", vectors.name);
        assert!(pqc::mldsa::verify_internal(PARAMETER_SETS[set], &pk, &m, &want).is_ok());
    }
    // External μ, hedged (ML-DSA-44).
    let (pk, sk) = mldsa_keys(0, 3);
    let ps = PARAMETER_SETS[0];
    let mu = pqc::mldsa::external_mu(ps, &pk, b"external mu", b"").unwrap();
    let rnd = [7u8; 32];
    let mut want = vec![0u8; ps.params().sig_len()];
    pqc::mldsa::sign_mu(ps, &sk, &mu, &rnd, &mut want).unwrap();
    let (out, status, _, _) = sign_request(
        &mut top,
        mreg::SET_44 | mreg::SIGN_EXTERNAL_MU,
        &sk,
        &rnd,
        &mu,
    );
    assert_eq!(status & ctrl::STATUS_ERROR, 0);
    assert_eq!(out, sig_words(&want), "external μ");
    // Truncated (TLAST inside sk), a refused set, and an sk whose first
    // s1 coefficient is 7 > 2η (pqc refuses it too).
    let m = pure_m_prime(b"bad input", b"");
    let words = crate::mldsa::sign::sign_stream(&sk, &rnd, &m);
    let mut bad_sk = sk.clone();
    bad_sk[128] |= 0x07;
    assert!(pqc::mldsa::sign_internal(ps, &bad_sk, &m, &rnd, &mut want).is_err());
    let bad_words = crate::mldsa::sign::sign_stream(&bad_sk, &rnd, &m);
    for (what, arg0, arg1, input) in [
        (
            "truncated",
            mreg::SET_44,
            m.len() as u32,
            beats(words[..300].to_vec(), 299),
        ),
        (
            "set 3",
            3,
            m.len() as u32,
            beats(words.clone(), words.len() - 1),
        ),
        (
            "bad sk",
            mreg::SET_44,
            m.len() as u32,
            beats(bad_words.clone(), bad_words.len() - 1),
        ),
    ] {
        let (out, status, _) = mldsa_request_with(&mut top, mreg::OP_SIGN, [arg0, arg1], &input);
        assert!(out.is_empty(), "{what}: output");
        assert_eq!(
            status & (ctrl::STATUS_DONE | ctrl::STATUS_ERROR),
            ctrl::STATUS_DONE | ctrl::STATUS_ERROR,
            "{what}"
        );
        top.drop_output();
    }
    // Abort in the middle of the first attempt.
    top.push_input(&beats(words.clone(), words.len() - 1));
    top.write(ctrl::ARG0 as u32, mreg::SET_44).unwrap();
    top.write(ctrl::ARG1 as u32, m.len() as u32).unwrap();
    top.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | mreg::OP_SIGN)
        .unwrap();
    let mut clocks = 0;
    while clocks < 12_000 {
        clocks += top.run(12_000 - clocks);
    }
    assert_ne!(
        top.read(ctrl::STATUS as u32).unwrap() & ctrl::STATUS_BUSY,
        0
    );
    top.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | mreg::OP_ABORT)
        .unwrap();
    let status = top.read(ctrl::STATUS as u32).unwrap();
    assert_eq!(
        status,
        ctrl::STATUS_DONE | ctrl::STATUS_ERROR,
        "{status:#x}"
    );
    top.drop_input();
    top.drop_output();
    pqc::mldsa::sign_internal(ps, &sk, &m, &rnd, &mut want).unwrap();
    let (out, status, _, _) = sign_request(&mut top, mreg::SET_44, &sk, &rnd, &m);
    assert_eq!(status & ctrl::STATUS_ERROR, 0);
    assert_eq!(out, sig_words(&want), "after the abort");
}

/// The sign cycle table, on the ML-DSA engine's own top and on the
/// engines' top (the shared sponge): for every set, 32 messages signed
/// with one key at the bus (`CYCLES`, `RESULT` = attempts), each σ checked against
/// `pqc`. Prints the mean clocks, the mean attempts and the clocks of one
/// attempt (from two messages of the same length with different attempt
/// counts: each attempt of a key takes the same clocks). Run with
/// `cargo test --release -p hdl -- --ignored mldsa_sign_cycle_table --nocapture`.
#[test]
#[ignore = "measurement: about 4 minutes on Verilator"]
fn mldsa_sign_cycle_table() {
    use crate::mldsa::verify::pure_m_prime;
    use crate::mldsa::verify_tests::PARAMETER_SETS;
    if !verilator_required("mldsa sign cycle table") {
        return;
    }
    for (name, mut top) in [
        ("mldsa_accel", VerilatedTop::mldsa(false).unwrap()),
        ("engines_accel", VerilatedTop::engines(false).unwrap()),
    ] {
        for (set, &ps) in PARAMETER_SETS.iter().enumerate() {
            let (_, sk) = mldsa_keys(set, 40 + set as u8);
            let mut runs = Vec::new();
            for i in 0..32u32 {
                let m = pure_m_prime(&i.to_le_bytes(), b"");
                let (want, want_attempts) = pqc_sign(set, &sk, &m, &[0; 32]);
                let (out, status, cycles, attempts) =
                    sign_request(&mut top, set as u32, &sk, &[0; 32], &m);
                assert_eq!(status & ctrl::STATUS_ERROR, 0);
                assert_eq!(out, sig_words(&want));
                assert_eq!(attempts, want_attempts);
                runs.push((u64::from(cycles), u64::from(attempts)));
            }
            let n = runs.len() as f64;
            let mean_cycles = runs.iter().map(|r| r.0).sum::<u64>() as f64 / n;
            let mean_attempts = runs.iter().map(|r| r.1).sum::<u64>() as f64 / n;
            let (a, b) = runs
                .iter()
                .flat_map(|a| runs.iter().map(move |b| (a, b)))
                .find(|(a, b)| a.1 > b.1)
                .expect("two attempt counts");
            let per_attempt = (a.0 - b.0) / (a.1 - b.1);
            assert_eq!((a.0 - b.0) % (a.1 - b.1), 0, "attempts take equal clocks");
            let first = b.0 - (b.1 - 1) * per_attempt;
            eprintln!(
                "{name} {}: mean {mean_cycles:.0} cycles, mean {mean_attempts:.2} attempts, \
             {per_attempt} cycles per further attempt, {first} cycles with one attempt",
                ps.params().name
            );
        }
    }
}
