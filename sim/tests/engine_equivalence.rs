//! The two co-simulation engines (Verilator and rust-hdl) give identical
//! transcripts on whole operations: the same outputs, the same counts (PL
//! cycles, AXI-Lite reads/writes, DMA bytes and transfers, cache lines,
//! jobs, core cycles) and the same register accesses in order, each at the
//! same PL cycle with the same value. The accesses include every STATUS
//! poll and every CYCLES read, so per-job cycle counts are compared too.

use driver::host::DmaFault;
use pqc::keccak::{KeccakBackend, SpongeMode};
use ps_pl_contract::dma::KECCAK_BUFFER_BYTES;
use ps_pl_contract::regmap::ctrl;
use sim::cosim::{self, Access, Arena, Config, Engine, Pl, Window};
use sim::report::AccelCounts;
use sim::workload::{Operation, Outputs, Scheme};
use std::time::Instant;

/// What one engine gave for one step.
#[derive(Debug, PartialEq)]
struct Step {
    name: String,
    counts: AccelCounts,
    outputs: Option<Outputs>,
    /// Sponge outputs (requests without an `Outputs`).
    digests: Vec<Vec<u8>>,
    faults: Vec<String>,
    ntt: Vec<Access>,
    keccak: Vec<Access>,
}

fn pl(engine: Engine) -> Pl {
    let pl = Pl::new(Config::DEFAULT.on(engine)).expect("co-simulation engine");
    pl.record_accesses();
    pl
}

fn operations(engine: Engine, runs: &[(&str, &[Operation])]) -> Vec<Step> {
    let pl = pl(engine);
    let mut steps = Vec::new();
    for &(name, ops) in runs {
        let scheme = Scheme::from_name(name).unwrap();
        for &op in ops {
            let o = cosim::run_operation(&pl, scheme, op).unwrap();
            assert!(o.identical(), "{name} {} on {engine:?}", op.name());
            eprintln!(
                "{engine:?} {name} {}: {} PL cycles in {:.2} s",
                op.name(),
                o.counts.pl_cycles,
                o.sim_seconds
            );
            let (ntt, keccak) = pl.take_accesses();
            steps.push(Step {
                name: format!("{name} {}", op.name()),
                counts: o.counts,
                outputs: Some(o.outputs),
                digests: Vec::new(),
                faults: o.faults,
                ntt,
                keccak,
            });
        }
    }
    steps
}

/// SHAKE/SHA3 requests through HwKeccak, then the same requests with the
/// DMA engine answering DMASlvErr from the 7th transfer of the second
/// round on (mid-request: HwKeccak records the fault and falls back to
/// software).
fn sponges(engine: Engine) -> Vec<Step> {
    let pl = pl(engine);
    let mut arena = Arena::new(KECCAK_BUFFER_BYTES);
    let msg: Vec<u8> = (0..700u32).map(|i| (i * 29 + 5) as u8).collect();
    let requests = [
        (SpongeMode::Shake128, 0, 32),
        (SpongeMode::Shake128, 168, 337),
        (SpongeMode::Shake256, 135, 136),
        (SpongeMode::Shake256, 700, 64),
        (SpongeMode::Sha3_256, 3, 32),
        (SpongeMode::Sha3_512, 72, 64),
    ];
    let mut steps = Vec::new();
    for faulty in [false, true] {
        let mut k = pl.keccak(&mut arena);
        if faulty {
            // Every LENGTH write of the first round started a transfer.
            let done = pl.keccak.borrow().counts().dma_transfers;
            pl.keccak
                .borrow_mut()
                .dma()
                .inject(DmaFault::SlaveError(None), done + 6);
        }
        let before = pl.counts();
        let mut outputs = Vec::new();
        for (mode, m, o) in requests {
            let mut out = vec![0u8; o];
            k.sponge(mode, &[&msg[..m]], &mut out);
            outputs.push(out);
        }
        let mut faults = pl.errors();
        faults.extend(k.fault().map(|f| format!("HwKeccak fault: {f}")));
        assert_eq!(k.fault().is_some(), faulty, "{engine:?}");
        let after = pl.counts();
        let (ntt, keccak) = pl.take_accesses();
        steps.push(Step {
            name: format!("sponges (faulty DMA: {faulty})"),
            counts: after.bus_since(&before),
            outputs: None,
            digests: outputs,
            faults,
            ntt,
            keccak,
        });
    }
    steps
}

/// Asserts equality step by step, naming the first differing access.
fn assert_same(verilator: &[Step], rust_hdl: &[Step]) {
    assert_eq!(verilator.len(), rust_hdl.len());
    for (v, r) in verilator.iter().zip(rust_hdl) {
        for (unit, a, b) in [("NTT", &v.ntt, &r.ntt), ("Keccak", &v.keccak, &r.keccak)] {
            if let Some(i) = (0..a.len().min(b.len())).find(|&i| a[i] != b[i]) {
                panic!(
                    "{}: {unit} access {i} differs: Verilator {:?}, rust-hdl {:?}",
                    v.name, a[i], b[i]
                );
            }
            assert_eq!(a.len(), b.len(), "{}: {unit} access count", v.name);
        }
        assert_eq!(v, r, "{}", v.name);
        // Non-vacuous: the transcript holds register traffic and job cycle counts.
        let cycles_reads = v
            .ntt
            .iter()
            .chain(&v.keccak)
            .filter(|a| a.window == Window::Control && !a.write && a.offset == ctrl::CYCLES as u32)
            .count();
        assert!(
            v.counts.pl_cycles > 0 && v.counts.axi_lite() > 0,
            "{}",
            v.name
        );
        assert!(cycles_reads > 0, "{}: no CYCLES read", v.name);
    }
}

fn both<F: Fn(Engine) -> Vec<Step>>(run: F) {
    let mut timed = Vec::new();
    for engine in Engine::ALL {
        let t = Instant::now();
        timed.push(run(engine));
        eprintln!("{engine:?}: {:.1} s", t.elapsed().as_secs_f64());
    }
    assert_same(&timed[0], &timed[1]);
}

#[test]
fn engines_agree_on_ml_dsa_44_and_slh_dsa_shake_128f_keygen() {
    both(|e| {
        operations(
            e,
            &[
                ("ML-DSA-44", &Operation::ALL),
                ("SLH-DSA-SHAKE-128f", &[Operation::Keygen]),
            ],
        )
    });
}

#[test]
fn engines_agree_on_sponge_requests_and_a_faulty_dma() {
    both(sponges);
}

#[test]
#[ignore = "slow on rust-hdl (tens of minutes): PQC_FULL=1 runs it"]
fn engines_agree_on_ml_dsa_65_87_and_slh_dsa_shake_128f_sign_verify() {
    both(|e| {
        operations(
            e,
            &[
                ("ML-DSA-65", &Operation::ALL),
                ("ML-DSA-87", &Operation::ALL),
                ("SLH-DSA-SHAKE-128f", &[Operation::Sign, Operation::Verify]),
            ],
        )
    });
}
