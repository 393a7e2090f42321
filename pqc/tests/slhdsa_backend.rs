//! The SLH-DSA-SHAKE units of work on `HashEngine` as a hardware backend
//! sees them: an engine that overrides every unit with an independent
//! composition of plain SHAKE256 calls (what a PL engine must compute) gives
//! the same keys and signatures as the software defaults, and the number of
//! unit calls per operation (bus transactions for a PL engine) is reported.

use pqc::keccak::{KeccakBackend, SoftKeccak, SpongeMode};
use pqc::slhdsa::address::Adrs;
use pqc::slhdsa::{self, params, shake_wots_chain, HashEngine, Params, SlhBackend};

fn shake256(parts: &[&[u8]], out: &mut [u8]) {
    SoftKeccak.sponge(SpongeMode::Shake256, parts, out);
}

fn set_word(adrs: &mut [u8; 32], offset: usize, value: u32) {
    adrs[offset..offset + 4].copy_from_slice(&value.to_be_bytes());
}

/// Type word, cleared type-dependent words (FIPS 205 setTypeAndClear).
fn set_type_and_clear(adrs: &mut [u8; 32], t: u32) {
    set_word(adrs, 16, t);
    adrs[20..].fill(0);
}

/// Calls per unit.
#[derive(Default)]
struct Counts {
    chain: u64,
    thash: u64,
    tree_level: u64,
    wots_pk: u64,
    fors_leaves: u64,
    fors_leaf_count: u64,
}

/// A backend whose hash engine overrides every unit; counts calls per unit.
#[derive(Default)]
struct ModelBackend {
    counts: Counts,
}

/// The engine of one key: every unit an independent composition of plain
/// SHAKE256 calls.
struct ModelEngine<'a> {
    counts: &'a mut Counts,
    pk_seed: Vec<u8>,
    sk_seed: Vec<u8>,
}

impl SlhBackend for ModelBackend {
    type ShakeHashes<'a> = ModelEngine<'a>;
    fn shake_hashes<'a>(&'a mut self, pk_seed: &[u8], sk_seed: &[u8]) -> ModelEngine<'a> {
        ModelEngine {
            counts: &mut self.counts,
            pk_seed: pk_seed.to_vec(),
            sk_seed: sk_seed.to_vec(),
        }
    }
}

impl HashEngine for ModelEngine<'_> {
    fn n(&self) -> usize {
        self.pk_seed.len()
    }
    // PRF_msg and H_msg: once per signature, plain sponge.
    fn prf_msg(&mut self, sk_prf: &[u8], opt_rand: &[u8], msg: &[&[u8]], out: &mut [u8]) {
        let mut parts = vec![sk_prf, opt_rand];
        parts.extend_from_slice(msg);
        shake256(&parts, out);
    }
    fn h_msg(&mut self, r: &[u8], pk_root: &[u8], msg: &[&[u8]], out: &mut [u8]) {
        let mut parts = vec![r, &self.pk_seed[..], pk_root];
        parts.extend_from_slice(msg);
        shake256(&parts, out);
    }
    fn prf(&mut self, adrs: &Adrs, out: &mut [u8]) {
        self.counts.thash += 1;
        shake256(&[&self.pk_seed, &adrs.0, &self.sk_seed], out);
    }
    fn thash(&mut self, adrs: &Adrs, m1: &[u8], m2: &[u8], out: &mut [u8]) {
        self.counts.thash += 1;
        shake256(&[&self.pk_seed, &adrs.0, m1, m2], out);
    }
    fn chain(&mut self, adrs: &Adrs, x: &[u8], start: u32, steps: u32, out: &mut [u8]) {
        self.counts.chain += 1;
        shake_wots_chain(
            &mut SoftKeccak,
            &self.pk_seed,
            &adrs.0,
            x,
            start,
            steps,
            out,
        );
    }
    fn tree_level(&mut self, adrs: &Adrs, children: &[u8], out: &mut [u8]) {
        self.counts.tree_level += 1;
        let n = self.n();
        let adrs = adrs.0;
        let first = u32::from_be_bytes(adrs[28..32].try_into().unwrap());
        for (i, parent) in out.chunks_exact_mut(n).enumerate() {
            let mut a = adrs;
            set_word(&mut a, 28, first + i as u32);
            shake256(
                &[&self.pk_seed, &a, &children[2 * i * n..(2 * i + 2) * n]],
                parent,
            );
        }
    }
    fn wots_pk(&mut self, adrs: &Adrs, out: &mut [u8]) {
        self.counts.wots_pk += 1;
        let n = self.n();
        let len = 2 * n + 3;
        let adrs = adrs.0;
        let keypair: [u8; 4] = adrs[20..24].try_into().unwrap();
        let mut ends = vec![0u8; len * n];
        for i in 0..len {
            let mut sk_adrs = adrs;
            set_type_and_clear(&mut sk_adrs, 5); // WOTS_PRF
            sk_adrs[20..24].copy_from_slice(&keypair);
            set_word(&mut sk_adrs, 24, i as u32);
            let mut sk = vec![0u8; n];
            shake256(&[&self.pk_seed, &sk_adrs, &self.sk_seed], &mut sk);
            let mut chain_adrs = adrs;
            set_word(&mut chain_adrs, 24, i as u32);
            shake_wots_chain(
                &mut SoftKeccak,
                &self.pk_seed,
                &chain_adrs,
                &sk,
                0,
                15,
                &mut ends[i * n..(i + 1) * n],
            );
        }
        let mut pk_adrs = adrs;
        set_type_and_clear(&mut pk_adrs, 1); // WOTS_PK
        pk_adrs[20..24].copy_from_slice(&keypair);
        shake256(&[&self.pk_seed, &pk_adrs, &ends], out);
    }
    fn fors_leaves(&mut self, adrs: &Adrs, first: u32, out: &mut [u8]) {
        self.counts.fors_leaves += 1;
        let n = self.n();
        let adrs = adrs.0;
        let keypair: [u8; 4] = adrs[20..24].try_into().unwrap();
        for (i, leaf) in out.chunks_exact_mut(n).enumerate() {
            self.counts.fors_leaf_count += 1;
            let index = first + i as u32;
            let mut sk_adrs = adrs;
            set_type_and_clear(&mut sk_adrs, 6); // FORS_PRF
            sk_adrs[20..24].copy_from_slice(&keypair);
            set_word(&mut sk_adrs, 28, index);
            let mut sk = vec![0u8; n];
            shake256(&[&self.pk_seed, &sk_adrs, &self.sk_seed], &mut sk);
            let mut leaf_adrs = adrs;
            set_word(&mut leaf_adrs, 24, 0);
            set_word(&mut leaf_adrs, 28, index);
            shake256(&[&self.pk_seed, &leaf_adrs, &sk], leaf);
        }
    }
}

fn run(p: &Params) {
    let n = p.n;
    let seeds: Vec<u8> = (0..3 * n).map(|i| (i * 7 + 1) as u8).collect();
    let (sk_seed, rest) = seeds.split_at(n);
    let (sk_prf, pk_seed) = rest.split_at(n);
    let mut sk = vec![0u8; p.sk_bytes()];
    let mut pk = vec![0u8; p.pk_bytes()];
    slhdsa::slh_keygen_internal(p, sk_seed, sk_prf, pk_seed, &mut sk, &mut pk).unwrap();
    let mut model = ModelBackend::default();
    let (mut sk_m, mut pk_m) = (vec![0u8; p.sk_bytes()], vec![0u8; p.pk_bytes()]);
    slhdsa::slh_keygen_internal_with(
        &mut model, p, sk_seed, sk_prf, pk_seed, &mut sk_m, &mut pk_m,
    )
    .unwrap();
    assert_eq!((sk.clone(), pk.clone()), (sk_m, pk_m), "{} keygen", p.name);

    let mut sig = vec![0u8; p.sig_bytes()];
    slhdsa::slh_sign(p, &sk, b"units", b"ctx", Some(&seeds[..n]), &mut sig).unwrap();
    let mut model = ModelBackend::default();
    let mut sig_m = vec![0u8; p.sig_bytes()];
    slhdsa::slh_sign_with(
        &mut model,
        p,
        &sk,
        b"units",
        b"ctx",
        Some(&seeds[..n]),
        &mut sig_m,
    )
    .unwrap();
    assert_eq!(sig, sig_m, "{} sign", p.name);
    let model = model.counts;
    let sign_calls =
        model.chain + model.thash + model.tree_level + model.wots_pk + model.fors_leaves;
    // Structure of a signature, from the parameters.
    assert_eq!(
        model.wots_pk,
        (p.d << p.hp) as u64,
        "one wots_pk per XMSS leaf"
    );
    assert_eq!(
        model.chain,
        (p.d * p.wots_len()) as u64,
        "one chain per WOTS+ signature chain"
    );
    assert_eq!(
        model.fors_leaf_count,
        (p.k << p.a) as u64,
        "every FORS leaf once"
    );

    let mut model_v = ModelBackend::default();
    slhdsa::slh_verify_with(&mut model_v, p, &pk, b"units", b"ctx", &sig).unwrap();
    let model_v = model_v.counts;
    assert_eq!(model_v.chain, (p.d * p.wots_len()) as u64);
    let verify_calls =
        model_v.chain + model_v.thash + model_v.tree_level + model_v.wots_pk + model_v.fors_leaves;
    println!(
        "| {} | sign: {sign_calls} unit calls (wots_pk {}, chain {}, fors_leaves {} for {} leaves, tree_level {}, thash {}) | verify: {verify_calls} (chain {}, thash {}) |",
        p.name, model.wots_pk, model.chain, model.fors_leaves, model.fors_leaf_count, model.tree_level, model.thash, model_v.chain, model_v.thash
    );
}

#[test]
fn unit_overrides_reproduce_the_software_results_f_sets() {
    for p in [
        &params::SHAKE_128F,
        &params::SHAKE_192F,
        &params::SHAKE_256F,
    ] {
        run(p);
    }
}

#[test]
fn unit_overrides_reproduce_the_software_results_128s() {
    run(&params::SHAKE_128S);
}
