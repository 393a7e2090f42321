//! WOTS+, XMSS, the hypertree and FORS (FIPS 205 §5–§8) over a [`HashEngine`].
//!
//! Signing computes each Merkle tree once, bottom-up with a stack
//! (treehash), taking the authentication path and the root on the way; the
//! root of a signed tree is therefore known without re-deriving it from the
//! signature (FIPS 205 Algorithms 12 and 17 recompute it; the result is the
//! same). Memory stays O(height · n): leaves are produced in small batches.

use super::address::{AddressType, Adrs};
use super::hash::HashEngine;
use super::params::{Params, LG_W, MAX_A, MAX_HP, MAX_K, MAX_LEN, MAX_N, W};
use zeroize::Zeroize;

/// Leaves produced, then reduced level by level, per batch (a power of
/// two): one FORS leaf-run call and one call per tree level for each batch.
const LEAF_BATCH: usize = 32;

/// `base_2b` (FIPS 205 Algorithm 4): `out.len()` digits of `b` bits each.
pub(crate) fn base_2b(x: &[u8], b: usize, out: &mut [u32]) {
    let mut bits = 0usize;
    let mut total: u32 = 0;
    let mut input = x.iter();
    for digit in out.iter_mut() {
        while bits < b {
            total = (total << 8) | u32::from(*input.next().expect("base_2b: input too short"));
            bits += 8;
        }
        bits -= b;
        *digit = (total >> bits) & ((1 << b) - 1);
    }
}

/// WOTS+ digits of an n-byte message with the checksum (Algorithm 7, lines 1–8).
fn wots_digits(p: &Params, msg: &[u8], digits: &mut [u32; MAX_LEN]) {
    let len1 = p.wots_len1();
    let len2 = p.wots_len2();
    base_2b(msg, LG_W, &mut digits[..len1]);
    let mut csum: u32 = digits[..len1].iter().map(|&d| W - 1 - d).sum();
    csum <<= (8 - (len2 * LG_W) % 8) % 8;
    let csum_bytes = csum.to_be_bytes();
    let nbytes = (len2 * LG_W).div_ceil(8);
    base_2b(
        &csum_bytes[4 - nbytes..],
        LG_W,
        &mut digits[len1..len1 + len2],
    );
}

/// WOTS+ signature (Algorithm 10) for the key pair in `adrs` (type WOTS_HASH).
fn wots_sign<E: HashEngine>(e: &mut E, p: &Params, msg: &[u8], adrs: &Adrs, sig: &mut [u8]) {
    let n = p.n;
    let mut digits = [0u32; MAX_LEN];
    wots_digits(p, msg, &mut digits);
    let mut sk_adrs = *adrs;
    sk_adrs.set_type_and_clear(AddressType::WotsPrf);
    sk_adrs.set_keypair(adrs.keypair());
    let mut chain_adrs = *adrs;
    let mut sk = [0u8; MAX_N];
    for (i, out) in sig.chunks_exact_mut(n).take(p.wots_len()).enumerate() {
        sk_adrs.set_chain(i as u32);
        e.prf(&sk_adrs, &mut sk[..n]);
        chain_adrs.set_chain(i as u32);
        e.chain(&chain_adrs, &sk[..n], 0, digits[i], out);
    }
    sk.zeroize();
}

/// WOTS+ public key from a signature (Algorithm 8).
fn wots_pk_from_sig<E: HashEngine>(
    e: &mut E,
    p: &Params,
    sig: &[u8],
    msg: &[u8],
    adrs: &Adrs,
    pk: &mut [u8],
) {
    let n = p.n;
    let len = p.wots_len();
    let mut digits = [0u32; MAX_LEN];
    wots_digits(p, msg, &mut digits);
    let mut ends = [0u8; MAX_LEN * MAX_N];
    let mut chain_adrs = *adrs;
    for i in 0..len {
        chain_adrs.set_chain(i as u32);
        e.chain(
            &chain_adrs,
            &sig[i * n..(i + 1) * n],
            digits[i],
            W - 1 - digits[i],
            &mut ends[i * n..(i + 1) * n],
        );
    }
    let mut pk_adrs = *adrs;
    pk_adrs.set_type_and_clear(AddressType::WotsPk);
    pk_adrs.set_keypair(adrs.keypair());
    e.thash(&pk_adrs, &ends[..len * n], &[], pk);
}

/// Bottom-up Merkle tree computation keeping only one node per height.
struct TreeHash<'a> {
    n: usize,
    /// Type TREE or FORS_TREE, with layer, tree and key pair set.
    node_adrs: Adrs,
    /// Index of the tree's first leaf among all leaves of its layer (FORS
    /// trees of one key pair are numbered consecutively).
    leaf_offset: u32,
    /// Leaf whose authentication path is collected, if any.
    auth_leaf: Option<u32>,
    auth: &'a mut [u8],
    stack: [[u8; MAX_N]; MAX_A + 1],
    heights: [u32; MAX_A + 1],
    depth: usize,
    next_leaf: u32,
}

impl<'a> TreeHash<'a> {
    fn new(
        n: usize,
        node_adrs: Adrs,
        leaf_offset: u32,
        auth_leaf: Option<u32>,
        auth: &'a mut [u8],
    ) -> Self {
        TreeHash {
            n,
            node_adrs,
            leaf_offset,
            auth_leaf,
            auth,
            stack: [[0; MAX_N]; MAX_A + 1],
            heights: [0; MAX_A + 1],
            depth: 0,
            next_leaf: 0,
        }
    }

    /// Records `node` (height `z`, index `i` within the tree) if it is on the
    /// authentication path.
    fn note(&mut self, z: u32, i: u32, node: &[u8]) {
        if let Some(leaf) = self.auth_leaf {
            if i == (leaf >> z) ^ 1 {
                let n = self.n;
                self.auth[z as usize * n..(z as usize + 1) * n].copy_from_slice(node);
            }
        }
    }

    /// Records the authentication node of height `z` if it lies in `nodes`,
    /// which holds consecutive nodes from index `first`.
    fn note_level(&mut self, z: u32, first: u32, nodes: &[u8]) {
        if let Some(leaf) = self.auth_leaf {
            let sibling = (leaf >> z) ^ 1;
            let n = self.n;
            if sibling >= first && ((sibling - first) as usize) < nodes.len() / n {
                let at = (sibling - first) as usize * n;
                self.note(z, sibling, &nodes[at..at + n]);
            }
        }
    }

    /// Takes the next `leaves.len() / n` leaves (a power of two, aligned to
    /// its size): reduces them level by level with one engine call per
    /// level, then merges the batch root into the stack. `leaves` is
    /// clobbered.
    fn push_batch<E: HashEngine>(&mut self, e: &mut E, leaves: &mut [u8]) {
        let n = self.n;
        let mut count = leaves.len() / n;
        debug_assert!(count.is_power_of_two() && self.next_leaf % count as u32 == 0);
        let mut first = self.next_leaf;
        self.next_leaf += count as u32;
        let mut z = 0u32;
        self.note_level(0, first, leaves);
        let mut parents = [0u8; LEAF_BATCH / 2 * MAX_N];
        while count > 1 {
            count /= 2;
            z += 1;
            first >>= 1;
            self.node_adrs.set_tree_height(z);
            self.node_adrs
                .set_tree_index((self.leaf_offset >> z) + first);
            e.tree_level(
                &self.node_adrs,
                &leaves[..2 * count * n],
                &mut parents[..count * n],
            );
            leaves[..count * n].copy_from_slice(&parents[..count * n]);
            self.note_level(z, first, &leaves[..count * n]);
        }
        self.push_node(e, z, first, &leaves[..n]);
    }

    /// Pushes a node of height `z` and index `index`, merging equal heights.
    fn push_node<E: HashEngine>(&mut self, e: &mut E, mut z: u32, mut index: u32, node_in: &[u8]) {
        let n = self.n;
        let mut node = [0u8; MAX_N];
        node[..n].copy_from_slice(node_in);
        while self.depth > 0 && self.heights[self.depth - 1] == z {
            self.depth -= 1;
            z += 1;
            index >>= 1;
            self.node_adrs.set_tree_height(z);
            self.node_adrs
                .set_tree_index((self.leaf_offset >> z) + index);
            let left = self.stack[self.depth];
            let right = node;
            e.thash(&self.node_adrs, &left[..n], &right[..n], &mut node[..n]);
            self.note(z, index, &node[..n]);
        }
        self.stack[self.depth] = node;
        self.heights[self.depth] = z;
        self.depth += 1;
    }

    /// The root, once all leaves are in.
    fn root(&self, out: &mut [u8]) {
        debug_assert_eq!(self.depth, 1);
        out.copy_from_slice(&self.stack[0][..self.n]);
    }
}

/// XMSS tree root and, when `idx` is given, signature (Algorithms 9 and 10).
///
/// `adrs` carries layer and tree; `sig` is `(len + h') · n` bytes when signing.
fn xmss_sign_root<E: HashEngine>(
    e: &mut E,
    p: &Params,
    msg: &[u8],
    idx: Option<u32>,
    adrs: &Adrs,
    sig: &mut [u8],
    root: &mut [u8],
) {
    let n = p.n;
    let mut node_adrs = *adrs;
    node_adrs.set_type_and_clear(AddressType::Tree);
    let (wots_sig, auth) = sig.split_at_mut(if idx.is_some() { p.wots_sig_bytes() } else { 0 });
    let mut th = TreeHash::new(n, node_adrs, 0, idx, auth);
    let mut leaf_adrs = *adrs;
    leaf_adrs.set_type_and_clear(AddressType::WotsHash);
    let leaves_total = 1u32 << p.hp;
    let batch = (leaves_total as usize).min(LEAF_BATCH);
    let mut leaves = [0u8; LEAF_BATCH * MAX_N];
    for first in (0..leaves_total).step_by(batch) {
        for (i, leaf) in leaves[..batch * n].chunks_exact_mut(n).enumerate() {
            leaf_adrs.set_keypair(first + i as u32);
            e.wots_pk(&leaf_adrs, leaf);
        }
        th.push_batch(e, &mut leaves[..batch * n]);
    }
    th.root(root);
    if let Some(i) = idx {
        leaf_adrs.set_keypair(i);
        wots_sign(e, p, msg, &leaf_adrs, wots_sig);
    }
}

/// XMSS root from a signature (Algorithm 11).
fn xmss_pk_from_sig<E: HashEngine>(
    e: &mut E,
    p: &Params,
    idx: u32,
    sig: &[u8],
    msg: &[u8],
    adrs: &Adrs,
    root: &mut [u8],
) {
    let n = p.n;
    let (wots_sig, auth) = sig.split_at(p.wots_sig_bytes());
    let mut a = *adrs;
    a.set_type_and_clear(AddressType::WotsHash);
    a.set_keypair(idx);
    let mut node = [0u8; MAX_N];
    wots_pk_from_sig(e, p, wots_sig, msg, &a, &mut node[..n]);
    a.set_type_and_clear(AddressType::Tree);
    climb(e, n, &mut a, idx, auth, p.hp, &mut node[..n]);
    root.copy_from_slice(&node[..n]);
}

/// Climbs from a leaf (tree index `leaf_index`) to the root along `auth`.
fn climb<E: HashEngine>(
    e: &mut E,
    n: usize,
    adrs: &mut Adrs,
    leaf_index: u32,
    auth: &[u8],
    height: usize,
    node: &mut [u8],
) {
    let mut index = leaf_index;
    for k in 0..height {
        let sibling = &auth[k * n..(k + 1) * n];
        adrs.set_tree_height(k as u32 + 1);
        let below = node.to_owned_array();
        if index & 1 == 0 {
            index /= 2;
            adrs.set_tree_index(index);
            e.thash(adrs, &below[..n], sibling, node);
        } else {
            index = (index - 1) / 2;
            adrs.set_tree_index(index);
            e.thash(adrs, sibling, &below[..n], node);
        }
    }
}

trait ToOwnedArray {
    fn to_owned_array(&self) -> [u8; MAX_N];
}

impl ToOwnedArray for [u8] {
    fn to_owned_array(&self) -> [u8; MAX_N] {
        let mut a = [0u8; MAX_N];
        a[..self.len()].copy_from_slice(self);
        a
    }
}

/// Root of the top XMSS tree: the key generation of Algorithm 18.
pub(crate) fn ht_root<E: HashEngine>(e: &mut E, p: &Params, root: &mut [u8]) {
    let mut adrs = Adrs::default();
    adrs.set_layer(p.d as u32 - 1);
    xmss_sign_root(e, p, &[], None, &adrs, &mut [], root);
}

/// Hypertree signature (Algorithm 12) of the n-byte `msg`.
pub(crate) fn ht_sign<E: HashEngine>(
    e: &mut E,
    p: &Params,
    msg: &[u8],
    mut idx_tree: u64,
    mut idx_leaf: u32,
    sig: &mut [u8],
) {
    let n = p.n;
    let mut root = [0u8; MAX_N];
    root[..n].copy_from_slice(msg);
    for (j, layer_sig) in sig.chunks_exact_mut(p.xmss_sig_bytes()).enumerate() {
        if j > 0 {
            idx_leaf = (idx_tree & ((1 << p.hp) - 1)) as u32;
            idx_tree >>= p.hp;
        }
        let mut adrs = Adrs::default();
        adrs.set_layer(j as u32);
        adrs.set_tree(idx_tree);
        let signed = root;
        xmss_sign_root(
            e,
            p,
            &signed[..n],
            Some(idx_leaf),
            &adrs,
            layer_sig,
            &mut root[..n],
        );
    }
}

/// Hypertree verification (Algorithm 13).
pub(crate) fn ht_verify<E: HashEngine>(
    e: &mut E,
    p: &Params,
    msg: &[u8],
    sig: &[u8],
    mut idx_tree: u64,
    mut idx_leaf: u32,
    pk_root: &[u8],
) -> bool {
    let n = p.n;
    let mut node = [0u8; MAX_N];
    node[..n].copy_from_slice(msg);
    for (j, layer_sig) in sig.chunks_exact(p.xmss_sig_bytes()).enumerate() {
        if j > 0 {
            idx_leaf = (idx_tree & ((1 << p.hp) - 1)) as u32;
            idx_tree >>= p.hp;
        }
        let mut adrs = Adrs::default();
        adrs.set_layer(j as u32);
        adrs.set_tree(idx_tree);
        let signed = node;
        xmss_pk_from_sig(
            e,
            p,
            idx_leaf,
            layer_sig,
            &signed[..n],
            &adrs,
            &mut node[..n],
        );
    }
    // Public data only: no constant-time comparison needed.
    node[..n] == *pk_root
}

/// FORS signature and public key (Algorithms 16 and 17) of digest `md`;
/// `adrs` has type FORS_TREE with tree and key pair set.
pub(crate) fn fors_sign<E: HashEngine>(
    e: &mut E,
    p: &Params,
    md: &[u8],
    adrs: &Adrs,
    sig: &mut [u8],
    pk: &mut [u8],
) {
    let n = p.n;
    let mut indices = [0u32; MAX_K];
    base_2b(md, p.a, &mut indices[..p.k]);
    let mut roots = [0u8; MAX_K * MAX_N];
    let mut sk_adrs = *adrs;
    sk_adrs.set_type_and_clear(AddressType::ForsPrf);
    sk_adrs.set_keypair(adrs.keypair());
    let leaves_per_tree = 1u32 << p.a;
    let batch = (leaves_per_tree as usize).min(LEAF_BATCH);
    let mut leaves = [0u8; LEAF_BATCH * MAX_N];
    for (i, tree_sig) in sig.chunks_exact_mut((1 + p.a) * n).enumerate() {
        let offset = i as u32 * leaves_per_tree;
        let (sk, auth) = tree_sig.split_at_mut(n);
        sk_adrs.set_tree_index(offset + indices[i]);
        e.prf(&sk_adrs, sk);
        let mut th = TreeHash::new(n, *adrs, offset, Some(indices[i]), auth);
        for first in (0..leaves_per_tree).step_by(batch) {
            let out = &mut leaves[..batch * n];
            e.fors_leaves(adrs, offset + first, out);
            th.push_batch(e, out);
        }
        th.root(&mut roots[i * n..(i + 1) * n]);
    }
    fors_roots_pk(e, p, adrs, &roots[..p.k * n], pk);
}

fn fors_roots_pk<E: HashEngine>(e: &mut E, _p: &Params, adrs: &Adrs, roots: &[u8], pk: &mut [u8]) {
    let mut pk_adrs = *adrs;
    pk_adrs.set_type_and_clear(AddressType::ForsRoots);
    pk_adrs.set_keypair(adrs.keypair());
    e.thash(&pk_adrs, roots, &[], pk);
}

/// FORS public key from a signature (Algorithm 17).
pub(crate) fn fors_pk_from_sig<E: HashEngine>(
    e: &mut E,
    p: &Params,
    sig: &[u8],
    md: &[u8],
    adrs: &Adrs,
    pk: &mut [u8],
) {
    let n = p.n;
    let mut indices = [0u32; MAX_K];
    base_2b(md, p.a, &mut indices[..p.k]);
    let mut roots = [0u8; MAX_K * MAX_N];
    let mut a = *adrs;
    for (i, tree_sig) in sig.chunks_exact((1 + p.a) * n).enumerate() {
        let (sk, auth) = tree_sig.split_at(n);
        let leaf_index = (i as u32) * (1 << p.a) + indices[i];
        a.set_tree_height(0);
        a.set_tree_index(leaf_index);
        let node = &mut roots[i * n..(i + 1) * n];
        e.thash(&a, sk, &[], node);
        climb(e, n, &mut a, leaf_index, auth, p.a, node);
    }
    fors_roots_pk(e, p, adrs, &roots[..p.k * n], pk);
}

const _: () = assert!(MAX_HP <= MAX_A);
