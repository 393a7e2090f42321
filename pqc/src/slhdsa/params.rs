//! The twelve SLH-DSA parameter sets (FIPS 205, Table 2), defined once.
//!
//! Everything else (lengths, `len`, `m`, the typed per-set modules) is
//! derived from this table.

/// Which hash family instantiates the tweakable hashes (FIPS 205 §11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HashFamily {
    /// §11.2: SHA-256 (and SHA-512 for security categories 3 and 5).
    Sha2,
    /// §11.1: SHAKE256.
    Shake,
}

/// One SLH-DSA parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// Name as in FIPS 205 and ACVP, e.g. `"SLH-DSA-SHAKE-128f"`.
    pub name: &'static str,
    /// Hash family.
    pub family: HashFamily,
    /// Security parameter: hash output length in bytes (16, 24 or 32).
    pub n: usize,
    /// Total hypertree height.
    pub h: usize,
    /// Number of hypertree layers.
    pub d: usize,
    /// Height of one XMSS tree, `h / d`.
    pub hp: usize,
    /// FORS tree height.
    pub a: usize,
    /// Number of FORS trees.
    pub k: usize,
    /// NIST security category (1, 3 or 5).
    pub category: u8,
}

/// Winternitz parameter `lg_w` (4 for every approved set).
pub const LG_W: usize = 4;
/// Winternitz parameter `w = 2^lg_w`.
pub const W: u32 = 1 << LG_W;
/// Largest `n` of any set.
pub const MAX_N: usize = 32;
/// Largest WOTS+ `len` of any set (`2 * 32 + 3`).
pub const MAX_LEN: usize = 2 * MAX_N + 3;
/// Largest XMSS height `h'` of any set.
pub const MAX_HP: usize = 9;
/// Largest FORS height `a` of any set.
pub const MAX_A: usize = 14;
/// Largest FORS tree count `k` of any set.
pub const MAX_K: usize = 35;
/// Largest digest length `m` of any set.
pub const MAX_M: usize = 49;
/// Largest signature of any set (SLH-DSA-*-256f).
pub const MAX_SIG_BYTES: usize = 49_856;

impl Params {
    /// WOTS+ message digits: `len1 = 8n / lg_w`.
    pub const fn wots_len1(&self) -> usize {
        8 * self.n / LG_W
    }
    /// WOTS+ checksum digits (3 for `lg_w = 4` and every approved `n`).
    pub const fn wots_len2(&self) -> usize {
        // floor(log2(len1 * (w - 1)) / lg_w) + 1
        let max_csum = self.wots_len1() * (W as usize - 1);
        let bits = usize::BITS - max_csum.leading_zeros() - 1;
        bits as usize / LG_W + 1
    }
    /// WOTS+ chains per key: `len = len1 + len2`.
    pub const fn wots_len(&self) -> usize {
        self.wots_len1() + self.wots_len2()
    }
    /// Bytes of `md` taken from the message digest: `ceil(k·a / 8)`.
    pub const fn md_bytes(&self) -> usize {
        (self.k * self.a).div_ceil(8)
    }
    /// Bytes of the tree index taken from the digest: `ceil((h − h/d) / 8)`.
    pub const fn tree_idx_bytes(&self) -> usize {
        (self.h - self.hp).div_ceil(8)
    }
    /// Bytes of the leaf index taken from the digest: `ceil(h' / 8)`.
    pub const fn leaf_idx_bytes(&self) -> usize {
        self.hp.div_ceil(8)
    }
    /// Digest length `m` of `H_msg`.
    pub const fn m(&self) -> usize {
        self.md_bytes() + self.tree_idx_bytes() + self.leaf_idx_bytes()
    }
    /// Public key bytes: `PK.seed ‖ PK.root`.
    pub const fn pk_bytes(&self) -> usize {
        2 * self.n
    }
    /// Secret key bytes: `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`.
    pub const fn sk_bytes(&self) -> usize {
        4 * self.n
    }
    /// Bytes of one WOTS+ signature: `len · n`.
    pub const fn wots_sig_bytes(&self) -> usize {
        self.wots_len() * self.n
    }
    /// Bytes of one XMSS signature: `(len + h') · n`.
    pub const fn xmss_sig_bytes(&self) -> usize {
        (self.wots_len() + self.hp) * self.n
    }
    /// Bytes of the FORS signature: `k · (1 + a) · n`.
    pub const fn fors_sig_bytes(&self) -> usize {
        self.k * (1 + self.a) * self.n
    }
    /// Signature bytes: `R ‖ SIG_FORS ‖ SIG_HT`.
    pub const fn sig_bytes(&self) -> usize {
        self.n + self.fors_sig_bytes() + self.d * self.xmss_sig_bytes()
    }
}

macro_rules! param_set {
    ($name:literal, $family:ident, $n:literal, $h:literal, $d:literal, $hp:literal, $a:literal, $k:literal, $cat:literal) => {
        Params {
            name: $name,
            family: HashFamily::$family,
            n: $n,
            h: $h,
            d: $d,
            hp: $hp,
            a: $a,
            k: $k,
            category: $cat,
        }
    };
}

/// SLH-DSA-SHA2-128s.
pub const SHA2_128S: Params = param_set!("SLH-DSA-SHA2-128s", Sha2, 16, 63, 7, 9, 12, 14, 1);
/// SLH-DSA-SHAKE-128s.
pub const SHAKE_128S: Params = param_set!("SLH-DSA-SHAKE-128s", Shake, 16, 63, 7, 9, 12, 14, 1);
/// SLH-DSA-SHA2-128f.
pub const SHA2_128F: Params = param_set!("SLH-DSA-SHA2-128f", Sha2, 16, 66, 22, 3, 6, 33, 1);
/// SLH-DSA-SHAKE-128f.
pub const SHAKE_128F: Params = param_set!("SLH-DSA-SHAKE-128f", Shake, 16, 66, 22, 3, 6, 33, 1);
/// SLH-DSA-SHA2-192s.
pub const SHA2_192S: Params = param_set!("SLH-DSA-SHA2-192s", Sha2, 24, 63, 7, 9, 14, 17, 3);
/// SLH-DSA-SHAKE-192s.
pub const SHAKE_192S: Params = param_set!("SLH-DSA-SHAKE-192s", Shake, 24, 63, 7, 9, 14, 17, 3);
/// SLH-DSA-SHA2-192f.
pub const SHA2_192F: Params = param_set!("SLH-DSA-SHA2-192f", Sha2, 24, 66, 22, 3, 8, 33, 3);
/// SLH-DSA-SHAKE-192f.
pub const SHAKE_192F: Params = param_set!("SLH-DSA-SHAKE-192f", Shake, 24, 66, 22, 3, 8, 33, 3);
/// SLH-DSA-SHA2-256s.
pub const SHA2_256S: Params = param_set!("SLH-DSA-SHA2-256s", Sha2, 32, 64, 8, 8, 14, 22, 5);
/// SLH-DSA-SHAKE-256s.
pub const SHAKE_256S: Params = param_set!("SLH-DSA-SHAKE-256s", Shake, 32, 64, 8, 8, 14, 22, 5);
/// SLH-DSA-SHA2-256f.
pub const SHA2_256F: Params = param_set!("SLH-DSA-SHA2-256f", Sha2, 32, 68, 17, 4, 9, 35, 5);
/// SLH-DSA-SHAKE-256f.
pub const SHAKE_256F: Params = param_set!("SLH-DSA-SHAKE-256f", Shake, 32, 68, 17, 4, 9, 35, 5);

/// Every parameter set, in FIPS 205 Table 2 order.
pub const ALL: [&Params; 12] = [
    &SHA2_128S,
    &SHAKE_128S,
    &SHA2_128F,
    &SHAKE_128F,
    &SHA2_192S,
    &SHAKE_192S,
    &SHA2_192F,
    &SHAKE_192F,
    &SHA2_256S,
    &SHAKE_256S,
    &SHA2_256F,
    &SHAKE_256F,
];

/// Looks a parameter set up by its FIPS 205 / ACVP name.
pub fn by_name(name: &str) -> Option<&'static Params> {
    ALL.iter().copied().find(|p| p.name == name)
}

// Compile-time checks of the derived sizes against FIPS 205 Table 2 and of
// the buffer bounds the implementation relies on.
const _: () = {
    let expected: [(usize, usize, usize); 12] = [
        (32, 7_856, 30),
        (32, 7_856, 30),
        (32, 17_088, 34),
        (32, 17_088, 34),
        (48, 16_224, 39),
        (48, 16_224, 39),
        (48, 35_664, 42),
        (48, 35_664, 42),
        (64, 29_792, 47),
        (64, 29_792, 47),
        (64, 49_856, 49),
        (64, 49_856, 49),
    ];
    let mut i = 0;
    while i < ALL.len() {
        let p = ALL[i];
        assert!(p.pk_bytes() == expected[i].0);
        assert!(p.sig_bytes() == expected[i].1);
        assert!(p.m() == expected[i].2);
        assert!(p.hp * p.d == p.h);
        assert!(p.wots_len2() == 3);
        assert!(p.n <= MAX_N && p.n % 8 == 0);
        assert!(p.wots_len() <= MAX_LEN);
        assert!(p.hp <= MAX_HP && p.a <= MAX_A && p.k <= MAX_K);
        assert!(p.m() <= MAX_M && p.sig_bytes() <= MAX_SIG_BYTES);
        // idx_tree must fit a u64 (tree address words 2..3).
        assert!(p.h - p.hp <= 64);
        i += 1;
    }
};
