//! Elaboration parameters of the PL cores as built for the ZedBoard. The
//! cores report them in their `CONFIG` register
//! ([`crate::regmap::ntt::CONFIG_LANES_SHIFT`],
//! [`crate::regmap::keccak::CONFIG_ROUNDS_PER_CLOCK_MASK`]); the driver
//! and the co-simulation rely on them.

/// Butterflies per cycle B of the NTT core in the PL top.
pub const NTT_LANES: u32 = 4;
/// User polynomial slots of the NTT core.
pub const NTT_SLOTS: u32 = 3;
/// Keccak-f\[1600\] rounds computed per clock by the sponge engine's core.
pub const KECCAK_ROUNDS_PER_CLOCK: u32 = 1;
/// Keccak-f\[1600\] rounds computed per clock by the SLH-DSA engine's
/// sponge (reported in its `CONFIG`,
/// [`crate::regmap::slhdsa::CONFIG_ROUNDS_SHIFT`]): two, since the engine
/// is bound by its F calls and the engines' configuration has the room.
pub const SLHDSA_KECCAK_ROUNDS_PER_CLOCK: u32 = 2;
