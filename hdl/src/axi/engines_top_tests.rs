//! [`EnginesAccel`] at the bus: each engine behind its half of the window
//! as on its own top, and one operation at a time on the shared sponge.

use super::pl_top::bus_request;
use super::{AccelBench, AxiTimeout, EnginesAccel, PlTop, SlhDsaAccel, StreamWord};
use crate::mldsa::keygen::SHARED_ACVP_KEYGEN_CLOCKS;
use crate::mldsa::verilator_check::tests::pqc_keygen;
use crate::verilated::tests::{bytes_of, checked_payload, xi_words};
use crate::verilated::VerilatedTop;
use crate::verilator::verilator_required;
use ps_pl_contract::regmap::{ctrl, mldsa as mreg, slhdsa as sreg, ENGINE_BLOCK_BYTES};

/// One engine's control block of a top with both: every register access
/// offset by the block's place in the window.
pub(crate) struct Window<P: PlTop> {
    pub(crate) top: P,
    pub(crate) block: u32,
}

impl<P: PlTop> PlTop for Window<P> {
    fn cycles(&self) -> u64 {
        self.top.cycles()
    }
    fn write(&mut self, offset: u32, value: u32) -> Result<(), AxiTimeout> {
        self.top.write(self.block + offset, value)
    }
    fn read(&mut self, offset: u32) -> Result<u32, AxiTimeout> {
        self.top.read(self.block + offset)
    }
    fn run(&mut self, max: u64) -> u64 {
        self.top.run(max)
    }
    fn push_input(&mut self, words: &[StreamWord]) {
        self.top.push_input(words)
    }
    fn input_drained(&self) -> bool {
        self.top.input_drained()
    }
    fn drop_input(&mut self) {
        self.top.drop_input()
    }
    fn pop_output(&mut self) -> Option<StreamWord> {
        self.top.pop_output()
    }
    fn drop_output(&mut self) {
        self.top.drop_output()
    }
    fn set_sink_ready(&mut self, ready: bool) {
        self.top.set_sink_ready(ready)
    }
}

/// The SLH-DSA block's offset in the window.
const SLH: u32 = ENGINE_BLOCK_BYTES as u32;

/// The transcripts of the SLH-DSA script on the engines' top and on
/// the SLH-DSA engine's own are the same but for CONFIG (the script's
/// third word), which has `CONFIG_SHA2` on the engines' top: the
/// contract's `ENGINES_CONFIG`.
fn assert_same_but_config(got: &[u64], want: &[u64]) {
    assert_eq!(got[2], want[2] | u64::from(sreg::CONFIG_SHA2), "CONFIG");
    assert_eq!(got[2], u64::from(sreg::ENGINES_CONFIG), "CONFIG");
    assert_eq!((&got[..2], &got[3..]), (&want[..2], &want[3..]));
}

/// The SLH-DSA engine's script (identification, refusals, an abort, the
/// ACVP key generation) gives the same transcript, clocks included, in
/// the upper half of the engines' window as on its own top. By default
/// the exported tops run the same comparison under Verilator
/// ([`verilated_engines_accel_matches_the_engines_own_tops`], each
/// Verilated top checked against its rust-hdl model elsewhere).
#[test]
#[ignore = "90 s of rust-hdl simulation of the two tops; PQC_FULL=1 runs it"]
fn engines_accel_runs_the_slhdsa_script_as_slhdsa_accel() {
    let mut own = AccelBench::<SlhDsaAccel>::new();
    let want = super::slhdsa_top_tests::script(&mut own);
    let mut both = AccelBench::<EnginesAccel>::new();
    let got = super::slhdsa_top_tests::script(&mut Window {
        top: &mut both,
        block: SLH,
    });
    assert_same_but_config(&got, &want);
}

/// The ACVP key generation of ML-DSA-44 in the lower half: pqc's pk ‖ sk
/// (and the check word), in the shared sponge's clocks.
fn mldsa_keygen_is_right(top: &mut dyn PlTop) {
    let case = &pqc_selftest::vectors::ML_DSA[0];
    let (out, status, cycles) = bus_request(
        top,
        mreg::OP_KEYGEN,
        &[mreg::SET_44],
        &xi_words(&case.keygen.seed, 7),
        1_000_000,
    );
    assert_eq!(status, ctrl::STATUS_DONE, "ML-DSA keygen");
    assert_eq!(
        bytes_of(&checked_payload(out)),
        pqc_keygen(0, &case.keygen.seed)
    );
    // ξ's 8 words, the engine, the check word's 2 clocks.
    let want = SHARED_ACVP_KEYGEN_CLOCKS[0] + mreg::KEYGEN_INPUT_WORDS + 2;
    assert_eq!(cycles as usize, want, "CYCLES");
}

/// Starts `op` of the block at `block` with `ARG0` = `set`, without input.
fn start(top: &mut dyn PlTop, block: u32, op: u32, set: u32) {
    top.write(block + ctrl::ARG0 as u32, set).unwrap();
    top.write(block + ctrl::COMMAND as u32, ctrl::COMMAND_START | op)
        .unwrap();
}

fn status(top: &mut dyn PlTop, block: u32) -> u32 {
    top.read(block + ctrl::STATUS as u32).unwrap()
}

/// One operation at a time: a start of either engine while the other
/// holds the sponge is refused, and the running one is not disturbed.
#[test]
fn engines_accel_runs_one_operation_at_a_time() {
    one_operation_at_a_time(&mut AccelBench::<EnginesAccel>::new());
}

/// The exported top under Verilator: the SLH-DSA script's transcript
/// (clocks included) as the Verilated `slhdsa_accel`'s (itself checked
/// against the rust-hdl model), and the one-at-a-time run with the
/// ML-DSA key generation's exact CYCLES.
#[test]
fn verilated_engines_accel_matches_the_engines_own_tops() {
    if !verilator_required("verilated engines_accel") {
        return;
    }
    let mut own = VerilatedTop::slhdsa(false).unwrap();
    let want = super::slhdsa_top_tests::script(&mut own);
    let mut both = VerilatedTop::engines(false).unwrap();
    let got = super::slhdsa_top_tests::script(&mut Window {
        top: &mut both,
        block: SLH,
    });
    assert_same_but_config(&got, &want);
    one_operation_at_a_time(&mut VerilatedTop::engines(false).unwrap());
}

/// The SHA2 sets on the engines' top: the SHA2 script's transcript
/// (refusals, an abort during key generation) on the Verilated top
/// equals the rust-hdl model's, clock for clock; then on the Verilated
/// top the ACVP SHA2-128f key generation (in the rust-hdl engine's
/// clocks), the whole ACVP SHA2-128f signature, its verification, a
/// forged and a short one and the invalid sigVer case, and after them an
/// ML-DSA key generation on the shared sponge, right and in its exact
/// clocks.
#[test]
fn verilated_engines_accel_runs_the_sha2_sets() {
    if !verilator_required("verilated engines_accel, SHA2") {
        return;
    }
    use super::slhdsa_top_tests::{acvp_sha2_128f_operations, sha2_acvp_keygen, sha2_script};
    let mut verilated = VerilatedTop::engines(false).unwrap();
    let mut window = Window {
        top: &mut verilated,
        block: SLH,
    };
    let got = sha2_script(&mut window);
    let mut model = AccelBench::<EnginesAccel>::new();
    let want = sha2_script(&mut Window {
        top: &mut model,
        block: SLH,
    });
    assert_eq!(got, want);
    sha2_acvp_keygen(&mut window);
    acvp_sha2_128f_operations(&mut window);
    mldsa_keygen_is_right(&mut verilated);
}

fn one_operation_at_a_time(top: &mut dyn PlTop) {
    let refused = ctrl::STATUS_DONE | ctrl::STATUS_ERROR;
    assert_eq!(top.read(ctrl::ID as u32).unwrap(), mreg::ID);
    assert_eq!(top.read(SLH + ctrl::ID as u32).unwrap(), sreg::ID);
    mldsa_keygen_is_right(top);

    // An SLH-DSA start during an ML-DSA key generation is refused.
    let case = &pqc_selftest::vectors::ML_DSA[0];
    top.push_input(&xi_words(&case.keygen.seed, 7));
    top.set_sink_ready(true);
    start(top, 0, mreg::OP_KEYGEN, mreg::SET_44);
    for _ in 0..100 {
        top.run(1);
    }
    start(top, SLH, sreg::OP_KEYGEN, 1);
    assert_eq!(status(top, SLH), refused, "SLH-DSA start while ML-DSA runs");
    assert_eq!(status(top, 0), ctrl::STATUS_BUSY, "ML-DSA keeps running");
    let mut clocks = 0;
    while status(top, 0) & ctrl::STATUS_BUSY != 0 {
        clocks += top.run(1_000);
        assert!(clocks < 100_000, "ML-DSA keygen hung");
    }
    assert_eq!(status(top, 0), ctrl::STATUS_DONE);
    let out: Vec<StreamWord> = std::iter::from_fn(|| top.pop_output()).collect();
    assert_eq!(
        bytes_of(&checked_payload(out)),
        pqc_keygen(0, &case.keygen.seed)
    );

    // An ML-DSA start while the SLH-DSA engine waits for its input is
    // refused; after the SLH-DSA abort, ML-DSA runs right.
    start(top, SLH, sreg::OP_KEYGEN, 1);
    top.run(10);
    assert_eq!(status(top, SLH), ctrl::STATUS_BUSY);
    start(top, 0, mreg::OP_KEYGEN, mreg::SET_44);
    assert_eq!(status(top, 0), refused, "ML-DSA start while SLH-DSA runs");
    assert_eq!(status(top, SLH), ctrl::STATUS_BUSY, "SLH-DSA keeps running");
    start(top, SLH, sreg::OP_ABORT, 0);
    assert_eq!(status(top, SLH), refused, "abort");
    assert!(top.pop_output().is_none());
    mldsa_keygen_is_right(top);
}
