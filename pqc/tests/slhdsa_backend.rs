//! The SLH-DSA-SHAKE units of work on `KeccakBackend` as a hardware backend
//! sees them: a backend that overrides every unit with an independent
//! composition of plain SHAKE256 calls (what a PL engine must compute) gives
//! the same keys and signatures as the software defaults, and the number of
//! unit calls per operation (bus transactions for a PL engine) is reported.

use pqc::keccak::{KeccakBackend, SoftKeccak, SpongeMode};
use pqc::slhdsa::{self, params, shake_wots_chain, Params};

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

/// Overrides every unit; counts calls per unit.
#[derive(Default)]
struct ModelEngine {
    chain: u64,
    thash: u64,
    tree_level: u64,
    wots_pk: u64,
    fors_leaves: u64,
    fors_leaf_count: u64,
}

impl KeccakBackend for ModelEngine {
    fn permute(&mut self, _: &mut [u64; 25]) {
        panic!("a unit-level engine is never asked for single permutations");
    }
    fn sponge(&mut self, mode: SpongeMode, parts: &[&[u8]], out: &mut [u8]) {
        // PRF_msg and H_msg: once per signature, plain sponge.
        SoftKeccak.sponge(mode, parts, out)
    }
    fn slh_shake_chain(
        &mut self,
        pk_seed: &[u8],
        adrs: &[u8; 32],
        x: &[u8],
        start: u32,
        steps: u32,
        out: &mut [u8],
    ) {
        self.chain += 1;
        shake_wots_chain(&mut SoftKeccak, pk_seed, adrs, x, start, steps, out);
    }
    fn slh_shake_thash(
        &mut self,
        pk_seed: &[u8],
        adrs: &[u8; 32],
        m1: &[u8],
        m2: &[u8],
        out: &mut [u8],
    ) {
        self.thash += 1;
        shake256(&[pk_seed, adrs, m1, m2], out);
    }
    fn slh_shake_tree_level(
        &mut self,
        pk_seed: &[u8],
        adrs: &[u8; 32],
        children: &[u8],
        out: &mut [u8],
    ) {
        self.tree_level += 1;
        let n = pk_seed.len();
        let first = u32::from_be_bytes(adrs[28..32].try_into().unwrap());
        for (i, parent) in out.chunks_exact_mut(n).enumerate() {
            let mut a = *adrs;
            set_word(&mut a, 28, first + i as u32);
            shake256(
                &[pk_seed, &a, &children[2 * i * n..(2 * i + 2) * n]],
                parent,
            );
        }
    }
    fn slh_shake_wots_pk(
        &mut self,
        pk_seed: &[u8],
        sk_seed: &[u8],
        adrs: &[u8; 32],
        out: &mut [u8],
    ) {
        self.wots_pk += 1;
        let n = pk_seed.len();
        let len = 2 * n + 3;
        let keypair: [u8; 4] = adrs[20..24].try_into().unwrap();
        let mut ends = vec![0u8; len * n];
        for i in 0..len {
            let mut sk_adrs = *adrs;
            set_type_and_clear(&mut sk_adrs, 5); // WOTS_PRF
            sk_adrs[20..24].copy_from_slice(&keypair);
            set_word(&mut sk_adrs, 24, i as u32);
            let mut sk = vec![0u8; n];
            shake256(&[pk_seed, &sk_adrs, sk_seed], &mut sk);
            let mut chain_adrs = *adrs;
            set_word(&mut chain_adrs, 24, i as u32);
            shake_wots_chain(
                &mut SoftKeccak,
                pk_seed,
                &chain_adrs,
                &sk,
                0,
                15,
                &mut ends[i * n..(i + 1) * n],
            );
        }
        let mut pk_adrs = *adrs;
        set_type_and_clear(&mut pk_adrs, 1); // WOTS_PK
        pk_adrs[20..24].copy_from_slice(&keypair);
        shake256(&[pk_seed, &pk_adrs, &ends], out);
    }
    fn slh_shake_fors_leaves(
        &mut self,
        pk_seed: &[u8],
        sk_seed: &[u8],
        adrs: &[u8; 32],
        first: u32,
        out: &mut [u8],
    ) {
        self.fors_leaves += 1;
        let n = pk_seed.len();
        let keypair: [u8; 4] = adrs[20..24].try_into().unwrap();
        for (i, leaf) in out.chunks_exact_mut(n).enumerate() {
            self.fors_leaf_count += 1;
            let index = first + i as u32;
            let mut sk_adrs = *adrs;
            set_type_and_clear(&mut sk_adrs, 6); // FORS_PRF
            sk_adrs[20..24].copy_from_slice(&keypair);
            set_word(&mut sk_adrs, 28, index);
            let mut sk = vec![0u8; n];
            shake256(&[pk_seed, &sk_adrs, sk_seed], &mut sk);
            let mut leaf_adrs = *adrs;
            set_word(&mut leaf_adrs, 24, 0);
            set_word(&mut leaf_adrs, 28, index);
            shake256(&[pk_seed, &leaf_adrs, &sk], leaf);
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
    let mut model = ModelEngine::default();
    let (mut sk_m, mut pk_m) = (vec![0u8; p.sk_bytes()], vec![0u8; p.pk_bytes()]);
    slhdsa::slh_keygen_internal_with(
        &mut model, p, sk_seed, sk_prf, pk_seed, &mut sk_m, &mut pk_m,
    )
    .unwrap();
    assert_eq!((sk.clone(), pk.clone()), (sk_m, pk_m), "{} keygen", p.name);

    let mut sig = vec![0u8; p.sig_bytes()];
    slhdsa::slh_sign(p, &sk, b"units", b"ctx", Some(&seeds[..n]), &mut sig).unwrap();
    let mut model = ModelEngine::default();
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

    let mut model_v = ModelEngine::default();
    slhdsa::slh_verify_with(&mut model_v, p, &pk, b"units", b"ctx", &sig).unwrap();
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
