//! The Verilated tops against [`AccelBench`] through [`PlTop`]: the same
//! register transcript, output words and clock counts.

use super::VerilatedTop;
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
        let n = words.len();
        let beats: Vec<StreamWord> = words
            .iter()
            .enumerate()
            .map(|(i, &data)| StreamWord {
                data,
                last: i + 1 == n,
            })
            .collect();
        top.push_input(&beats);
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
