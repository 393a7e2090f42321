//! The hypertree position of the signing and verification jobs: layer j,
//! idx_tree and idx_leaf of the current layer (FIPS 205 Algorithms 12 and
//! 13), and the address words 0..3 (layer, tree) that the tree job needs.

use super::xmss_tree::MAX_TREE_HEIGHT;
use rust_hdl::prelude::*;

/// The current layer, tree and leaf of a hypertree walk.
#[derive(LogicBlock)]
pub struct LayerAddress {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Start at layer 0 with `idx_tree` and `idx_leaf`.
    pub load: Signal<In, Bit>,
    /// idx_tree, sampled at `load`.
    pub idx_tree: Signal<In, Bits<64>>,
    /// idx_leaf, sampled at `load`.
    pub idx_leaf: Signal<In, Bits<10>>,
    /// Move to the next layer: idx_leaf = idx_tree mod 2^h′, idx_tree =
    /// idx_tree >> h′ (Algorithm 12, lines 9–10).
    pub advance: Signal<In, Bit>,
    /// h′ (1..=9; any other gives idx_leaf 0).
    pub height: Signal<In, Bits<4>>,
    /// Which address word `address_word` is (0..3).
    pub step: Signal<In, Bits<4>>,
    /// The layer j.
    pub layer: Signal<Out, Bits<5>>,
    /// The leaf of the layer's tree.
    pub leaf: Signal<Out, Bits<10>>,
    /// Address word `step`: the layer (big-endian, byte 3), then the 96-bit
    /// tree address whose upper 32 bits are zero, as little-endian words.
    pub address_word: Signal<Out, Bits<32>>,
    layer_reg: DFF<Bits<5>>,
    tree_reg: DFF<Bits<64>>,
    leaf_reg: DFF<Bits<10>>,
    leaf_mask_table: [Constant<Bits<10>>; MAX_TREE_HEIGHT + 1],
}

impl Default for LayerAddress {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            load: Default::default(),
            idx_tree: Default::default(),
            idx_leaf: Default::default(),
            advance: Default::default(),
            height: Default::default(),
            step: Default::default(),
            layer: Default::default(),
            leaf: Default::default(),
            address_word: Default::default(),
            layer_reg: Default::default(),
            tree_reg: Default::default(),
            leaf_reg: Default::default(),
            leaf_mask_table: core::array::from_fn(|h| Constant::new(((1u64 << h) - 1).into())),
        }
    }
}

impl Logic for LayerAddress {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, layer_reg, tree_reg, leaf_reg);
        if self.advance.val() {
            self.layer_reg.d.next = self.layer_reg.q.val() + 1;
            self.tree_reg.d.next = self.tree_reg.q.val() >> self.height.val();
            self.leaf_reg.d.next = 0.into();
            for h in 1..(MAX_TREE_HEIGHT + 1) {
                if self.height.val().index() == h {
                    self.leaf_reg.d.next =
                        self.tree_reg.q.val().get_bits::<10>(0) & self.leaf_mask_table[h].val();
                }
            }
        }
        if self.load.val() {
            self.layer_reg.d.next = 0.into();
            self.tree_reg.d.next = self.idx_tree.val();
            self.leaf_reg.d.next = self.idx_leaf.val();
        }
        self.address_word.next = bit_cast::<32, 5>(self.layer_reg.q.val()) << 24;
        if self.step.val() == 1 {
            self.address_word.next = 0.into();
        }
        if self.step.val() == 2 {
            self.address_word.next = bit_cast::<32, 8>(self.tree_reg.q.val().get_bits::<8>(56))
                | (bit_cast::<32, 8>(self.tree_reg.q.val().get_bits::<8>(48)) << 8)
                | (bit_cast::<32, 8>(self.tree_reg.q.val().get_bits::<8>(40)) << 16)
                | (bit_cast::<32, 8>(self.tree_reg.q.val().get_bits::<8>(32)) << 24);
        }
        if self.step.val() == 3 {
            self.address_word.next = bit_cast::<32, 8>(self.tree_reg.q.val().get_bits::<8>(24))
                | (bit_cast::<32, 8>(self.tree_reg.q.val().get_bits::<8>(16)) << 8)
                | (bit_cast::<32, 8>(self.tree_reg.q.val().get_bits::<8>(8)) << 16)
                | (bit_cast::<32, 8>(self.tree_reg.q.val().get_bits::<8>(0)) << 24);
        }
        self.layer.next = self.layer_reg.q.val();
        self.leaf.next = self.leaf_reg.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::{settle, tick, Lcg};
    use pqc::slhdsa::address::Adrs;

    /// For h′ = 2, 3, 8, 9 and random idx_tree/idx_leaf: at every layer
    /// the leaf and the address words 0..3 are those of `pqc`'s Adrs with
    /// the layer and tree of Algorithm 12.
    #[test]
    fn layers_walk_as_ht_sign() {
        let mut rng = Lcg::new(1213);
        let mut uut = LayerAddress::default();
        uut.connect_all();
        settle(&mut uut);
        for (height, layers) in [(2u32, 7u32), (3, 22), (8, 8), (9, 7)] {
            let bits = height * (layers - 1);
            let wide = (u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32());
            let mut tree = if bits >= 64 {
                wide
            } else {
                wide & ((1 << bits) - 1)
            };
            let mut leaf = rng.next_u32() % (1 << height);
            uut.load.next = true;
            uut.idx_tree.next = tree.into();
            uut.idx_leaf.next = u64::from(leaf).into();
            uut.height.next = u64::from(height).into();
            tick(&mut uut, |u| &mut u.clock);
            uut.load.next = false;
            for layer in 0..layers {
                let mut adrs = Adrs::default();
                adrs.set_layer(layer);
                adrs.set_tree(tree);
                for step in 0..4 {
                    uut.step.next = step.into();
                    settle(&mut uut);
                    let word = &adrs.0[4 * step as usize..4 * step as usize + 4];
                    let want = u32::from_le_bytes(word.try_into().unwrap());
                    assert_eq!(uut.address_word.val().to_u64(), u64::from(want));
                }
                assert_eq!(uut.layer.val().to_u64(), u64::from(layer));
                assert_eq!(uut.leaf.val().to_u64(), u64::from(leaf), "h′ {height}");
                leaf = (tree & ((1 << height) - 1)) as u32;
                tree >>= height;
                uut.advance.next = true;
                tick(&mut uut, |u| &mut u.clock);
                uut.advance.next = false;
            }
        }
    }

    #[test]
    fn layer_address_yosys_validates() {
        let mut uut = LayerAddress::default();
        uut.connect_all();
        yosys_validate("slh_layer_address", &generate_verilog(&uut)).unwrap();
    }
}
