//! `pqc-zynq`: the workspace's command-line front end.
//!
//! `pqc-zynq demo` signs and verifies with every ML-DSA and SLH-DSA
//! parameter set on the portable software backends and prints key and
//! signature sizes with median timings.
//!
//! `pqc-zynq report --out DIR` writes the software-vs-accelerated timing
//! report (`report.md`, `report.svg`); see `sim::report`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use pqc::mldsa::{self, ParameterSet};
use pqc::slhdsa::{self, params::Params};
use sim::report::{fmt_seconds, SoftwareSource};
use sim::workload::median;

/// Biggest ML-DSA buffers (ML-DSA-87).
const MLDSA_MAX_PK: usize = mldsa::ml_dsa_87::PUBLIC_KEY_LEN;
const MLDSA_MAX_SK: usize = mldsa::ml_dsa_87::SECRET_KEY_LEN;
const MLDSA_MAX_SIG: usize = mldsa::ml_dsa_87::SIGNATURE_LEN;

struct Row {
    name: &'static str,
    pk: usize,
    sk: usize,
    sig: usize,
    keygen: Duration,
    sign: Duration,
    verify: Duration,
    runs: usize,
}

fn random<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).expect("operating-system RNG");
    b
}

/// Median wall time of `runs` calls of `f`.
fn median_time(runs: usize, mut f: impl FnMut()) -> Duration {
    median(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect(),
    )
}

fn mldsa_row(set: ParameterSet, runs: usize, msg: &[u8]) -> Result<Row, String> {
    let (pk_len, sk_len, sig_len) = (
        set.public_key_len(),
        set.secret_key_len(),
        set.signature_len(),
    );
    let mut pk = [0u8; MLDSA_MAX_PK];
    let mut sk = [0u8; MLDSA_MAX_SK];
    let mut sig = [0u8; MLDSA_MAX_SIG];
    let (pk, sk, sig) = (&mut pk[..pk_len], &mut sk[..sk_len], &mut sig[..sig_len]);
    let ctx = b"pqc-zynq demo";
    let keygen = median_time(runs, || {
        mldsa::keygen_internal(set, &random(), pk, sk).expect("keygen")
    });
    let sign = median_time(runs, || {
        mldsa::sign(set, sk, msg, ctx, &random(), sig).expect("sign")
    });
    let mut ok = true;
    let verify = median_time(runs, || ok &= mldsa::verify(set, pk, msg, ctx, sig).is_ok());
    if !ok {
        return Err(format!(
            "{}: a fresh signature did not verify",
            set.params().name
        ));
    }
    if mldsa::verify(set, pk, b"another message", ctx, sig).is_ok() {
        return Err(format!(
            "{}: a signature verified for another message",
            set.params().name
        ));
    }
    Ok(Row {
        name: set.params().name,
        pk: pk_len,
        sk: sk_len,
        sig: sig_len,
        keygen,
        sign,
        verify,
        runs,
    })
}

fn slhdsa_row(p: &'static Params, runs: usize, msg: &[u8]) -> Result<Row, String> {
    let n = p.n;
    let mut pk = vec![0u8; p.pk_bytes()];
    let mut sk = vec![0u8; p.sk_bytes()];
    let mut sig = vec![0u8; p.sig_bytes()];
    let ctx = b"pqc-zynq demo";
    let keygen = median_time(runs, || {
        let seeds: [u8; 96] = random();
        slhdsa::slh_keygen_internal(
            p,
            &seeds[..n],
            &seeds[n..2 * n],
            &seeds[2 * n..3 * n],
            &mut sk,
            &mut pk,
        )
        .expect("keygen")
    });
    let sign = median_time(runs, || {
        let addrnd: [u8; 32] = random();
        slhdsa::slh_sign(p, &sk, msg, ctx, Some(&addrnd[..n]), &mut sig).expect("sign");
    });
    let mut ok = true;
    let verify = median_time(runs, || {
        ok &= slhdsa::slh_verify(p, &pk, msg, ctx, &sig).is_ok()
    });
    if !ok {
        return Err(format!("{}: a fresh signature did not verify", p.name));
    }
    if slhdsa::slh_verify(p, &pk, b"another message", ctx, &sig).is_ok() {
        return Err(format!(
            "{}: a signature verified for another message",
            p.name
        ));
    }
    Ok(Row {
        name: p.name,
        pk: p.pk_bytes(),
        sk: p.sk_bytes(),
        sig: p.sig_bytes(),
        keygen,
        sign,
        verify,
        runs,
    })
}

fn demo() -> Result<(), String> {
    let msg = b"Zynq-7000 co-design: sign me with a post-quantum signature";
    println!(
        "Sign and verify with every parameter set (portable software backends, median wall time)."
    );
    println!(
        "{:<20} {:>6} {:>6} {:>6} {:>11} {:>11} {:>11} {:>5}",
        "parameter set", "pk B", "sk B", "sig B", "keygen", "sign", "verify", "runs"
    );
    let mut rows = Vec::new();
    for set in ParameterSet::ALL {
        rows.push(mldsa_row(set, 51, msg)?);
        print_row(rows.last().unwrap());
    }
    for p in slhdsa::params::ALL {
        // The `s` sets sign in the order of a second each: fewer runs.
        let runs = if p.name.ends_with('s') { 1 } else { 5 };
        rows.push(slhdsa_row(p, runs, msg)?);
        print_row(rows.last().unwrap());
    }
    println!(
        "all {} parameter sets signed and verified; tampered messages rejected",
        rows.len()
    );
    Ok(())
}

fn print_row(r: &Row) {
    println!(
        "{:<20} {:>6} {:>6} {:>6} {:>11} {:>11} {:>11} {:>5}",
        r.name,
        r.pk,
        r.sk,
        r.sig,
        fmt_seconds(r.keygen.as_secs_f64()),
        fmt_seconds(r.sign.as_secs_f64()),
        fmt_seconds(r.verify.as_secs_f64()),
        r.runs
    );
}

const USAGE: &str = "usage: pqc-zynq demo
       pqc-zynq report --out DIR [--transcript FILE] [--source qemu|zedboard] [--host-runs N]
                        [--cosim none|default|full]";

fn report_command(args: &[String]) -> Result<(), String> {
    let mut opts = sim::generate::Options {
        out: PathBuf::new(),
        transcript: sim::generate::default_transcript(),
        source: SoftwareSource::QemuIcount,
        host_runs: 5,
        cosim: sim::generate::CosimSet::Default,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))
        };
        match flag.as_str() {
            "--out" => opts.out = PathBuf::from(value()?),
            "--transcript" => opts.transcript = PathBuf::from(value()?),
            "--source" => opts.source = SoftwareSource::parse(&value()?)?,
            "--cosim" => opts.cosim = sim::generate::CosimSet::parse(&value()?)?,
            "--host-runs" => {
                let v = value()?;
                opts.host_runs = v
                    .parse()
                    .map_err(|_| format!("--host-runs: `{v}` is not a count"))?;
            }
            other => return Err(format!("unknown option {other}\n{USAGE}")),
        }
    }
    if opts.out.as_os_str().is_empty() {
        return Err(format!("--out is required\n{USAGE}"));
    }
    let r = sim::generate::build(&opts)?;
    sim::generate::write(&r, &opts.out)?;
    println!(
        "wrote {} and {}",
        opts.out.join("report.md").display(),
        opts.out.join("report.svg").display()
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("demo") if args.len() == 1 => demo(),
        Some("report") => report_command(&args[1..]),
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pqc-zynq: {e}");
            ExitCode::FAILURE
        }
    }
}
