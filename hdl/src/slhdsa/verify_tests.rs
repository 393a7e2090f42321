//! The bench of the SLH-DSA engine (its `Job` rows and `Case`, the keys,
//! indices and signature the signing tests share), and the tests of its
//! verification: the verdict on signatures built from `pqc`'s primitives
//! (valid, and with a flipped bit in SIG_FORS, in SIG_HT, or a wrong
//! PK.root), on `pqc`'s signature of the ACVP SLH-DSA-SHAKE-128f sigGen
//! case and on the ACVP sigVer case that is invalid; the clock count
//! (which follows the public digits); truncated and too-long signatures,
//! refused requests, abort, the yosys check and the Verilator
//! cross-check of every operation, clock for clock.

use super::engine::{verify_clocks, SlhDsaEngine, OP_KEYGEN, OP_SIGN, OP_VERIFY};
use super::fors_reference::{digest_parts, fors_keys, md_words, reference as fors_reference};
use super::job_bench::{
    apply_common_inputs, common_outputs, words_of, Feed, Job, JobBench, KeyMaterial, Outcome,
    COMMON_INPUTS, OUTPUTS, START,
};
use super::wots_leaf::SPONGE_ROUNDS_PER_CLOCK;
use super::wots_leaf_tests::{wots_digits, wots_signature};
use super::xmss_tree_tests::reference as tree_reference;
use crate::keccak::select::{
    OnOutsideEngine, OnSharedSponge, OutsideSpongeJob, PortEngine, SpongePort,
};
use crate::ntt::sim::Lcg;
use crate::verilator::verilator_required;
use pqc::slhdsa::address::{AddressType, Adrs};
use pqc::slhdsa::{params, Params};
use rust_hdl::prelude::*;

/// Row indices of the engine's own inputs.
const FORS_HEIGHT: usize = 11;
const TREES: usize = 12;
const TREE_HEIGHT: usize = 13;
const LAYERS: usize = 14;
const IDX_TREE: usize = 15;
const IDX_LEAF: usize = 16;
const ROOT_WRITE: usize = 17;
const IN_DATA: usize = 20;
const OPERATION: usize = 23;
/// Output columns.
const VERDICT: usize = 6;
const IN_READY: usize = 7;

impl Job for SlhDsaEngine<SPONGE_ROUNDS_PER_CLOCK> {
    const ADDRESSED: bool = false;

    fn inputs() -> Vec<&'static str> {
        let mut names = COMMON_INPUTS.to_vec();
        names[4] = "md_write";
        names[5] = "md_index";
        names[6] = "md_word";
        names.extend([
            "fors_height",
            "trees",
            "tree_height",
            "layers",
            "idx_tree",
            "idx_leaf",
            "root_write",
            "root_index",
            "root_word",
            "in_data",
            "in_valid",
            "in_last",
            "operation",
        ]);
        names
    }

    fn output_names() -> Vec<&'static str> {
        let mut names = OUTPUTS.to_vec();
        names.extend(["verdict", "in_ready"]);
        names
    }

    fn apply(&mut self, v: &[u64]) {
        apply_common_inputs!(self, v, md_write, md_index, md_word);
        self.fors_height.next = v[11].into();
        self.trees.next = v[12].into();
        self.tree_height.next = v[13].into();
        self.layers.next = v[14].into();
        self.idx_tree.next = v[15].into();
        self.idx_leaf.next = v[16].into();
        self.root_write.next = v[17] != 0;
        self.root_index.next = v[18].into();
        self.root_word.next = v[19].into();
        self.in_data.next = v[20].into();
        self.in_valid.next = v[21] != 0;
        self.in_last.next = v[22] != 0;
        self.operation.next = v[23].into();
    }

    fn clock_input(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }

    fn outputs(&self) -> Vec<u64> {
        let mut values = common_outputs!(self);
        values.push(u64::from(self.verdict.val()));
        values.push(u64::from(self.in_ready.val()));
        values
    }
}

pub(super) type Bench = JobBench<SlhDsaEngine<SPONGE_ROUNDS_PER_CLOCK>>;

impl<const R: usize> OutsideSpongeJob for SlhDsaEngine<R> {
    fn on_outside_sponge() -> Self {
        Self::with_outside_sponge()
    }
    fn sponge_port(&mut self) -> &mut SpongePort {
        &mut self.sponge_port
    }
    fn job_clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
}

/// The engine on an outside sponge of the shared configuration.
pub(super) type SharedEngine =
    OnSharedSponge<SlhDsaEngine<SPONGE_ROUNDS_PER_CLOCK>, SPONGE_ROUNDS_PER_CLOCK>;

/// The engine on any engine behind its port: the rows of the engine's own.
impl<E: PortEngine> Job for OnOutsideEngine<SlhDsaEngine<SPONGE_ROUNDS_PER_CLOCK>, E> {
    const ADDRESSED: bool = false;
    fn inputs() -> Vec<&'static str> {
        SlhDsaEngine::<SPONGE_ROUNDS_PER_CLOCK>::inputs()
    }
    fn output_names() -> Vec<&'static str> {
        SlhDsaEngine::<SPONGE_ROUNDS_PER_CLOCK>::output_names()
    }
    fn apply(&mut self, v: &[u64]) {
        self.job.apply(v)
    }
    fn clock_input(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn outputs(&self) -> Vec<u64> {
        self.job.outputs()
    }
}

/// What the engine signs or verifies: the keys, the public inputs and the
/// signature's two parts.
pub(super) struct Case {
    pub n: usize,
    pub a: u32,
    pub k: usize,
    pub height: u32,
    pub layers: u32,
    pub pk_seed: Vec<u8>,
    /// SK.seed (zeros when built from a public key).
    pub sk_seed: Vec<u8>,
    pub pk_root: Vec<u8>,
    pub md: Vec<u8>,
    pub idx_tree: u64,
    pub idx_leaf: u32,
    /// SIG_FORS ‖ SIG_HT.
    pub signature: Vec<u8>,
    /// The WOTS+ digits of each layer's message (public).
    pub digits: Vec<Vec<u32>>,
}

impl Case {
    /// A signature built here for random keys, md and indices: SIG_FORS
    /// and PK_FORS from the FORS reference, then d layers of WOTS+
    /// signatures and AUTH paths from `pqc`'s primitives, each root the
    /// next layer's message.
    pub fn built(
        n: usize,
        (a, k): (u32, usize),
        (height, layers): (u32, u32),
        rng: &mut Lcg,
    ) -> Self {
        let keys = fors_keys(n, rng);
        let tree_bits = height * (layers - 1);
        let idx_tree = u64::from(rng.next_u32()) & ((1u64 << tree_bits) - 1);
        let idx_leaf = rng.next_u32() % (1 << height);
        let md: Vec<u8> = (0..(k * a as usize).div_ceil(8))
            .map(|_| rng.next_u32() as u8)
            .collect();
        let mut case = Self {
            n,
            a,
            k,
            height,
            layers,
            pk_seed: keys.pk_seed,
            sk_seed: keys.sk_seed,
            pk_root: vec![],
            md,
            idx_tree,
            idx_leaf,
            signature: vec![],
            digits: vec![],
        };
        case.sign_here();
        case
    }

    /// The same keys and indices with another md, signed here.
    pub fn with_md(&self, md: &[u8]) -> Self {
        let mut case = Self {
            md: md.to_vec(),
            pk_seed: self.pk_seed.clone(),
            sk_seed: self.sk_seed.clone(),
            pk_root: vec![],
            signature: vec![],
            digits: vec![],
            ..*self
        };
        case.sign_here();
        case
    }

    /// Sets the signature, the digits and PK.root from the keys, md and
    /// the indices.
    fn sign_here(&mut self) {
        let (n, a, k, height) = (self.n, self.a, self.k, self.height);
        let mut keys = KeyMaterial {
            n,
            pk_seed: self.pk_seed.clone(),
            sk_seed: self.sk_seed.clone(),
            adrs: Adrs::default(),
        };
        keys.adrs.set_tree(self.idx_tree);
        keys.adrs.set_keypair(self.idx_leaf);
        let fors = fors_reference(&keys, &self.md, a, k);
        let (sig_fors, pk_fors) = fors.split_at(fors.len() - n);
        let mut signature = sig_fors.to_vec();
        let mut msg = pk_fors.to_vec();
        let mut digits = vec![];
        let (mut tree, mut leaf) = (self.idx_tree, self.idx_leaf);
        for layer in 0..self.layers {
            let mut layer_keys = KeyMaterial {
                n,
                pk_seed: keys.pk_seed.clone(),
                sk_seed: keys.sk_seed.clone(),
                adrs: Adrs::default(),
            };
            layer_keys.adrs.set_layer(layer);
            layer_keys.adrs.set_tree(tree);
            layer_keys.adrs.set_type_and_clear(AddressType::WotsHash);
            layer_keys.adrs.set_keypair(leaf);
            signature.extend(wots_signature(&layer_keys, &msg));
            let auth_root = tree_reference(&layer_keys, height, leaf);
            signature.extend_from_slice(&auth_root[..height as usize * n]);
            digits.push(wots_digits(&msg));
            msg = auth_root[height as usize * n..].to_vec();
            leaf = (tree & ((1 << height) - 1)) as u32;
            tree >>= height;
        }
        self.signature = signature;
        self.digits = digits;
        self.pk_root = msg;
    }

    /// The verification inputs of SLH-DSA signature `sig` of M′ under
    /// `pk` for `p` (FIPS 205 Algorithm 20, lines 7–11 on the CPU).
    pub fn of_signature(p: &Params, pk: &[u8], sig: &[u8], m_prime: &[&[u8]]) -> Self {
        let n = p.n;
        // digest_parts takes SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root; H_msg
        // uses PK.seed and PK.root only.
        let sk_like = [&[0u8; 64][..2 * n], pk].concat();
        let (md, idx_tree, idx_leaf) = digest_parts(p, &sk_like, sig, m_prime);
        Self {
            n,
            a: p.a as u32,
            k: p.k,
            height: p.hp as u32,
            layers: p.d as u32,
            pk_seed: pk[..n].to_vec(),
            sk_seed: vec![0; n],
            pk_root: pk[n..].to_vec(),
            md,
            idx_tree,
            idx_leaf,
            signature: sig[n..].to_vec(),
            digits: vec![],
        }
    }

    /// Loads the public inputs and verifies `signature` (TLAST on its
    /// final word), with `abort_at` as for `JobBench::run`: the outcome and
    /// the verdict.
    fn run(&self, bench: &mut Bench, signature: &[u8], abort_at: Option<u64>) -> (Outcome, bool) {
        self.run_operation(bench, OP_VERIFY, signature, 1, abort_at)
    }

    /// Loads the seeds and the public inputs and runs `operation` with the
    /// input stream `signature` (TLAST on its final word; empty: none),
    /// the sink ready one clock in `ready_one_in`, and `abort_at` as for
    /// `JobBench::run`: the outcome and the verdict.
    pub fn run_operation<B: Job>(
        &self,
        bench: &mut JobBench<B>,
        operation: u64,
        signature: &[u8],
        ready_one_in: u32,
        abort_at: Option<u64>,
    ) -> (Outcome, bool) {
        bench.write_words(1, 0, words_of(&self.pk_seed));
        bench.write_words(1, 8, words_of(&self.sk_seed));
        bench.write_words(4, 0, md_words(&self.md));
        bench.write_words(ROOT_WRITE, 0, words_of(&self.pk_root));
        bench.set(FORS_HEIGHT, u64::from(self.a));
        bench.set(TREES, self.k as u64);
        bench.set(TREE_HEIGHT, u64::from(self.height));
        bench.set(LAYERS, u64::from(self.layers));
        bench.set(IDX_TREE, self.idx_tree);
        bench.set(IDX_LEAF, u64::from(self.idx_leaf));
        bench.set(OPERATION, operation);
        let words: Vec<u32> = words_of(signature).map(|w| w as u32).collect();
        let feed = Feed {
            last_at: words.len().checked_sub(1),
            words: &words,
            row: IN_DATA,
            ready_column: IN_READY,
            position: 0,
        };
        let outcome = bench.run_fed(START, self.n as u64, ready_one_in, abort_at, Some(feed));
        let verdict = bench.outputs()[VERDICT] != 0;
        (outcome, verdict)
    }

    /// A complete run: no error, the whole signature taken, the root out.
    fn check(&self, bench: &mut Bench, signature: &[u8]) -> (Outcome, bool) {
        let (outcome, verdict) = self.run(bench, signature, None);
        assert!(!outcome.error, "n = {}: error", self.n);
        assert_eq!(outcome.taken, signature.len() / 4, "every word taken");
        assert_eq!(outcome.last_at, Some(self.n / 4 - 1));
        (outcome, verdict)
    }
}

/// Valid signatures built here for every n verify, with the root out and
/// in the clocks of `verify_clocks`; a flipped bit in SIG_FORS or SIG_HT,
/// or another PK.root, gives a reject verdict (not an error).
#[test]
fn verify_accepts_valid_and_rejects_forged_signatures() {
    let mut bench = Bench::new(1);
    let mut rng = Lcg::new(2005);
    for (n, fors, ht) in [
        (16, (3, 4), (2, 2)),
        (24, (2, 3), (1, 3)),
        (32, (2, 2), (2, 1)),
    ] {
        let case = Case::built(n, fors, ht, &mut rng);
        let (outcome, verdict) = case.check(&mut bench, &case.signature);
        assert!(verdict, "n = {n}: valid signature rejected");
        assert_eq!(outcome.bytes(), case.pk_root, "n = {n}: root");
        let (a, k) = fors;
        assert_eq!(
            outcome.clocks,
            verify_clocks(n, a, k, ht.0, &case.digits),
            "n = {n}"
        );
        for flip in [5, case.signature.len() - 3] {
            let mut forged = case.signature.clone();
            forged[flip] ^= 0x08;
            let (outcome, verdict) = case.check(&mut bench, &forged);
            assert!(!verdict, "n = {n}: forged byte {flip} accepted");
            assert_ne!(outcome.bytes(), case.pk_root);
        }
        let mut other = case;
        other.pk_root[0] ^= 1;
        let (_, verdict) = other.check(&mut bench, &other.signature.clone());
        assert!(!verdict, "n = {n}: wrong PK.root accepted");
    }
}

/// `pqc`'s signature of the ACVP SLH-DSA-SHAKE-128f sigGen case (whose
/// SHA3-256 the FORS test checks) verifies; the ACVP sigVer case that is
/// invalid (tcId 96) is rejected. About 200,000 clocks each.
#[test]
fn verify_acvp_shake_128f_cases() {
    let p = &params::SHAKE_128F;
    let set = &pqc_selftest::vectors::SLH_DSA[0];
    assert_eq!(set.name, p.name);
    let sg = &set.siggen;
    let mut sig = vec![0; p.sig_bytes()];
    pqc::slhdsa::slh_sign(p, sg.sk, sg.message, sg.context, None, &mut sig).unwrap();
    let header = [0, sg.context.len() as u8];
    let pk = &sg.sk[2 * p.n..];
    let case = Case::of_signature(p, pk, &sig, &[&header, sg.context, sg.message]);
    let mut bench = Bench::new(2);
    let (outcome, verdict) = case.check(&mut bench, &case.signature);
    eprintln!(
        "verify, SHAKE-128f (ACVP sigGen): {} clocks",
        outcome.clocks
    );
    assert!(verdict, "the ACVP signature is rejected");

    // The invalid sigVer case is one byte short: its whole words are a
    // truncated stream, which the job ends with an error.
    let sv = &set.sigver_invalid;
    assert_eq!(sv.signature.len(), p.sig_bytes() - 1, "tcId {}", sv.tc_id);
    let header = [0, sv.context.len() as u8];
    let mut padded = sv.signature.to_vec();
    padded.push(0);
    let case = Case::of_signature(p, sv.pk, &padded, &[&header, sv.context, sv.message]);
    let whole_words = (sv.signature.len() - p.n) / 4 * 4;
    let (outcome, _) = case.run(&mut bench, &case.signature[..whole_words], None);
    assert!(
        outcome.error,
        "ACVP sigVer tcId {} (short) gave no error",
        sv.tc_id
    );
    assert_eq!(outcome.taken, whole_words / 4);
}

/// A truncated signature (TLAST early) and a too-long one (no TLAST on the
/// final word; drained up to its TLAST) end with an error, never a hang;
/// refused requests; abort; then a good verification.
#[test]
fn verify_bad_lengths_refusals_and_abort() {
    let mut bench = Bench::new(3);
    let mut rng = Lcg::new(3);
    let case = Case::built(16, (2, 2), (1, 2), &mut rng);
    let words = case.signature.len() / 4;
    for last in [0, 10, words - 2] {
        let (outcome, _) = case.run(&mut bench, &case.signature[..4 * (last + 1)], None);
        assert!(outcome.error, "truncated at word {last}");
        assert_eq!(outcome.taken, last + 1);
    }
    let mut long = case.signature.clone();
    long.extend([0xAB; 12]);
    let (outcome, _) = case.run(&mut bench, &long, None);
    assert!(outcome.error, "too long");
    assert_eq!(outcome.taken, words + 3, "drained to TLAST");

    let mut bad = Case::built(16, (2, 2), (1, 1), &mut rng);
    for (n, a, k, h, d) in [
        (20, 2, 2, 1, 1),
        (16, 0, 2, 1, 1),
        (16, 15, 2, 1, 1),
        (16, 2, 36, 1, 1),
        (16, 2, 2, 10, 1),
        (16, 2, 2, 1, 23),
    ] {
        bad.n = n;
        bad.a = a;
        bad.k = k;
        bad.height = h;
        bad.layers = d;
        let (outcome, _) = bad.run(&mut bench, &case.signature, None);
        assert!(
            outcome.error && outcome.clocks == 1,
            "n {n} a {a} k {k} h {h} d {d}"
        );
        assert_eq!(outcome.taken, 0);
    }
    for abort_at in [3, 500] {
        let (outcome, _) = case.run(&mut bench, &case.signature, Some(abort_at));
        assert!(
            outcome.error && outcome.clocks == abort_at + 1,
            "abort at {abort_at}"
        );
    }
    let (_, verdict) = case.check(&mut bench, &case.signature);
    assert!(verdict);
}

#[test]
fn verify_yosys_validates() {
    let mut uut = SlhDsaEngine::<SPONGE_ROUNDS_PER_CLOCK>::default();
    uut.connect_all();
    yosys_validate("slh_engine", &generate_verilog(&uut)).unwrap();
}

/// A valid and a forged signature, a truncated one and a refused request;
/// signing (with a stalling sink) and key generation; all recorded on the
/// rust-hdl model and replayed on the Verilated RTL.
#[test]
fn engine_rtl_equals_rust_hdl_clock_for_clock() {
    if !verilator_required("engine_rtl_equals_rust_hdl_clock_for_clock") {
        return;
    }
    let mut bench = Bench::new(4);
    let mut rng = Lcg::new(4);
    let case = Case::built(24, (2, 2), (1, 2), &mut rng);
    assert!(case.check(&mut bench, &case.signature).1);
    let mut forged = case.signature.clone();
    forged[40] ^= 1;
    assert!(!case.check(&mut bench, &forged).1);
    assert!(case.run(&mut bench, &case.signature[..64], None).0.error);
    let (signed, verdict) = case.run_operation(&mut bench, OP_SIGN, &[], 2, None);
    assert!(verdict && signed.bytes() == [&case.signature[..], &case.pk_root].concat());
    let (root, _) = case.run_operation(&mut bench, OP_KEYGEN, &[], 1, None);
    assert_eq!(root.bytes(), case.pk_root);
    bench.assert_rtl_matches("slh_engine");
}
