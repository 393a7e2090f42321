//! The PL register map: the HDL (`hdl` builds the AXI4-Lite register
//! files from these constants), the firmware driver, the Vivado script and
//! the host models all read it from here.
//!
//! Layout of the PL side (Zynq M_AXI_GP0 window, 0x4000_0000–0x7FFF_FFFF):
//!
//! | block | base | what |
//! |---|---|---|
//! | NTT core control | [`NTT_BASE`] | AXI4-Lite, [`ctrl`] registers |
//! | Keccak engine control | [`KECCAK_BASE`] | AXI4-Lite, [`ctrl`] registers |
//! | AXI DMA for the NTT core | [`NTT_DMA_BASE`] | Xilinx AXI DMA (PG021), [`crate::dma`] |
//! | AXI DMA for the Keccak engine | [`KECCAK_DMA_BASE`] | Xilinx AXI DMA (PG021), [`crate::dma`] |
//! | ML-DSA engine control | [`MLDSA_BASE`] (= [`ENGINES_BASE`]) | AXI4-Lite, [`ctrl`] registers, [`mldsa`] operations |
//! | SLH-DSA engine control | [`SLHDSA_BASE`] (= [`ENGINES_BASE`] + [`ENGINE_BLOCK_BYTES`]) | AXI4-Lite, [`ctrl`] registers, [`slhdsa`] operations |
//! | AXI DMA for both engines | [`ENGINES_DMA_BASE`] (= [`MLDSA_DMA_BASE`] = [`SLHDSA_DMA_BASE`]) | Xilinx AXI DMA (PG021), [`crate::dma`] |
//!
//! The two engines share one Keccak sponge, so they sit in one PL top
//! behind one AXI4-Lite slave (both control blocks in one window) and one
//! DMA.
//!
//! Every accelerator's control block starts with the same registers
//! ([`ctrl`]); the operation codes and arguments specific to each core are
//! in [`ntt`], [`keccak`], [`mldsa`] and [`slhdsa`].
//!
//! Room for more blocks: the GP0 window has space for further control
//! blocks and DMAs at 64 KiB steps (`0x43C3_0000`…, `0x4043_0000`…).

/// Start of the M_AXI_GP0 window (strongly ordered in the PS MMU map).
pub const PL_GP0_START: usize = 0x4000_0000;
/// End (inclusive) of the M_AXI_GP0 window.
pub const PL_GP0_END: usize = 0x7FFF_FFFF;

/// AXI4-Lite control block of the NTT core.
pub const NTT_BASE: usize = 0x43C0_0000;
/// AXI4-Lite control block of the Keccak/sponge engine.
pub const KECCAK_BASE: usize = 0x43C1_0000;
/// AXI DMA (simple mode) feeding the NTT core's coefficient stream.
pub const NTT_DMA_BASE: usize = 0x4040_0000;
/// AXI DMA (simple mode) feeding the sponge engine's byte stream.
pub const KECCAK_DMA_BASE: usize = 0x4041_0000;
/// The engines' window: one AXI4-Lite slave (the top that holds both
/// engines on one shared sponge) with the ML-DSA engine's control block in
/// its lower half and the SLH-DSA engine's in its upper half.
pub const ENGINES_BASE: usize = 0x43C2_0000;
/// Size of each engine's control block in [`ENGINES_BASE`]'s window: the
/// window's top address bit selects the engine.
pub const ENGINE_BLOCK_BYTES: usize = CTRL_WINDOW_BYTES / 2;
/// AXI DMA (simple mode) feeding both engines' streams: one engine runs
/// at a time (the other refuses a start while the shared sponge is taken).
pub const ENGINES_DMA_BASE: usize = 0x4042_0000;
/// AXI4-Lite control block of the ML-DSA engine (whole operations).
pub const MLDSA_BASE: usize = ENGINES_BASE;
/// AXI DMA feeding the ML-DSA engine's streams (the engines' one DMA).
pub const MLDSA_DMA_BASE: usize = ENGINES_DMA_BASE;
/// AXI4-Lite control block of the SLH-DSA engine (whole operations).
pub const SLHDSA_BASE: usize = ENGINES_BASE + ENGINE_BLOCK_BYTES;
/// AXI DMA feeding the SLH-DSA engine's streams (the engines' one DMA).
pub const SLHDSA_DMA_BASE: usize = ENGINES_DMA_BASE;
// An engine's block is a power-of-two half of the window (one address
// bit selects it) and holds every control register.
const _: () = assert!(ENGINE_BLOCK_BYTES.is_power_of_two() && ctrl::RESULT < ENGINE_BLOCK_BYTES);
/// Size of each control block's address window.
pub const CTRL_WINDOW_BYTES: usize = 0x1_0000;

/// Registers common to every accelerator control block (byte offsets).
pub mod ctrl {
    /// Read-only identification word; see [`super::ntt::ID`], [`super::keccak::ID`].
    /// Reading 0 (what an empty GP0 window returns on QEMU) means "no core".
    pub const ID: usize = 0x00;
    /// Read-only: `major << 16 | minor` of the register interface.
    pub const VERSION: usize = 0x04;
    /// Read-only: elaboration parameters of the core (per-core layout).
    pub const CONFIG: usize = 0x08;
    /// Write: bits \[7:0\] operation code, bit \[31\] start.
    pub const COMMAND: usize = 0x0C;
    /// Read-only status bits, see `STATUS_*`.
    pub const STATUS: usize = 0x10;
    /// First argument of the operation (per-core meaning).
    pub const ARG0: usize = 0x14;
    /// Second argument of the operation (per-core meaning).
    pub const ARG1: usize = 0x18;
    /// Third argument of the operation (per-core meaning).
    pub const ARG2: usize = 0x1C;
    /// Read-only: clock cycles the last operation took, from start to done.
    pub const CYCLES: usize = 0x20;
    /// Read-only: a per-core result of the last operation (the ML-DSA
    /// engine's signing attempts, see [`super::mldsa::OP_SIGN`]); 0 for
    /// cores that have none.
    pub const RESULT: usize = 0x24;

    /// `COMMAND` bit that starts the operation written in bits \[7:0\].
    pub const COMMAND_START: u32 = 1 << 31;
    /// Mask of the operation code in `COMMAND`.
    pub const COMMAND_OP_MASK: u32 = 0xFF;
    /// `STATUS`: an operation is running.
    pub const STATUS_BUSY: u32 = 1 << 0;
    /// `STATUS`: the last operation finished (cleared by the next start).
    pub const STATUS_DONE: u32 = 1 << 1;
    /// `STATUS`: the last request was malformed and was refused.
    pub const STATUS_ERROR: u32 = 1 << 2;

    /// Register-interface version implemented by the cores of this tree.
    pub const VERSION_VALUE: u32 = 1 << 16;
}

/// The NTT core (ML-DSA, q = 8380417).
pub mod ntt {
    /// `ID` register value: ASCII "NTT1".
    pub const ID: u32 = u32::from_be_bytes(*b"NTT1");

    /// Number of user polynomial slots (0..SLOTS−1) resident in the core.
    pub const SLOTS: u32 = crate::cores::NTT_SLOTS;

    /// Stream 256 coefficients (32-bit words, value < q, `tlast` on the
    /// 256th) from the input stream into slot `ARG0`.
    pub const OP_LOAD: u32 = 0x01;
    /// Stream slot `ARG0` out (256 words, `tlast` on the last).
    pub const OP_STORE: u32 = 0x02;
    /// Forward NTT (FIPS 204 Algorithm 41) of slot `ARG0`, in place.
    pub const OP_NTT: u32 = 0x03;
    /// Inverse NTT with the 256⁻¹ scaling (Algorithm 42) of slot `ARG0`.
    pub const OP_INTT: u32 = 0x04;
    /// Slot `ARG0` = slot `ARG1` ∘ slot `ARG2` (pointwise product mod q).
    pub const OP_PWM: u32 = 0x05;
    /// Slot `ARG0` += slot `ARG1` ∘ slot `ARG2` (accumulate in `ARG0`).
    pub const OP_PWMAC: u32 = 0x06;
    /// Abandon whatever runs (also accepted while busy, e.g. a LOAD whose
    /// input stream stopped half-way); the core returns to idle with
    /// `STATUS_DONE | STATUS_ERROR`, the results of the aborted operation
    /// still in flight are discarded, and the next operation runs normally.
    /// The slot being written by the aborted operation (and, for an NTT or
    /// INTT, the slot itself) holds undefined data afterwards. Words left in
    /// the input stream are not drained: reset the DMA channel.
    pub const OP_ABORT: u32 = 0xFF;

    /// `CONFIG` bits \[3:0\]: butterflies per cycle B (1, 2 or 4).
    pub const CONFIG_LANES_SHIFT: u32 = 0;
    /// `CONFIG` bits \[7:4\]: number of slots.
    pub const CONFIG_SLOTS_SHIFT: u32 = 4;
    /// Width mask of each `CONFIG` field.
    pub const CONFIG_FIELD_MASK: u32 = 0xF;
}

/// The Keccak-f\[1600\] core and SHAKE/SHA3 sponge engine.
pub mod keccak {
    /// `ID` register value: ASCII "KEC1".
    pub const ID: u32 = u32::from_be_bytes(*b"KEC1");

    /// Operation: one whole sponge call (`KeccakBackend::sponge`).
    /// `ARG0` = mode ([`MODE_SHAKE128`] …), `ARG1` = message length in bytes,
    /// `ARG2` = output length in bytes (≥ 1). The input stream carries the
    /// message as `ceil(ARG1 / 4)` little-endian 32-bit words (message byte
    /// k in bits `8·(k mod 4)` of word `k / 4`; bytes past the length in the
    /// final word are ignored), `TLAST` on the final word, no words when
    /// `ARG1 = 0`. The output stream carries `ceil(ARG2 / 4)` words the same
    /// way, `TLAST` on the final word, whose bytes past the length are zero.
    pub const OP_SPONGE: u32 = 0x01;
    /// Operation: WOTS+ chain (FIPS 205 Algorithm 5, SLH-DSA-SHAKE):
    /// `ARG0` = n (16, 24 or 32), `ARG1` = start index i, `ARG2` = steps s
    /// (`i + s` must fit in 32 bits). Input stream: PK.seed ‖ ADRS ‖ X
    /// (n/4 + 8 + n/4 words, `TLAST` on the last); the hash address (ADRS
    /// bytes 28..32) is set by the engine for each step. Output: n/4 words.
    pub const OP_WOTS_CHAIN: u32 = 0x02;
    /// Operation: abandon whatever runs (also accepted while busy); the
    /// engine returns to idle with `STATUS_DONE | STATUS_ERROR`. The recovery
    /// for a stream that never ends.
    pub const OP_ABORT: u32 = 0xFF;

    /// `OP_SPONGE` modes (`ARG0`), in the order of `pqc::keccak::SpongeMode::ALL`.
    pub const MODE_SHAKE128: u32 = 0;
    /// SHAKE256.
    pub const MODE_SHAKE256: u32 = 1;
    /// SHA3-256.
    pub const MODE_SHA3_256: u32 = 2;
    /// SHA3-512.
    pub const MODE_SHA3_512: u32 = 3;

    /// `CONFIG` bits \[4:0\]: Keccak rounds computed per clock (1 or 2).
    pub const CONFIG_ROUNDS_PER_CLOCK_MASK: u32 = 0x1F;
}

/// The ML-DSA engine: whole FIPS 204 operations (so far KeyGen_internal
/// and Verify_internal).
pub mod mldsa {
    /// `ID` register value: ASCII "MLD2" (2: the outputs of [`OP_KEYGEN`]
    /// and [`OP_SIGN`] end with the check word, [`output_check`]).
    pub const ID: u32 = u32::from_be_bytes(*b"MLD2");

    /// Operation: ML-DSA.KeyGen_internal (FIPS 204 Algorithm 6).
    /// `ARG0` = parameter set ([`SET_44`], [`SET_65`], [`SET_87`]; anything
    /// else is refused with `STATUS_ERROR`). Input stream: ξ as 8
    /// little-endian words, `TLAST` on the 8th (a `TLAST` earlier or missing
    /// on the 8th ends the request with `STATUS_ERROR`). Output stream:
    /// pk ‖ sk (FIPS 204 pkEncode ‖ skEncode) as little-endian words (the
    /// lengths are `pqc`'s `Params::pk_len` + `Params::sk_len` of the set),
    /// then the check word ([`output_check`]) with `TLAST`.
    pub const OP_KEYGEN: u32 = 0x01;
    /// Operation: ML-DSA.Sign_internal (FIPS 204 Algorithm 7), the whole
    /// rejection loop. `ARG0` = parameter set, plus [`SIGN_EXTERNAL_MU`];
    /// `ARG1` = length of M′ in bytes (below [`VERIFY_MAX_MSG_BYTES`];
    /// ignored with an external μ). Input stream, little-endian words: sk,
    /// rnd ([`SIGN_RND_WORDS`] words; zero for deterministic signing), then
    /// M′ (its last word padded) or the 64 bytes of μ; `TLAST` on the final
    /// word and nowhere else. Output stream: σ, its last word padded with
    /// zero bytes, then the check word ([`output_check`]) with `TLAST`.
    /// `RESULT` then holds the number of
    /// attempts. A stream of another length, an sk whose s1 or s2 has a
    /// coefficient out of range, or `pqc::mldsa::MAX_SIGN_ATTEMPTS`
    /// rejected attempts end the request with `STATUS_ERROR` and no
    /// output.
    pub const OP_SIGN: u32 = 0x02;
    /// `ARG0` flag of [`OP_SIGN`]: μ comes on the stream instead of M′.
    pub const SIGN_EXTERNAL_MU: u32 = 1 << 8;
    /// Words of rnd on the [`OP_SIGN`] input stream.
    pub const SIGN_RND_WORDS: usize = 8;
    /// Operation: abandon whatever runs (also accepted while busy); the
    /// engine returns to idle with `STATUS_DONE | STATUS_ERROR`. Words left
    /// in the input stream are not drained: reset the DMA channel.
    pub const OP_ABORT: u32 = 0xFF;

    /// Operation: ML-DSA.Verify_internal (FIPS 204 Algorithm 8). `ARG0` =
    /// parameter set, plus [`VERIFY_EXTERNAL_MU`]; `ARG1` = length of M′ in
    /// bytes (below [`VERIFY_MAX_MSG_BYTES`]; ignored with an external μ).
    /// Input stream, little-endian words, each part starting on a word:
    /// pk, σ (its last word padded with zero bytes), then M′ (its last word
    /// padded) or the 64 bytes of μ; `TLAST` on the final word and nowhere
    /// else. Output stream: one word, [`VERDICT_VALID`] or
    /// [`VERDICT_INVALID`], with `TLAST`. A stream of another length ends
    /// the request with `STATUS_ERROR` and no output word (words left in
    /// the input stream are not drained: reset the DMA channel).
    pub const OP_VERIFY: u32 = 0x03;
    /// `ARG0` flag of [`OP_VERIFY`]: μ comes on the stream instead of M′.
    pub const VERIFY_EXTERNAL_MU: u32 = 1 << 8;
    /// M′ of this many bytes or more is refused with `STATUS_ERROR`.
    pub const VERIFY_MAX_MSG_BYTES: u32 = 1 << 24;
    /// Output word of a valid signature (ASCII "OKAY", big-endian). A
    /// corrupted word is neither verdict, so the driver notices it.
    pub const VERDICT_VALID: u32 = u32::from_be_bytes(*b"OKAY");
    /// Output word of an invalid signature (ASCII "FAIL").
    pub const VERDICT_INVALID: u32 = u32::from_be_bytes(*b"FAIL");

    /// `ARG0` of ML-DSA-44.
    pub const SET_44: u32 = 0;
    /// `ARG0` of ML-DSA-65.
    pub const SET_65: u32 = 1;
    /// `ARG0` of ML-DSA-87.
    pub const SET_87: u32 = 2;

    /// Words of ξ on the input stream of [`OP_KEYGEN`].
    pub const KEYGEN_INPUT_WORDS: usize = 8;
    /// Words of the [`OP_VERIFY`] input stream of a `pk_bytes` key, a
    /// `sig_bytes` signature and a `tail_bytes` M′ (or 64 for μ): each part
    /// padded to a whole word.
    pub const fn verify_stream_words(
        pk_bytes: usize,
        sig_bytes: usize,
        tail_bytes: usize,
    ) -> usize {
        pk_bytes.div_ceil(4) + sig_bytes.div_ceil(4) + tail_bytes.div_ceil(4)
    }

    /// Words of the [`OP_SIGN`] input stream of an `sk_bytes` key and a
    /// `tail_bytes` M′ (or 64 for μ): each part padded to a whole word.
    pub const fn sign_stream_words(sk_bytes: usize, tail_bytes: usize) -> usize {
        sk_bytes.div_ceil(4) + SIGN_RND_WORDS + tail_bytes.div_ceil(4)
    }

    /// Words after the output of [`OP_KEYGEN`] and [`OP_SIGN`]: the check
    /// word.
    pub const OUTPUT_CHECK_WORDS: usize = 1;
    /// The check word's starting value.
    pub const OUTPUT_CHECK_SEED: u32 = ID;

    /// One step of the output check: the check so far rotated left by one
    /// bit, XORed with the next output word.
    pub const fn output_check_step(check: u32, word: u32) -> u32 {
        check.rotate_left(1) ^ word
    }

    /// The check word the engine sends after an output of `words`:
    /// [`output_check_step`] over them from [`OUTPUT_CHECK_SEED`]. It
    /// guards the stream against corruption on its way (any change
    /// confined to one word, or to bits 32 words apart, changes it); it is
    /// not a cryptographic MAC.
    pub fn output_check(words: impl IntoIterator<Item = u32>) -> u32 {
        words.into_iter().fold(OUTPUT_CHECK_SEED, output_check_step)
    }

    /// `CONFIG` bit: the engine runs [`OP_KEYGEN`].
    pub const CONFIG_KEYGEN: u32 = 1 << 0;
    /// `CONFIG` bit: the engine runs [`OP_SIGN`].
    pub const CONFIG_SIGN: u32 = 1 << 1;
    /// `CONFIG` bit: the engine runs [`OP_VERIFY`].
    pub const CONFIG_VERIFY: u32 = 1 << 2;
}

/// The SLH-DSA engine: whole FIPS 205 operations after the message
/// hashes, for the SHAKE sets. The PS computes R = PRF_msg and the digest
/// H_msg (one SHAKE call each) and splits the digest into md, idx_tree and
/// idx_leaf (FIPS 205 Algorithm 19, lines 6–12); the engine does the rest.
///
/// Every input stream starts with a fixed header of little-endian words:
/// each n-byte value padded with zero bytes to [`slhdsa::VALUE_WORDS`] words, md
/// padded to [`slhdsa::MD_WORDS`], idx_tree as two words (low word first) and
/// idx_leaf as one.
pub mod slhdsa {
    /// `ID` register value: ASCII "SLH1".
    pub const ID: u32 = u32::from_be_bytes(*b"SLH1");

    /// Operation: the top tree's root, PK.root (FIPS 205 Algorithm 18
    /// after the seeds). `ARG0` = parameter set ([`SETS`]; anything else is
    /// refused with `STATUS_ERROR`). Input stream: SK.seed ‖ PK.seed
    /// ([`KEYGEN_INPUT_WORDS`]), `TLAST` on the final word and nowhere else.
    /// Output stream: PK.root, n/4 words, `TLAST` on the final one.
    pub const OP_KEYGEN: u32 = 0x01;
    /// Operation: SIG_FORS ‖ SIG_HT of a digest (FIPS 205 Algorithm 19,
    /// lines 13–17). `ARG0` = parameter set. Input stream: SK.seed ‖
    /// PK.seed ‖ PK.root ‖ md ‖ idx_tree ‖ idx_leaf ([`SIGN_INPUT_WORDS`]),
    /// `TLAST` on the final word and nowhere else. Output stream: SIG_FORS ‖
    /// SIG_HT (`sig_bytes − n` bytes: the signature without R), then one
    /// verdict word with `TLAST`: [`VERDICT_VALID`] when the signature's
    /// top root is PK.root, [`VERDICT_INVALID`] when not (a wrong key or a
    /// fault: the signature must not be used). The top root depends on
    /// neither the message nor the lower layers, so a valid verdict checks
    /// the seeds and the top layer's tree only; [`OP_VERIFY`] checks the
    /// whole signature.
    pub const OP_SIGN: u32 = 0x02;
    /// Operation: FIPS 205 Algorithm 20 after the digest (lines 12–16).
    /// `ARG0` = parameter set. Input stream: PK.seed ‖ PK.root ‖ md ‖
    /// idx_tree ‖ idx_leaf ([`VERIFY_HEADER_WORDS`]), then SIG_FORS ‖ SIG_HT
    /// (the signature without R), `TLAST` on its final word and nowhere
    /// else. Output stream: one verdict word with `TLAST`. A stream of
    /// another length ends the request with `STATUS_ERROR` and no output
    /// word (a too-long one after draining it to its `TLAST`).
    pub const OP_VERIFY: u32 = 0x03;
    /// Operation: abandon whatever runs (also accepted while busy); the
    /// engine returns to idle with `STATUS_DONE | STATUS_ERROR`. Words left
    /// in the input stream are not drained: reset the DMA channel.
    pub const OP_ABORT: u32 = 0xFF;

    /// Output word of a valid signature (the ML-DSA engine's).
    pub const VERDICT_VALID: u32 = super::mldsa::VERDICT_VALID;
    /// Output word of an invalid signature (the ML-DSA engine's).
    pub const VERDICT_INVALID: u32 = super::mldsa::VERDICT_INVALID;

    /// The parameter sets by `ARG0`: their FIPS 205 names (the values are
    /// `pqc`'s).
    pub const SETS: [&str; 6] = [
        "SLH-DSA-SHAKE-128s",
        "SLH-DSA-SHAKE-128f",
        "SLH-DSA-SHAKE-192s",
        "SLH-DSA-SHAKE-192f",
        "SLH-DSA-SHAKE-256s",
        "SLH-DSA-SHAKE-256f",
    ];

    /// The SLH-DSA-SHA2 sets, at `ARG0` = [`SHA2_SET_BASE`] + index,
    /// taken only by an engine with [`CONFIG_SHA2`] (F and PRF on
    /// SHA-256; H and T_l on SHA-256 in category 1 and on SHA-512 in
    /// categories 3 and 5, FIPS 205 §11.2). Same header and streams as
    /// [`SETS`].
    pub const SHA2_SETS: [&str; 6] = [
        "SLH-DSA-SHA2-128s",
        "SLH-DSA-SHA2-128f",
        "SLH-DSA-SHA2-192s",
        "SLH-DSA-SHA2-192f",
        "SLH-DSA-SHA2-256s",
        "SLH-DSA-SHA2-256f",
    ];
    /// `ARG0` of [`SHA2_SETS`]\[0\]: after [`SETS`].
    pub const SHA2_SET_BASE: u32 = SETS.len() as u32;

    /// A bound on any job's `CYCLES`, for the drivers' waits (8.6 s at
    /// 125 MHz): the longest job, SLH-DSA-SHA2-192s signing, takes
    /// 332,549,481 PL clocks at the bus, SHA2-256s signing 313,551,783,
    /// SHA2-128s 172,287,009 and SHAKE-256s 138,257,947 (`hdl` asserts
    /// every SHAKE set's count under this bound, and measures the SHA2
    /// sets' against it).
    pub const MAX_JOB_CYCLES: u64 = 1 << 30;

    /// Words of each n-byte value in the header (n ≤ 32).
    pub const VALUE_WORDS: usize = 8;
    /// Words of md in the header (⌈k·a/8⌉ ≤ 40 bytes).
    pub const MD_WORDS: usize = 10;
    /// Words of idx_tree and idx_leaf in the header.
    pub const INDEX_WORDS: usize = 3;
    /// Input words of [`OP_KEYGEN`].
    pub const KEYGEN_INPUT_WORDS: usize = 2 * VALUE_WORDS;
    /// Input words of [`OP_SIGN`].
    pub const SIGN_INPUT_WORDS: usize = 3 * VALUE_WORDS + MD_WORDS + INDEX_WORDS;
    /// Header words of [`OP_VERIFY`], before the signature.
    pub const VERIFY_HEADER_WORDS: usize = 2 * VALUE_WORDS + MD_WORDS + INDEX_WORDS;
    /// Words of the [`OP_VERIFY`] input stream for a `sig_bytes` signature
    /// of an `n`-byte set (R is not sent).
    pub const fn verify_stream_words(n: usize, sig_bytes: usize) -> usize {
        VERIFY_HEADER_WORDS + (sig_bytes - n) / 4
    }

    /// `CONFIG` bits: the operations the engine runs (as [`super::mldsa`]).
    pub const CONFIG_KEYGEN: u32 = super::mldsa::CONFIG_KEYGEN;
    /// See [`CONFIG_KEYGEN`].
    pub const CONFIG_SIGN: u32 = super::mldsa::CONFIG_SIGN;
    /// See [`CONFIG_KEYGEN`].
    pub const CONFIG_VERIFY: u32 = super::mldsa::CONFIG_VERIFY;
    /// `CONFIG` bit: the engine takes [`SHA2_SETS`], on its SHA-256 and
    /// SHA-512 hash engine (and then not [`SETS`] unless its rounds field
    /// is non-zero).
    pub const CONFIG_SHA2: u32 = 1 << 3;
    /// `CONFIG` bits \[12:8\]: Keccak rounds per clock of the engine's
    /// sponge ([`crate::cores::SLHDSA_KECCAK_ROUNDS_PER_CLOCK`]; 0: no
    /// sponge, no SHAKE set).
    pub const CONFIG_ROUNDS_SHIFT: u32 = 8;
    /// Mask of the field at [`CONFIG_ROUNDS_SHIFT`].
    pub const CONFIG_ROUNDS_MASK: u32 = 0x1F;

    /// `CONFIG` of an engine that runs all three operations, with a
    /// sponge of `rounds_per_clock` Keccak rounds a clock (0: none) and,
    /// with `sha2`, the SHA-2 hash engine.
    pub const fn config(rounds_per_clock: u32, sha2: bool) -> u32 {
        let sha2_bit = if sha2 { CONFIG_SHA2 } else { 0 };
        CONFIG_KEYGEN
            | CONFIG_SIGN
            | CONFIG_VERIFY
            | sha2_bit
            | (rounds_per_clock & CONFIG_ROUNDS_MASK) << CONFIG_ROUNDS_SHIFT
    }

    /// `CONFIG` of the built engines configuration's SLH-DSA engine
    /// (`hdl::axi::EnginesAccel`): the shared sponge and the SHA-2 hash
    /// engine, so [`SETS`] and [`SHA2_SETS`], all twelve.
    pub const ENGINES_CONFIG: u32 = config(crate::cores::SLHDSA_KECCAK_ROUNDS_PER_CLOCK, true);

    /// The set an engine with `CONFIG` = `config` runs at `ARG0` = `arg`
    /// (its FIPS 205 name), or `None` where it answers `STATUS_ERROR`:
    /// [`SETS`] need a sponge (a non-zero rounds field), [`SHA2_SETS`]
    /// need [`CONFIG_SHA2`].
    pub fn set_name(arg: u32, config: u32) -> Option<&'static str> {
        let shake = (config >> CONFIG_ROUNDS_SHIFT) & CONFIG_ROUNDS_MASK != 0;
        let sha2 = config & CONFIG_SHA2 != 0;
        let index = usize::try_from(arg).ok()?;
        match index.checked_sub(SETS.len()) {
            None => shake.then_some(SETS[index]),
            Some(i) => SHA2_SETS.get(i).copied().filter(|_| sha2),
        }
    }

    /// `ARG0` of the set named `name` on an engine with `CONFIG` =
    /// `config`, or `None` if that engine does not run it (the inverse of
    /// [`set_name`]).
    pub fn set_arg(name: &str, config: u32) -> Option<u32> {
        let args = 0..(SETS.len() + SHA2_SETS.len()) as u32;
        args.into_iter()
            .find(|&arg| set_name(arg, config) == Some(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_lie_in_the_gp0_window_and_do_not_overlap() {
        // The slaves on GP0: the engines' window holds both engines' blocks.
        let mut bases = [
            NTT_BASE,
            KECCAK_BASE,
            ENGINES_BASE,
            NTT_DMA_BASE,
            KECCAK_DMA_BASE,
            ENGINES_DMA_BASE,
        ];
        bases.sort_unstable();
        for w in bases.windows(2) {
            assert!(w[0] + CTRL_WINDOW_BYTES <= w[1]);
        }
        for b in bases {
            assert!((PL_GP0_START..=PL_GP0_END - CTRL_WINDOW_BYTES + 1).contains(&b));
        }
        assert_eq!(MLDSA_BASE, ENGINES_BASE);
        assert_eq!(SLHDSA_BASE, ENGINES_BASE + ENGINE_BLOCK_BYTES);
        assert_eq!([MLDSA_DMA_BASE, SLHDSA_DMA_BASE], [ENGINES_DMA_BASE; 2]);
        assert_ne!(ntt::ID, 0);
        assert_ne!(keccak::ID, 0);
        assert_ne!(mldsa::ID, 0);
        assert_ne!(slhdsa::ID, 0);
    }

    #[test]
    fn slhdsa_sets_follow_the_engine_config() {
        use slhdsa::*;
        let shake_only = config(2, false);
        let sha2_only = config(0, true);
        assert_eq!(set_name(0, shake_only), Some("SLH-DSA-SHAKE-128s"));
        assert_eq!(set_name(5, shake_only), Some("SLH-DSA-SHAKE-256f"));
        assert_eq!(set_name(SHA2_SET_BASE, shake_only), None);
        assert_eq!(set_name(0, sha2_only), None);
        assert_eq!(set_name(SHA2_SET_BASE, sha2_only), Some(SHA2_SETS[0]));
        assert_eq!(set_name(SHA2_SET_BASE + 1, sha2_only), Some(SHA2_SETS[1]));
        assert_eq!(
            set_name(SHA2_SET_BASE + 5, sha2_only),
            Some("SLH-DSA-SHA2-256f")
        );
        for config in [shake_only, sha2_only, ENGINES_CONFIG, CONFIG_KEYGEN] {
            assert_eq!(set_name(SHA2_SET_BASE + 6, config), None);
            assert_eq!(set_name(u32::MAX, config), None);
            for arg in 0..SHA2_SET_BASE + 6 {
                let name = set_name(arg, config);
                assert_eq!(name.and_then(|n| set_arg(n, config)), name.map(|_| arg));
            }
        }
        assert_eq!(set_arg("SLH-DSA-SHA2-128f", ENGINES_CONFIG), Some(7));
        assert_eq!(set_arg("SLH-DSA-SHAKE-192f", ENGINES_CONFIG), Some(3));
        assert_eq!(set_arg("SLH-DSA-SHA2-192f", ENGINES_CONFIG), Some(9));
        assert_eq!(set_arg("SLH-DSA-SHA2-192f", shake_only), None);
        assert_eq!(set_arg("SLH-DSA-SHA2-256s", sha2_only), Some(10));
        assert_eq!(set_arg("SLH-DSA-SHAKE-128s", sha2_only), None);
        // An engine without a sponge field (rounds 0) runs no SHAKE set.
        assert_eq!(set_arg("SLH-DSA-SHAKE-128s", CONFIG_KEYGEN), None);
        assert_eq!(ENGINES_CONFIG & 0xF, 0xF);
    }

    #[test]
    fn the_output_check_catches_a_changed_word() {
        let words: [u32; 40] = core::array::from_fn(|i| (i as u32).wrapping_mul(0x9E37_79B9));
        let check = mldsa::output_check(words);
        assert_ne!(check, mldsa::output_check([]));
        assert_eq!(mldsa::output_check([]), mldsa::OUTPUT_CHECK_SEED);
        for i in 0..words.len() {
            for bit in [0, 7, 31] {
                let mut bad = words;
                bad[i] ^= 1 << bit;
                assert_ne!(mldsa::output_check(bad), check, "word {i} bit {bit}");
            }
        }
        // Two words swapped.
        let mut swapped = words;
        swapped.swap(3, 4);
        assert_ne!(mldsa::output_check(swapped), check);
    }
}
