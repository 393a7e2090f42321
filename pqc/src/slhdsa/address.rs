//! The 32-byte hash address ADRS (FIPS 205 §4.2) and its 22-byte compressed
//! form ADRSc used by the SHA2 instances (§11.2).

/// Address types (FIPS 205 §4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum AddressType {
    /// WOTS+ chain hashing.
    WotsHash = 0,
    /// Compression of WOTS+ public keys.
    WotsPk = 1,
    /// XMSS tree nodes.
    Tree = 2,
    /// FORS tree nodes and leaves.
    ForsTree = 3,
    /// Compression of FORS roots.
    ForsRoots = 4,
    /// WOTS+ secret key generation.
    WotsPrf = 5,
    /// FORS secret key generation.
    ForsPrf = 6,
}

/// A hash address: eight big-endian 32-bit words.
///
/// Layout: layer (0..4), tree (4..16, 96 bits), type (16..20), then the three
/// type-dependent words keypair (20..24), chain / tree height (24..28) and
/// hash / tree index (28..32).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adrs(pub [u8; 32]);

impl Adrs {
    fn set_word(&mut self, offset: usize, value: u32) {
        self.0[offset..offset + 4].copy_from_slice(&value.to_be_bytes());
    }
    fn word(&self, offset: usize) -> u32 {
        let mut b = [0u8; 4];
        b.copy_from_slice(&self.0[offset..offset + 4]);
        u32::from_be_bytes(b)
    }
    /// Sets the layer address.
    pub fn set_layer(&mut self, layer: u32) {
        self.set_word(0, layer);
    }
    /// Sets the 96-bit tree address (FIPS 205 uses at most 64 bits of it).
    pub fn set_tree(&mut self, tree: u64) {
        self.0[4..8].fill(0);
        self.0[8..16].copy_from_slice(&tree.to_be_bytes());
    }
    /// Sets the type and clears the three type-dependent words.
    pub fn set_type_and_clear(&mut self, t: AddressType) {
        self.set_word(16, t as u32);
        self.0[20..32].fill(0);
    }
    /// Sets the key pair address.
    pub fn set_keypair(&mut self, keypair: u32) {
        self.set_word(20, keypair);
    }
    /// The key pair address.
    pub fn keypair(&self) -> u32 {
        self.word(20)
    }
    /// Sets the chain address (WOTS+).
    pub fn set_chain(&mut self, chain: u32) {
        self.set_word(24, chain);
    }
    /// Sets the tree height (XMSS, FORS).
    pub fn set_tree_height(&mut self, height: u32) {
        self.set_word(24, height);
    }
    /// Sets the hash address (WOTS+).
    pub fn set_hash(&mut self, hash: u32) {
        self.set_word(28, hash);
    }
    /// Sets the tree index (XMSS, FORS).
    pub fn set_tree_index(&mut self, index: u32) {
        self.set_word(28, index);
    }
    /// The tree index.
    pub fn tree_index(&self) -> u32 {
        self.word(28)
    }
    /// ADRSc: layer (1 byte) ‖ tree (8) ‖ type (1) ‖ last three words (12).
    pub fn compressed(&self) -> [u8; 22] {
        let mut c = [0u8; 22];
        c[0] = self.0[3];
        c[1..9].copy_from_slice(&self.0[8..16]);
        c[9] = self.0[19];
        c[10..22].copy_from_slice(&self.0[20..32]);
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_land_big_endian_at_fips205_offsets() {
        let mut a = Adrs::default();
        a.set_layer(0x0102_0304);
        a.set_tree(0x1122_3344_5566_7788);
        a.set_type_and_clear(AddressType::ForsPrf);
        a.set_keypair(0xA0B0_C0D0);
        a.set_tree_height(7);
        a.set_tree_index(0xDEAD_BEEF);
        assert_eq!(a.0[..4], [1, 2, 3, 4]);
        assert_eq!(
            a.0[4..16],
            [0, 0, 0, 0, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88]
        );
        assert_eq!(a.0[16..20], [0, 0, 0, 6]);
        assert_eq!(a.keypair(), 0xA0B0_C0D0);
        assert_eq!(a.0[24..28], [0, 0, 0, 7]);
        assert_eq!(a.tree_index(), 0xDEAD_BEEF);
        let c = a.compressed();
        assert_eq!(c[0], 4);
        assert_eq!(c[1..9], a.0[8..16]);
        assert_eq!(c[9], 6);
        assert_eq!(c[10..], a.0[20..]);
        a.set_type_and_clear(AddressType::Tree);
        assert_eq!(a.0[20..], [0u8; 12]);
    }
}
