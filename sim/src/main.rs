//! `pqc-zynq`: the workspace's command-line front end.
//!
//! `pqc-zynq demo` signs and verifies with every ML-DSA and SLH-DSA
//! parameter set on the portable software backends and prints key and
//! signature sizes with median timings.
//!
//! `pqc-zynq report --out DIR` writes the software-vs-accelerated timing
//! report (`report.md`, `report.svg`); see `sim::report`.
//!
//! `pqc-zynq cosim --scheme NAME --op OP` co-simulates one operation and
//! prints its counts; `--trace FILE` writes VCD waveforms of both tops
//! (Verilator engine).
//!
//! `pqc-zynq simspeed` runs one workload on both co-simulation engines and
//! compares their speed in PL cycles per second.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use pqc::mldsa::{self, ParameterSet};
use pqc::slhdsa::{self, params::Params};
use sim::cosim::{self, Config, Engine, Pl};
use sim::progress::{group_digits, Progress};
use sim::report::{fmt_seconds, SoftwareSource};
use sim::workload::median;
use sim::workload::{Operation, Scheme};

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
                        [--cosim none|default|full] [--engine verilator|rust-hdl]
       pqc-zynq cosim [--scheme NAME] [--op keygen|sign|verify] [--engine verilator|rust-hdl]
                       [--trace FILE]
       pqc-zynq simspeed [--scheme NAME] [--op keygen|sign|verify]";

fn report_command(args: &[String]) -> Result<(), String> {
    let mut opts = sim::generate::Options {
        out: PathBuf::new(),
        transcript: sim::generate::default_transcript(),
        source: SoftwareSource::QemuIcount,
        host_runs: 5,
        cosim: sim::generate::CosimSet::Default,
        engine: Engine::Verilator,
        mcu: sim::generate::default_mcu_transcripts(),
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
            "--engine" => opts.engine = Engine::parse(&value()?)?,
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
        "wrote {}, {} and {}",
        opts.out.join("report.md").display(),
        opts.out.join("report.svg").display(),
        opts.out.join("report.json").display()
    );
    Ok(())
}

/// Options of `cosim` and `simspeed`: one operation of one scheme.
struct OneOp {
    scheme: Scheme,
    op: Operation,
    engine: Engine,
    trace: Option<PathBuf>,
}

fn parse_one_op(args: &[String], scheme: &str, op: Operation) -> Result<OneOp, String> {
    let mut o = OneOp {
        scheme: Scheme::from_name(scheme).expect("known default"),
        op,
        engine: Engine::Verilator,
        trace: None,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it
            .next()
            .cloned()
            .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
        match flag.as_str() {
            "--scheme" => {
                o.scheme = Scheme::from_name(&value)
                    .ok_or_else(|| format!("--scheme: unknown parameter set `{value}`"))?
            }
            "--op" => {
                o.op = Operation::ALL
                    .into_iter()
                    .find(|op| op.name() == value)
                    .ok_or_else(|| format!("--op: `{value}` is not keygen, sign or verify"))?
            }
            "--engine" => o.engine = Engine::parse(&value)?,
            "--trace" => o.trace = Some(PathBuf::from(value)),
            other => return Err(format!("unknown option {other}\n{USAGE}")),
        }
    }
    Ok(o)
}

/// Runs one operation on `pl` under a progress bar.
fn run_one(pl: &Pl, o: &OneOp) -> Result<cosim::Outcome, String> {
    let progress = Progress::start(
        &format!(
            "{} {} on {}",
            o.scheme.name(),
            o.op.name(),
            pl.engine().name()
        ),
        1,
        pl.progress_counter(),
    );
    let outcome = cosim::run_operation(pl, o.scheme, o.op)?;
    progress.op_done();
    if !outcome.faults.is_empty() {
        return Err(format!("co-simulation faults: {:?}", outcome.faults));
    }
    if !outcome.identical() {
        return Err("the accelerated output differs from software".into());
    }
    Ok(outcome)
}

fn cosim_command(args: &[String]) -> Result<(), String> {
    let o = parse_one_op(args, "ML-DSA-44", Operation::Sign)?;
    let pl = match &o.trace {
        Some(stem) if o.engine == Engine::Verilator => Pl::traced(Config::DEFAULT, stem)?,
        Some(_) => return Err("--trace needs the Verilator engine".into()),
        None => Pl::new(Config::DEFAULT.on(o.engine))?,
    };
    let r = run_one(&pl, &o)?;
    let c = r.counts;
    println!(
        "{} {} on {}: {} PL cycles, {} AXI-Lite reads, {} writes, {} DMA bytes in {} transfers, {} jobs, {} core cycles; output equals software; {:.2} s ({:.0} PL cycles/s)",
        o.scheme.name(),
        o.op.name(),
        o.engine.name(),
        c.pl_cycles,
        c.axi_lite_reads,
        c.axi_lite_writes,
        c.dma_bytes(),
        c.dma_transfers,
        c.jobs,
        c.core_busy_cycles,
        r.sim_seconds,
        c.pl_cycles as f64 / r.sim_seconds
    );
    if let Some(stem) = &o.trace {
        drop(pl);
        for top in [hdl::axi::NTT_ACCEL, hdl::axi::KECCAK_ACCEL] {
            println!("wrote {}", Pl::vcd_path(stem, top).display());
        }
    }
    Ok(())
}

/// Same workload on both engines, one run; the last line is the summary.
fn simspeed_command(args: &[String]) -> Result<(), String> {
    let o = parse_one_op(args, "ML-DSA-44", Operation::Sign)?;
    if o.trace.is_some() {
        return Err("simspeed does not trace".into());
    }
    let mut speeds = Vec::new();
    let mut cycles = Vec::new();
    for engine in Engine::ALL {
        // Building the Verilator models (first use only) is not timed.
        let pl = Pl::new(Config::DEFAULT.on(engine))?;
        // The operation is repeated until it has run for MIN_SECONDS (one
        // run on rust-hdl; several on Verilator, where one is too short to
        // time well).
        const MIN_SECONDS: f64 = 3.0;
        let (mut runs, mut total_cycles, mut seconds) = (0, 0, 0.0);
        while runs == 0 || seconds < MIN_SECONDS {
            let r = run_one(&pl, &o)?;
            if runs == 0 {
                cycles.push(r.counts);
            }
            runs += 1;
            total_cycles += r.counts.pl_cycles;
            seconds += r.sim_seconds;
        }
        let speed = total_cycles as f64 / seconds;
        println!(
            "{} {} on {}: {} run(s), {} PL cycles in {:.3} s: {} PL cycles/s",
            o.scheme.name(),
            o.op.name(),
            engine.name(),
            runs,
            group_digits(total_cycles),
            seconds,
            group_digits(speed as u64)
        );
        speeds.push(speed);
    }
    if cycles[0] != cycles[1] {
        return Err(format!(
            "the engines disagree: {:?} vs {:?}",
            cycles[0], cycles[1]
        ));
    }
    println!(
        "simspeed: verilator {:.0} PL cycles/s, rust-hdl {:.0} PL cycles/s, ratio {:.1}",
        speeds[0],
        speeds[1],
        speeds[0] / speeds[1]
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("demo") if args.len() == 1 => demo(),
        Some("report") => report_command(&args[1..]),
        Some("cosim") => cosim_command(&args[1..]),
        Some("simspeed") => simspeed_command(&args[1..]),
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
