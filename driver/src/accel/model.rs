//! A behavioural model of the PL for the host tests: the three control
//! blocks (computing with `pqc`'s software) as stream endpoints of the
//! shared host models ([`crate::host`]: the AXI DMA with fault injection,
//! the DDR, the cache), all behind the driver's traits in safe code. It is
//! also the worked example of the module docs' memory recipe.
//!
//! Built for the driver's tests and, with the `host-model` feature, for
//! other crates' tests (ps-app runs its engine rows over it). Never in
//! firmware.

use super::{Control, DmaPort, HwKeccak, HwMlDsa, HwRing, HwSlhDsa};
use crate::bus::RegisterBus;
use crate::dma::{AxiDma, OffsetMap};
use crate::host::{
    AxiDmaModel, Beat, CacheModel, Ddr, DmaDevice, DmaFault, FaultyDma, SharedDdr, StreamEndpoint,
};
use pqc::keccak::{KeccakBackend, SoftKeccak, SpongeMode};
use pqc::ring::{self, Poly, N, Q};
use ps_pl_contract::dma::{
    KECCAK_BUFFER_BYTES, LENGTH_WIDTH_BITS, MLDSA_MAX_STREAM_BYTES, NTT_BUFFER_BYTES,
    SLHDSA_MAX_STREAM_BYTES,
};
use ps_pl_contract::regmap::{ctrl, keccak as kreg, mldsa as mreg, ntt as nreg, slhdsa as sreg};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::vec::Vec;

/// Which core (and its DMA).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The NTT core.
    Ntt,
    /// The Keccak engine.
    Keccak,
    /// The ML-DSA engine.
    MlDsa,
    /// The SLH-DSA engine.
    SlhDsa,
}

/// Injected misbehaviour, from job number `from_job` of that core on (or for
/// that job only, see [`Pl::inject_once`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Neither the core nor its DMA ever completes.
    Hang,
    /// The DMA reports DMASlvErr on the channel it starts.
    SlaveError,
    /// The ID register reads 0 (no core).
    WrongId,
    /// VERSION reads major 2.
    WrongVersion,
    /// Every job ends with STATUS_ERROR.
    StatusError,
    /// NTT: a STORE returns q in word 5. Keccak and ML-DSA: the output
    /// stream is one word short.
    BadOutput,
    /// ML-DSA sign: `TLAST` on the word before the last (the final word
    /// follows it).
    EarlyLast,
    /// ML-DSA sign: the pad bytes of σ's final word are not zero (a set
    /// whose σ does not end on a whole word).
    NonZeroPad,
    /// ML-DSA keygen and sign: one bit of an output word flips on its way
    /// to DDR, after the engine computed the check word.
    CorruptWord,
}

struct Core {
    which: Which,
    args: [u32; 3],
    status: u32,
    cycles: u32,
    /// `RESULT` (ML-DSA: the attempts of the last signature).
    result: u32,
    /// `CONFIG`.
    config: u32,
    job: Option<u32>,
    input: Vec<u32>,
    output: VecDeque<Beat>,
    slots: [Poly; nreg::SLOTS as usize],
    jobs_started: u64,
    /// The fault, its first job, and its last job (`None`: for good).
    fault: Option<(Fault, u64, Option<u64>)>,
    /// Control-register accesses (reads and writes).
    ctrl_accesses: u64,
    /// DMA-register accesses.
    dma_accesses: u64,
}

/// A core with its DMA engine.
struct Unit {
    core: Core,
    dma: FaultyDma,
}

/// The simulated PL and DDR.
pub struct Pl {
    ddr: SharedDdr,
    ntt: Unit,
    keccak: Unit,
    mldsa: Unit,
    slhdsa: Unit,
}

/// The model's shared handle.
pub type SharedPl = Rc<RefCell<Pl>>;

impl Pl {
    /// A PL with the three units, no fault injected, and its DDR model.
    pub fn new() -> SharedPl {
        let ddr = Ddr::shared();
        let unit = |which| Unit {
            core: Core {
                which,
                args: [0; 3],
                status: 0,
                cycles: 0,
                result: 0,
                config: match which {
                    Which::MlDsa => mreg::CONFIG_KEYGEN | mreg::CONFIG_SIGN | mreg::CONFIG_VERIFY,
                    Which::SlhDsa => sreg::ENGINES_CONFIG,
                    Which::Ntt | Which::Keccak => 4,
                },
                job: None,
                input: Vec::new(),
                output: VecDeque::new(),
                slots: [[0; N]; nreg::SLOTS as usize],
                jobs_started: 0,
                fault: None,
                ctrl_accesses: 0,
                dma_accesses: 0,
            },
            dma: FaultyDma::new(AxiDmaModel::new(ddr.clone(), LENGTH_WIDTH_BITS)),
        };
        Rc::new(RefCell::new(Pl {
            ntt: unit(Which::Ntt),
            keccak: unit(Which::Keccak),
            mldsa: unit(Which::MlDsa),
            slhdsa: unit(Which::SlhDsa),
            ddr,
        }))
    }

    fn unit(&mut self, which: Which) -> &mut Unit {
        match which {
            Which::Ntt => &mut self.ntt,
            Which::Keccak => &mut self.keccak,
            Which::MlDsa => &mut self.mldsa,
            Which::SlhDsa => &mut self.slhdsa,
        }
    }

    fn core(&mut self, which: Which) -> &mut Core {
        &mut self.unit(which).core
    }

    /// Injects `fault` into `which` from its job number `from_job` (0 = at
    /// once). A slave error is raised by the DMA's fault wrapper while the
    /// core's fault is active.
    pub fn inject(&mut self, which: Which, fault: Fault, from_job: u64) {
        self.core(which).fault = Some((fault, from_job, None));
    }

    /// Injects `fault` into job number `job` of `which` only: a transient
    /// failure the driver must recover from.
    pub fn inject_once(&mut self, which: Which, fault: Fault, job: u64) {
        self.core(which).fault = Some((fault, job, Some(job)));
    }

    /// Sets `which`'s `CONFIG` (e.g. an ML-DSA engine built without a
    /// sequencer).
    pub fn set_config(&mut self, which: Which, config: u32) {
        self.core(which).config = config;
    }

    /// (control, DMA) register accesses of `which` so far.
    pub fn accesses(&mut self, which: Which) -> (u64, u64) {
        let c = self.core(which);
        (c.ctrl_accesses, c.dma_accesses)
    }

    /// Services `which`'s DMA: moves stream data between the core and DDR.
    fn service(&mut self, which: Which) {
        let Unit { core, dma } = self.unit(which);
        dma.service(core);
    }
}

impl StreamEndpoint for Core {
    fn push_input(&mut self, beats: &[Beat]) {
        if self.active_fault() == Some(Fault::Hang) {
            return; // never taken: MM2S never completes
        }
        self.input.extend(beats.iter().map(|b| b.data));
        self.step();
    }
    fn input_drained(&self) -> bool {
        self.active_fault() != Some(Fault::Hang)
    }
    fn drop_input(&mut self) {}
    fn pop_output(&mut self) -> Option<Beat> {
        if self.active_fault() == Some(Fault::Hang) {
            return None;
        }
        self.output.pop_front()
    }
    fn drop_output(&mut self) {
        self.output.clear();
    }
    fn set_output_ready(&mut self, _ready: bool) {}
}

/// ML-DSA keygen and sign output: `words`, then the engine's check word
/// (`output_check`); with [`Fault::CorruptWord`] a bit of word 7 flips
/// after the check was taken.
fn with_check(words: &mut Vec<u32>, fault: Option<Fault>) {
    words.push(mreg::output_check(words.iter().copied()));
    if fault == Some(Fault::CorruptWord) {
        words[7] ^= 1 << 12;
    }
}

/// The beats of `words`, TLAST on the final one.
fn beats(words: &[u32]) -> VecDeque<Beat> {
    words
        .iter()
        .enumerate()
        .map(|(i, &data)| Beat {
            data,
            last: i + 1 == words.len(),
        })
        .collect()
}

impl Core {
    fn active_fault(&self) -> Option<Fault> {
        match self.fault {
            Some((f, from, until))
                if self.jobs_started > from && until.is_none_or(|u| self.jobs_started <= u + 1) =>
            {
                Some(f)
            }
            _ => None,
        }
    }

    fn finish(&mut self, error: bool, cycles: u32) {
        self.job = None;
        self.cycles = cycles;
        let error = error || self.active_fault() == Some(Fault::StatusError);
        self.status = ctrl::STATUS_DONE | if error { ctrl::STATUS_ERROR } else { 0 };
    }

    /// Runs the pending job if its input has arrived.
    fn step(&mut self) {
        let Some(op) = self.job else { return };
        if self.active_fault() == Some(Fault::Hang) {
            return;
        }
        match self.which {
            Which::Ntt => self.step_ntt(op),
            Which::Keccak => self.step_keccak(op),
            Which::MlDsa => self.step_mldsa(op),
            Which::SlhDsa => self.step_slhdsa(op),
        }
    }

    fn step_ntt(&mut self, op: u32) {
        let [a0, a1, a2] = self.args.map(|a| a as usize);
        let slots = nreg::SLOTS as usize;
        if a0 >= slots
            || (matches!(op, nreg::OP_PWM | nreg::OP_PWMAC) && (a1 >= slots || a2 >= slots))
        {
            return self.finish(true, 1);
        }
        match op {
            nreg::OP_LOAD => {
                if self.input.len() < N {
                    return;
                }
                let words: Vec<u32> = self.input.drain(..N).collect();
                let bad = words.iter().any(|&w| w >= Q as u32);
                if !bad {
                    self.slots[a0] = core::array::from_fn(|i| words[i] as i32);
                }
                self.finish(bad, N as u32 + 4)
            }
            nreg::OP_STORE => {
                let mut words: Vec<u32> = self.slots[a0].iter().map(|&c| c as u32).collect();
                if self.active_fault() == Some(Fault::BadOutput) {
                    words[5] = Q as u32;
                }
                self.output = beats(&words);
                self.finish(false, N as u32 + 4)
            }
            nreg::OP_NTT => {
                ring::ntt(&mut self.slots[a0]);
                self.finish(false, 1100)
            }
            nreg::OP_INTT => {
                ring::intt(&mut self.slots[a0]);
                self.finish(false, 1100)
            }
            nreg::OP_PWM => {
                let (a, b) = (self.slots[a1], self.slots[a2]);
                ring::pointwise_mul(&a, &b, &mut self.slots[a0]);
                self.finish(false, 70)
            }
            nreg::OP_PWMAC => {
                let (a, b) = (self.slots[a1], self.slots[a2]);
                ring::pointwise_mul_acc(&mut self.slots[a0], &a, &b);
                self.finish(false, 70)
            }
            _ => self.finish(true, 1),
        }
    }

    fn step_mldsa(&mut self, op: u32) {
        use pqc::mldsa::ParameterSet::*;
        match op {
            mreg::OP_VERIFY => return self.step_mldsa_verify(),
            mreg::OP_SIGN => return self.step_mldsa_sign(),
            _ => {}
        }
        let set = match (op, self.args[0]) {
            (mreg::OP_KEYGEN, mreg::SET_44) => MlDsa44,
            (mreg::OP_KEYGEN, mreg::SET_65) => MlDsa65,
            (mreg::OP_KEYGEN, mreg::SET_87) => MlDsa87,
            _ => return self.finish(true, 1),
        };
        if self.input.len() < mreg::KEYGEN_INPUT_WORDS {
            return;
        }
        let xi: Vec<u8> = self
            .input
            .drain(..mreg::KEYGEN_INPUT_WORDS)
            .flat_map(u32::to_le_bytes)
            .collect();
        let mut keys = vec![0u8; set.public_key_len() + set.secret_key_len()];
        let (pk, sk) = keys.split_at_mut(set.public_key_len());
        pqc::mldsa::keygen_internal(set, &xi.try_into().unwrap(), pk, sk).unwrap();
        let mut words: Vec<u32> = keys
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        with_check(&mut words, self.active_fault());
        if self.active_fault() == Some(Fault::BadOutput) {
            words.pop();
        }
        self.output = beats(&words);
        self.finish(false, 27_000)
    }

    /// `OP_VERIFY` once the whole stream (pk ‖ σ ‖ M′ or μ) is in: the
    /// verdict word from `pqc`.
    fn step_mldsa_verify(&mut self) {
        use pqc::mldsa::ParameterSet::*;
        let external = self.args[0] & mreg::VERIFY_EXTERNAL_MU != 0;
        let set = match self.args[0] & !mreg::VERIFY_EXTERNAL_MU {
            mreg::SET_44 => MlDsa44,
            mreg::SET_65 => MlDsa65,
            mreg::SET_87 => MlDsa87,
            _ => return self.finish(true, 1),
        };
        let tail_len = if external { 64 } else { self.args[1] as usize };
        if tail_len >= mreg::VERIFY_MAX_MSG_BYTES as usize {
            return self.finish(true, 1);
        }
        let (pk_len, sig_len) = (set.public_key_len(), set.signature_len());
        let words = mreg::verify_stream_words(pk_len, sig_len, tail_len);
        if self.input.len() < words {
            return;
        }
        let bytes: Vec<u8> = self
            .input
            .drain(..words)
            .flat_map(u32::to_le_bytes)
            .collect();
        let pk = &bytes[..pk_len];
        let sig = &bytes[pk_len..pk_len + sig_len];
        let tail_at = pk_len.next_multiple_of(4) + sig_len.next_multiple_of(4);
        let tail = &bytes[tail_at..tail_at + tail_len];
        let valid = if external {
            pqc::mldsa::verify_mu(set, pk, tail.try_into().unwrap(), sig).is_ok()
        } else {
            pqc::mldsa::verify_internal(set, pk, tail, sig).is_ok()
        };
        let mut word = if valid {
            mreg::VERDICT_VALID
        } else {
            mreg::VERDICT_INVALID
        };
        if self.active_fault() == Some(Fault::BadOutput) {
            word ^= 1;
        }
        self.output = beats(&[word]);
        self.finish(false, 30_000)
    }

    /// `OP_SIGN` once the whole stream (sk ‖ rnd ‖ M′ or μ) is in: σ and
    /// the attempts from `pqc`; an sk `pqc` refuses ends with
    /// `STATUS_ERROR` and no output, as on the engine.
    fn step_mldsa_sign(&mut self) {
        use pqc::mldsa::ParameterSet::*;
        let external = self.args[0] & mreg::SIGN_EXTERNAL_MU != 0;
        let set = match self.args[0] & !mreg::SIGN_EXTERNAL_MU {
            mreg::SET_44 => MlDsa44,
            mreg::SET_65 => MlDsa65,
            mreg::SET_87 => MlDsa87,
            _ => return self.finish(true, 1),
        };
        let tail_len = if external { 64 } else { self.args[1] as usize };
        if tail_len >= mreg::VERIFY_MAX_MSG_BYTES as usize {
            return self.finish(true, 1);
        }
        let sk_len = set.secret_key_len();
        let words = mreg::sign_stream_words(sk_len, tail_len);
        if self.input.len() < words {
            return;
        }
        let bytes: Vec<u8> = self
            .input
            .drain(..words)
            .flat_map(u32::to_le_bytes)
            .collect();
        let sk = &bytes[..sk_len];
        let rnd_at = sk_len.next_multiple_of(4);
        let tail_at = rnd_at + 4 * mreg::SIGN_RND_WORDS;
        let rnd: [u8; 32] = bytes[rnd_at..tail_at].try_into().unwrap();
        let tail = &bytes[tail_at..tail_at + tail_len];
        let mut mu = [0u8; 64];
        if external {
            mu.copy_from_slice(tail);
        } else {
            pqc::mldsa::sample::h(&mut SoftKeccak, &[&sk[64..128], tail], &mut mu);
        }
        let mut sig = vec![0u8; set.signature_len()];
        let signed = pqc::mldsa::sign_mu_counting(set, sk, &mu, &rnd, &mut sig);
        let Ok(attempts) = signed else {
            return self.finish(true, 30_000);
        };
        if self.active_fault() == Some(Fault::StatusError) {
            // A refusal sends no σ.
            return self.finish(true, 30_000);
        }
        let sig_len = sig.len();
        sig.resize(sig_len.next_multiple_of(4), 0);
        if self.active_fault() == Some(Fault::NonZeroPad) && sig.len() > sig_len {
            *sig.last_mut().unwrap() = 0x5A;
        }
        let mut words: Vec<u32> = sig
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        with_check(&mut words, self.active_fault());
        if self.active_fault() == Some(Fault::BadOutput) {
            words.pop();
        }
        self.output = beats(&words);
        if self.active_fault() == Some(Fault::EarlyLast) {
            let n = self.output.len();
            self.output[n - 2].last = true;
            self.output[n - 1].last = false;
        }
        self.result = attempts as u32;
        self.finish(false, 40_000 * attempts as u32)
    }

    /// An SLH-DSA request once its whole stream is in: PK.root, SIG_FORS ‖
    /// SIG_HT with the verdict word, or the verdict word, from `pqc`
    /// (`OnBackend`); a set its CONFIG does not offer (`sreg::set_name`),
    /// an unknown operation, or a verification stream
    /// of the wrong length, ends with `STATUS_ERROR` and no output, as on
    /// the engine. With [`Fault::BadOutput`] the output is one word short.
    fn step_slhdsa(&mut self, op: u32) {
        use pqc::slhdsa::{params, MessageDigest, OnBackend, SlhDsaOperations};
        let Some(p) = sreg::set_name(self.args[0], self.config).and_then(params::by_name) else {
            return self.finish(true, 1);
        };
        let n = p.n;
        let words = match op {
            sreg::OP_KEYGEN => sreg::KEYGEN_INPUT_WORDS,
            sreg::OP_SIGN => sreg::SIGN_INPUT_WORDS,
            sreg::OP_VERIFY => sreg::verify_stream_words(n, p.sig_bytes()),
            _ => return self.finish(true, 1),
        };
        if self.input.len() < words {
            return;
        }
        let bytes: Vec<u8> = self.input.drain(..).flat_map(u32::to_le_bytes).collect();
        if op == sreg::OP_VERIFY && bytes.len() != 4 * words {
            return self.finish(true, 1);
        }
        let value = |i: usize| &bytes[32 * i..32 * i + n];
        let skip = usize::from(op == sreg::OP_VERIFY);
        // md (padded to 40 bytes) and the indices after the values.
        let digest = || {
            let at = 32 * (3 - skip);
            let idx_tree = u64::from_le_bytes(bytes[at + 40..at + 48].try_into().unwrap());
            let idx_leaf = u32::from_le_bytes(bytes[at + 48..at + 52].try_into().unwrap());
            MessageDigest::from_parts(p, &bytes[at..at + 40], idx_tree, idx_leaf)
        };
        let mut keccak = SoftKeccak;
        let mut ops = OnBackend(&mut keccak);
        let mut out = vec![];
        match op {
            sreg::OP_KEYGEN => {
                out = vec![0; n];
                ops.pk_root(p, value(0), value(1), &mut out);
            }
            sreg::OP_SIGN => {
                out = vec![0; p.sig_bytes() - n];
                ops.sign_digest(p, value(0), value(1), value(2), &digest(), &mut out);
                out.extend(sreg::VERDICT_VALID.to_le_bytes());
            }
            _ => {
                let body = &bytes[4 * sreg::VERIFY_HEADER_WORDS..];
                let valid = ops.verify_digest(p, value(0), value(1), &digest(), body);
                let word = if valid {
                    sreg::VERDICT_VALID
                } else {
                    sreg::VERDICT_INVALID
                };
                out.extend(word.to_le_bytes());
            }
        }
        let mut words: Vec<u32> = out
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        if self.active_fault() == Some(Fault::BadOutput) {
            words.pop();
        }
        self.output = beats(&words);
        self.finish(false, 100_000)
    }

    fn step_keccak(&mut self, op: u32) {
        let [a0, a1, a2] = self.args;
        let bytes = |words: &[u32], len: usize| -> Vec<u8> {
            let mut b: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            b.truncate(len);
            b
        };
        let emit = |core: &mut Core, mut out: Vec<u8>, cycles: u32| {
            out.resize(out.len().next_multiple_of(4), 0);
            let mut words: Vec<u32> = out
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                .collect();
            if core.active_fault() == Some(Fault::BadOutput) {
                words.pop();
            }
            core.output = beats(&words);
            core.finish(false, cycles);
        };
        match op {
            kreg::OP_SPONGE => {
                if a0 > 3 || a2 == 0 {
                    return self.finish(true, 1);
                }
                let words = (a1 as usize).div_ceil(4);
                if self.input.len() < words {
                    return;
                }
                let msg: Vec<u32> = self.input.drain(..words).collect();
                let msg = bytes(&msg, a1 as usize);
                let mut out = vec![0u8; a2 as usize];
                SoftKeccak.sponge(SpongeMode::ALL[a0 as usize], &[&msg], &mut out);
                let blocks = msg.len() / 136 + out.len() / 136 + 1;
                emit(self, out, 25 * blocks as u32)
            }
            kreg::OP_WOTS_CHAIN => {
                let n = a0 as usize;
                if !matches!(n, 16 | 24 | 32) || a1.checked_add(a2).is_none() {
                    return self.finish(true, 1);
                }
                let words = (2 * n + 32) / 4;
                if self.input.len() < words {
                    return;
                }
                let w: Vec<u32> = self.input.drain(..words).collect();
                let data = bytes(&w, 2 * n + 32);
                let adrs: [u8; 32] = data[n..n + 32].try_into().unwrap();
                let mut out = vec![0u8; n];
                pqc::slhdsa::shake_wots_chain(
                    &mut SoftKeccak,
                    &data[..n],
                    &adrs,
                    &data[n + 32..],
                    a1,
                    a2,
                    &mut out,
                );
                emit(self, out, 25 * a2)
            }
            _ => self.finish(true, 1),
        }
    }
}

/// A control block of the model.
pub struct CtrlBus {
    /// The model.
    pub pl: SharedPl,
    /// Whose control block.
    pub which: Which,
}

impl RegisterBus for CtrlBus {
    fn read32(&mut self, offset: usize) -> u32 {
        let mut pl = self.pl.borrow_mut();
        let core = pl.core(self.which);
        core.ctrl_accesses += 1;
        let id = match self.which {
            Which::Ntt => nreg::ID,
            Which::Keccak => kreg::ID,
            Which::MlDsa => mreg::ID,
            Which::SlhDsa => sreg::ID,
        };
        match offset {
            ctrl::ID if core.fault.map(|f| f.0) == Some(Fault::WrongId) => 0,
            ctrl::ID => id,
            ctrl::VERSION if core.fault.map(|f| f.0) == Some(Fault::WrongVersion) => 2 << 16,
            ctrl::VERSION => ctrl::VERSION_VALUE,
            ctrl::CONFIG => core.config,
            ctrl::STATUS => core.status,
            ctrl::CYCLES => core.cycles,
            ctrl::RESULT => core.result,
            _ => 0,
        }
    }

    fn write32(&mut self, offset: usize, value: u32) {
        let mut pl = self.pl.borrow_mut();
        let core = pl.core(self.which);
        core.ctrl_accesses += 1;
        match offset {
            ctrl::ARG0 | ctrl::ARG1 | ctrl::ARG2 => core.args[(offset - ctrl::ARG0) / 4] = value,
            ctrl::COMMAND if value & ctrl::COMMAND_START != 0 => {
                let op = value & ctrl::COMMAND_OP_MASK;
                if op == kreg::OP_ABORT || op == nreg::OP_ABORT || op == mreg::OP_ABORT {
                    core.input.clear();
                    core.output.clear();
                    core.finish(true, 0);
                    return;
                }
                if core.job.is_some() {
                    return; // busy: start ignored
                }
                core.jobs_started += 1;
                core.job = Some(op);
                core.status = ctrl::STATUS_BUSY;
                core.step();
                pl.service(self.which);
            }
            _ => {}
        }
    }
}

/// A DMA engine of the model.
pub struct DmaBus {
    /// The model.
    pub pl: SharedPl,
    /// Whose DMA engine.
    pub which: Which,
}

impl RegisterBus for DmaBus {
    fn read32(&mut self, offset: usize) -> u32 {
        let mut pl = self.pl.borrow_mut();
        let Unit { core, dma } = pl.unit(self.which);
        core.dma_accesses += 1;
        dma.service(core);
        dma.read(offset)
    }

    fn write32(&mut self, offset: usize, value: u32) {
        let mut pl = self.pl.borrow_mut();
        let Unit { core, dma } = pl.unit(self.which);
        core.dma_accesses += 1;
        let slave_error = core.active_fault() == Some(Fault::SlaveError);
        dma.set_now(slave_error.then_some(DmaFault::SlaveError(None)));
        dma.write(offset, value, core);
        dma.service(core);
    }
}

/// The types of a model-backed port.
pub type ModelPort<'a> = DmaPort<'a, DmaBus, CacheModel, OffsetMap>;
/// [`HwRing`] on the model.
pub type ModelRing<'a> = HwRing<'a, CtrlBus, DmaBus, CacheModel, OffsetMap>;
/// [`HwKeccak`] on the model.
pub type ModelKeccak<'a> = HwKeccak<'a, CtrlBus, DmaBus, CacheModel, OffsetMap>;
/// [`HwMlDsa`] on the model.
pub type ModelMlDsa<'a> = HwMlDsa<'a, CtrlBus, DmaBus, CacheModel, OffsetMap>;
/// [`HwSlhDsa`] on the model.
pub type ModelSlhDsa<'a> = HwSlhDsa<'a, CtrlBus, DmaBus, CacheModel, OffsetMap>;

/// Poll budget of the model backends (the model answers at once, so a
/// small budget keeps the hang tests fast).
pub const POLL_LIMIT: u32 = 50;

/// A port for `which` whose buffers are `src_len` and `dst_len` bytes of `arena`.
pub fn port<'a>(
    pl: &SharedPl,
    which: Which,
    arena: &'a mut [u8],
    src_len: usize,
    dst_len: usize,
) -> ModelPort<'a> {
    let base = match which {
        Which::Ntt => 0x1000_0000,
        Which::Keccak => 0x2000_0000,
        Which::MlDsa => 0x2800_0000,
        Which::SlhDsa => 0x2C00_0000,
    };
    let map = OffsetMap::new(arena.as_ptr() as usize, arena.len(), base);
    pl.borrow().ddr.borrow_mut().add_region(base, arena.len());
    let usable = arena.len() - crate::cache::LINE_BYTES;
    let aligned = super::line_aligned(arena, usable).expect("arena too small");
    let (dst, rest) = aligned.split_at_mut(dst_len);
    let src = &mut rest[..src_len];
    assemble(pl, which, map, src, dst).expect("model buffers")
}

/// A port over caller-chosen buffers, with an address map that reaches
/// everything (`reach = true`) or nothing: for the buffer checks.
pub fn try_port<'a>(
    pl: &SharedPl,
    which: Which,
    reach: bool,
    src: &'a mut [u8],
    dst: &'a mut [u8],
) -> Result<ModelPort<'a>, crate::dma::DmaError> {
    let (lo, hi) = [&*src, &*dst].iter().fold((usize::MAX, 0), |(lo, hi), b| {
        let start = b.as_ptr() as usize;
        (lo.min(start), hi.max(start + b.len()))
    });
    let map = OffsetMap::new(lo, if reach { hi - lo } else { 0 }, 0x3000_0000);
    assemble(pl, which, map, src, dst)
}

/// The DMA engine of `which` with the model's cache over `map`, as a port
/// over `src` and `dst`.
fn assemble<'a>(
    pl: &SharedPl,
    which: Which,
    map: OffsetMap,
    src: &'a mut [u8],
    dst: &'a mut [u8],
) -> Result<ModelPort<'a>, crate::dma::DmaError> {
    let engine = AxiDma::new(
        DmaBus {
            pl: pl.clone(),
            which,
        },
        LENGTH_WIDTH_BITS,
        POLL_LIMIT,
    );
    let cache = CacheModel::new(pl.borrow().ddr.clone(), map);
    DmaPort::new(engine, cache, map, src, dst)
}

/// A control client for `which`.
pub fn control(pl: &SharedPl, which: Which) -> Control<CtrlBus> {
    Control::new(
        CtrlBus {
            pl: pl.clone(),
            which,
        },
        POLL_LIMIT,
    )
}

/// [`HwRing`] over the model with the contract's buffers (one polynomial).
pub fn ring<'a>(pl: &SharedPl, arena: &'a mut [u8]) -> ModelRing<'a> {
    HwRing::new(
        control(pl, Which::Ntt),
        port(pl, Which::Ntt, arena, NTT_BUFFER_BYTES, NTT_BUFFER_BYTES),
    )
}

/// [`HwKeccak`] over the model with the contract's buffers.
pub fn keccak<'a>(pl: &SharedPl, arena: &'a mut [u8]) -> ModelKeccak<'a> {
    HwKeccak::new(
        control(pl, Which::Keccak),
        port(
            pl,
            Which::Keccak,
            arena,
            KECCAK_BUFFER_BYTES,
            KECCAK_BUFFER_BYTES,
        ),
    )
}

/// [`HwMlDsa`] over the model with room for the largest stream.
pub fn mldsa<'a>(pl: &SharedPl, arena: &'a mut [u8]) -> ModelMlDsa<'a> {
    let bytes = MLDSA_MAX_STREAM_BYTES.next_multiple_of(crate::cache::LINE_BYTES);
    HwMlDsa::new(
        control(pl, Which::MlDsa),
        port(pl, Which::MlDsa, arena, bytes, bytes),
    )
}

/// [`HwSlhDsa`] over the model with room for the largest stream.
pub fn slhdsa<'a>(pl: &SharedPl, arena: &'a mut [u8]) -> ModelSlhDsa<'a> {
    let bytes = SLHDSA_MAX_STREAM_BYTES.next_multiple_of(crate::cache::LINE_BYTES);
    HwSlhDsa::new(
        control(pl, Which::SlhDsa),
        port(pl, Which::SlhDsa, arena, bytes, bytes),
    )
}
