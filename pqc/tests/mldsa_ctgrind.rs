//! Constant-time check of ML-DSA signing, in both signing modes (fast and
//! small-stack), with Valgrind memcheck
//! ("ctgrind"): the secret parts of the secret key (K, s1, s2, t0) and rnd
//! are marked undefined, so memcheck reports every branch and every memory
//! address that depends on them. Each report must fall on one of the
//! documented, accepted lines (see the constant-time audit in
//! `pqc::mldsa`): the accept/reject decision of an attempt, packing the
//! (then public) hints, SampleInBall's byte rejection, and the key-validity
//! check. Anything else fails the test.
//!
//! Runs when `valgrind` is installed (x86_64 only); skipped with a message
//! otherwise. The child process is this test binary under valgrind.
#![cfg(target_arch = "x86_64")]

use pqc::mldsa::{self, MlDsa, ParameterSet, SigningMode};
use std::process::Command;

const CHILD_ENV: &str = "PQC_CTGRIND_CHILD";

/// Lines on which a secret-dependent branch is accepted: (source file of
/// `pqc::mldsa`, text of the line).
const ACCEPTED: &[(&str, &str)] = &[
    ("mldsa/internal.rs", "if reject == 0"),
    ("mldsa/internal.rs", "if bad != 0"),
    ("mldsa/encode.rs", "if bit != 0"),
    ("mldsa/sample.rs", "if j > i"),
    ("mldsa/sample.rs", "if i == N"),
    ("mldsa/sample.rs", "if consume(first)"),
];

/// VALGRIND_MAKE_MEM_UNDEFINED client request (a no-op outside valgrind).
fn make_mem_undefined(bytes: &[u8]) {
    const MAKE_MEM_UNDEFINED: u64 = 0x4D43_0001; // VG_USERREQ_TOOL_BASE('M','C') + 1
    let args: [u64; 6] = [
        MAKE_MEM_UNDEFINED,
        bytes.as_ptr() as u64,
        bytes.len() as u64,
        0,
        0,
        0,
    ];
    let mut result: u64 = 0;
    // SAFETY: the valgrind magic preamble rotates rdi by 128 bits in total
    // (no change) and `xchg rbx, rbx` is a no-op natively; valgrind reads
    // the request from [rax] and writes its result to rdx.
    unsafe {
        std::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") args.as_ptr(),
            inout("rdx") result,
            inout("rdi") 0u64 => _,
        );
    }
    let _ = result;
}

#[test]
fn ctgrind_child() {
    if std::env::var(CHILD_ENV).is_err() {
        return;
    }
    for set in ParameterSet::ALL {
        let mut pk = vec![0u8; set.public_key_len()];
        let mut sk = vec![0u8; set.secret_key_len()];
        mldsa::keygen_internal(set, &[11; 32], &mut pk, &mut sk).unwrap();
        for i in 0..3u8 {
            let rnd = [i; 32];
            // Both signing modes, each with freshly marked secrets.
            for mode in [SigningMode::Fast, SigningMode::SmallStack] {
                make_mem_undefined(&sk[32..64]); // K
                make_mem_undefined(&sk[128..]); // s1, s2, t0
                make_mem_undefined(&rnd);
                let mut sig = vec![0u8; set.signature_len()];
                let r = <MlDsa>::default()
                    .with_signing_mode(mode)
                    .sign(set, &sk, &[i; 50], b"ctx", &rnd, &mut sig);
                std::hint::black_box((r.is_ok(), &sig));
            }
        }
    }
}

#[test]
fn signing_has_no_secret_dependent_branch_or_index_beyond_the_audit() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    if Command::new("valgrind").arg("--version").output().is_err() {
        println!("valgrind not installed: constant-time check skipped");
        return;
    }
    let out = Command::new("valgrind")
        .args([
            "--tool=memcheck",
            "--error-limit=no",
            "--num-callers=12",
            "--fullpath-after=",
            "--read-inline-info=yes",
        ])
        .arg(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "ctgrind_child",
            "--test-threads=1",
            "--nocapture",
        ])
        .env(CHILD_ENV, "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "child failed under valgrind");
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("ERROR SUMMARY"), "no valgrind summary:\n{log}");

    let mut reports = 0;
    let mut small_stack_reports = 0;
    let mut accepted_hits = std::collections::BTreeMap::<String, usize>::new();
    // Group valgrind's lines ("==pid== text") into records separated by
    // empty lines.
    let mut records = vec![String::new()];
    for line in log.lines().filter(|l| l.starts_with("==")) {
        let text = line.splitn(3, "==").nth(2).unwrap_or("").trim_start();
        if text.is_empty() {
            records.push(String::new());
        } else {
            let last = records.last_mut().unwrap();
            last.push_str(text);
            last.push('\n');
        }
    }
    for record in records.iter().filter(|r| {
        r.contains("depends on uninitialised value") || r.contains("Use of uninitialised value")
    }) {
        reports += 1;
        if record.contains("sign_mu_small_stack") {
            small_stack_reports += 1;
        }
        // Innermost frame inside pqc's sources.
        let frame = record
            .lines()
            .filter(|l| l.starts_with("at 0x") || l.starts_with("by 0x"))
            .find(|l| l.contains("/pqc/src/"))
            .unwrap_or_else(|| panic!("report outside pqc:\n{record}"));
        let location = frame.rsplit('(').next().unwrap().trim_end_matches(')');
        let (path, line) = location.rsplit_once(':').unwrap();
        let line: usize = line.parse().unwrap();
        let text = std::fs::read_to_string(path).unwrap();
        let source = text.lines().nth(line - 1).unwrap_or("").trim().to_string();
        let ok = ACCEPTED
            .iter()
            .any(|(f, s)| path.ends_with(f) && source.contains(s));
        assert!(
            ok,
            "secret-dependent operation not in the audit:\n{frame}\n  {source}\n{record}"
        );
        *accepted_hits
            .entry(format!(
                "{}:{line} `{source}`",
                path.rsplit("/src/").next().unwrap()
            ))
            .or_default() += 1;
    }
    println!(
        "memcheck reports: {reports} ({small_stack_reports} in the small-stack path), all on audited lines:"
    );
    for (k, v) in &accepted_hits {
        println!("  {v:4} × {k}");
    }
    // The check must be live: the accept/reject branch depends on secrets.
    assert!(
        accepted_hits.keys().any(|k| k.contains("reject == 0")),
        "no report at all: were the secrets marked?\n{log}"
    );
    assert!(
        small_stack_reports > 0,
        "no report from the small-stack path: did it run under valgrind?"
    );
}
