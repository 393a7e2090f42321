//! Simulation tests of the SHA-2 cores against the RustCrypto `sha2`
//! crate (compression functions and whole hashes), the FIPS 180-4 example
//! digests, misuse, and the yosys check.

use super::core::{clocks_per_block, Sha2Core, BLOCK_WORDS};
use crate::ntt::sim::{settle, tick, Lcg};
use rust_hdl::prelude::*;
use sha2::digest::generic_array::GenericArray;
use sha2::Digest;

/// Clocks after which a job that has not finished counts as hung.
const HANG_LIMIT: u64 = 1_000;

fn mask(w: usize) -> u64 {
    if w == 64 {
        u64::MAX
    } else {
        (1 << w) - 1
    }
}

fn random_word(rng: &mut Lcg, w: usize) -> u64 {
    ((u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32())) & mask(w)
}

/// The `sha2` crate's compression of one block (words big endian).
fn reference(w: usize, state: &[u64; 8], block: &[u64; BLOCK_WORDS]) -> [u64; 8] {
    if w == 32 {
        let mut s = state.map(|x| x as u32);
        let bytes: Vec<u8> = block
            .iter()
            .flat_map(|&x| (x as u32).to_be_bytes())
            .collect();
        sha2::compress256(&mut s, &[GenericArray::clone_from_slice(&bytes)]);
        s.map(u64::from)
    } else {
        let mut s = *state;
        let bytes: Vec<u8> = block.iter().flat_map(|&x| x.to_be_bytes()).collect();
        sha2::compress512(&mut s, &[GenericArray::clone_from_slice(&bytes)]);
        s
    }
}

fn iv(w: usize) -> [u64; 8] {
    if w == 32 {
        super::IV256.map(u64::from)
    } else {
        super::IV512
    }
}

/// FIPS 180-4 §5.1 padding and §5.2 parsing: the message as blocks of
/// big-endian words.
fn padded_blocks(w: usize, message: &[u8]) -> Vec<[u64; BLOCK_WORDS]> {
    let word_bytes = w / 8;
    let block_bytes = 16 * word_bytes;
    let length_bytes = 2 * word_bytes;
    let mut m = message.to_vec();
    m.push(0x80);
    while m.len() % block_bytes != block_bytes - length_bytes {
        m.push(0);
    }
    let bits = (message.len() as u128) * 8;
    m.extend_from_slice(&bits.to_be_bytes()[16 - length_bytes..]);
    m.chunks(block_bytes)
        .map(|b| {
            core::array::from_fn(|i| {
                b[i * word_bytes..(i + 1) * word_bytes]
                    .iter()
                    .fold(0u64, |acc, &x| (acc << 8) | u64::from(x))
            })
        })
        .collect()
}

/// A clock-by-clock driver of a core.
struct Bench<const W: usize> {
    uut: Sha2Core<W>,
    cycles: u64,
}

impl<const W: usize> Bench<W> {
    fn new() -> Self {
        let mut uut = Sha2Core::<W>::default();
        uut.connect_all();
        settle(&mut uut);
        let mut bench = Self { uut, cycles: 0 };
        bench.uut.reset.next = true;
        bench.clock();
        bench.uut.reset.next = false;
        bench
    }

    fn clock(&mut self) {
        tick(&mut self.uut, |u| &mut u.clock);
        self.cycles += 1;
    }

    fn idle_inputs(&mut self) {
        self.uut.start.next = false;
        self.uut.init_from_port.next = false;
        self.uut.load_state.next = false;
        self.uut.word_valid.next = false;
        self.uut.reset.next = false;
    }

    fn load_state(&mut self, h: &[u64; 8]) {
        for &x in h {
            self.uut.load_state.next = true;
            self.uut.word_in.next = x.into();
            self.clock();
        }
        self.uut.load_state.next = false;
    }

    /// H0..H7 through `out_index`, checked against `chain_value`.
    fn read_state(&mut self) -> [u64; 8] {
        let state = core::array::from_fn(|i| {
            self.uut.out_index.next = (i as u64).into();
            settle(&mut self.uut);
            self.uut.out_word.val().to_u64()
        });
        let parallel: [u64; 8] = core::array::from_fn(|i| self.uut.chain_value[i].val().to_u64());
        assert_eq!(parallel, state, "chain_value against out_word");
        state
    }

    /// Offers `value` on `init_value` with `init_from_port` for the next
    /// `compress` (which clears them when it ends).
    fn offer_start_value(&mut self, value: &[u64; 8]) {
        self.uut.init_from_port.next = true;
        for (port, &x) in self.uut.init_value.iter_mut().zip(value) {
            port.next = x.into();
        }
    }

    /// Runs one compression; `gap(t)` says whether word t is held back for
    /// a clock before it is offered (a stalling source). Returns the clocks
    /// from the `start` clock to `done` (inclusive of both edges' clocks).
    fn compress(
        &mut self,
        from_iv: bool,
        block: &[u64; BLOCK_WORDS],
        mut gap: impl FnMut(usize) -> bool,
    ) -> u64 {
        assert!(!self.uut.busy.val(), "compress called while busy");
        let begin = self.cycles;
        let mut next = 0;
        let mut held = gap(0);
        self.uut.start.next = true;
        self.uut.init_from_iv.next = from_iv;
        loop {
            self.uut.word_valid.next = next < BLOCK_WORDS && !held;
            if next < BLOCK_WORDS {
                self.uut.word_in.next = block[next].into();
            }
            settle(&mut self.uut);
            let taken = self.uut.word_valid.val() && self.uut.word_ready.val();
            self.clock();
            self.uut.start.next = false;
            if taken {
                next += 1;
                held = next < BLOCK_WORDS && gap(next);
            } else {
                held = false;
            }
            if self.uut.done.val() {
                break;
            }
            assert!(self.cycles - begin < HANG_LIMIT, "core hung");
        }
        assert_eq!(next, BLOCK_WORDS, "words taken");
        assert!(!self.uut.busy.val());
        self.idle_inputs();
        self.cycles - begin
    }

    fn hash(&mut self, message: &[u8]) -> Vec<u8> {
        for (i, block) in padded_blocks(W, message).iter().enumerate() {
            let clocks = self.compress(i == 0, block, |_| false);
            assert_eq!(clocks, clocks_per_block(W) as u64);
        }
        self.read_state()
            .iter()
            .flat_map(|&x| x.to_be_bytes()[8 - W / 8..].to_vec())
            .collect()
    }
}

/// Random chaining values (loaded word-serially, or offered on
/// `init_value`) and random blocks, some from the IV (which wins over a
/// start value offered with it) and some chained on the held value; exact
/// clock count. A start value offered without `start`, or with
/// `init_from_port` low, changes nothing.
fn random_compressions<const W: usize>(count: usize, seed: u64) {
    let mut bench = Bench::<W>::new();
    let mut rng = Lcg::new(seed);
    let mut state = [0u64; 8];
    for n in 0..count {
        let block: [u64; BLOCK_WORDS] = core::array::from_fn(|_| random_word(&mut rng, W));
        let from_iv = n % 5 == 1;
        let offered: [u64; 8] = core::array::from_fn(|_| random_word(&mut rng, W));
        if n % 3 == 0 {
            state = core::array::from_fn(|_| random_word(&mut rng, W));
            bench.load_state(&state);
            assert_eq!(bench.read_state(), state, "load_state, block {n}");
        }
        if n % 4 == 2 {
            // Offered while idle without start: the held value stays.
            bench.offer_start_value(&offered);
            bench.clock();
            bench.idle_inputs();
            assert_eq!(bench.read_state(), state, "idle offer, block {n}");
        }
        // The value is on the port either way; only `init_from_port` says
        // whether the start takes it.
        let from_port = n % 2 == 0;
        bench.offer_start_value(&offered);
        bench.uut.init_from_port.next = from_port;
        let start = match (from_iv, from_port) {
            (true, _) => iv(W),
            (false, true) => offered,
            (false, false) => state,
        };
        let expected = reference(W, &start, &block);
        let clocks = bench.compress(from_iv, &block, |_| false);
        assert_eq!(clocks, clocks_per_block(W) as u64, "clocks, block {n}");
        assert_eq!(bench.read_state(), expected, "block {n}");
        state = expected;
    }
}

#[test]
fn sha256_core_matches_compress256_on_random_blocks() {
    random_compressions::<32>(30, 2561);
}

#[test]
fn sha512_core_matches_compress512_on_random_blocks() {
    random_compressions::<64>(24, 5121);
}

/// Words offered with random gaps: the rounds wait for them, and the
/// clock count grows by exactly the number of gap clocks.
fn stalled_compressions<const W: usize>(count: usize, seed: u64) {
    let mut bench = Bench::<W>::new();
    let mut rng = Lcg::new(seed);
    for n in 0..count {
        let state: [u64; 8] = core::array::from_fn(|_| random_word(&mut rng, W));
        let block: [u64; BLOCK_WORDS] = core::array::from_fn(|_| random_word(&mut rng, W));
        bench.load_state(&state);
        let mut gaps = 0u64;
        let clocks = bench.compress(false, &block, |_| {
            let g = rng.next_u32() % 3 == 0;
            gaps += u64::from(g);
            g
        });
        assert_eq!(clocks, clocks_per_block(W) as u64 + gaps, "block {n}");
        assert_eq!(
            bench.read_state(),
            reference(W, &state, &block),
            "block {n}"
        );
    }
}

#[test]
fn sha256_core_waits_for_late_words() {
    stalled_compressions::<32>(12, 2562);
}

#[test]
fn sha512_core_waits_for_late_words() {
    stalled_compressions::<64>(8, 5122);
}

/// The FIPS 180-4 examples (one-block "abc", the two-block 448-bit and
/// 896-bit messages) against the published digests and the `sha2` crate,
/// and messages of every length class across the block boundary.
#[test]
fn sha256_core_hashes_messages() {
    let mut bench = Bench::<32>::new();
    let abc = bench.hash(b"abc");
    assert_eq!(
        abc,
        hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    );
    let m448 = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    assert_eq!(padded_blocks(32, m448).len(), 2);
    assert_eq!(
        bench.hash(m448),
        hex("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    );
    let mut rng = Lcg::new(2563);
    for len in [0, 1, 55, 56, 63, 64, 65, 119, 120, 200] {
        let m: Vec<u8> = (0..len).map(|_| rng.next_u32() as u8).collect();
        assert_eq!(
            bench.hash(&m),
            sha2::Sha256::digest(&m).to_vec(),
            "len {len}"
        );
    }
}

#[test]
fn sha512_core_hashes_messages() {
    let mut bench = Bench::<64>::new();
    assert_eq!(
        bench.hash(b"abc"),
        hex(concat!(
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a",
            "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        ))
    );
    let m896 = concat!(
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn",
        "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
    );
    assert_eq!(padded_blocks(64, m896.as_bytes()).len(), 2);
    assert_eq!(
        bench.hash(m896.as_bytes()),
        hex(concat!(
            "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018",
            "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"
        ))
    );
    let mut rng = Lcg::new(5123);
    for len in [0, 1, 111, 112, 127, 128, 129, 239, 240, 300] {
        let m: Vec<u8> = (0..len).map(|_| rng.next_u32() as u8).collect();
        assert_eq!(
            bench.hash(&m),
            sha2::Sha512::digest(&m).to_vec(),
            "len {len}"
        );
    }
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Misuse: `start`, `init_from_port`, `load_state` and words while busy
/// are ignored; words without `start` while idle are not taken; `reset`
/// in any clock of a job returns to idle at once, keeps the chaining
/// value, and the next job is correct; nothing hangs.
fn misuse<const W: usize>(seed: u64) {
    let mut bench = Bench::<W>::new();
    let mut rng = Lcg::new(seed);
    let state: [u64; 8] = core::array::from_fn(|_| random_word(&mut rng, W));
    let block: [u64; BLOCK_WORDS] = core::array::from_fn(|_| random_word(&mut rng, W));

    // Idle: words offered without start are not taken and change nothing.
    bench.load_state(&state);
    for _ in 0..5 {
        bench.uut.word_valid.next = true;
        bench.uut.word_in.next = random_word(&mut rng, W).into();
        settle(&mut bench.uut);
        assert!(!bench.uut.word_ready.val());
        bench.clock();
        assert!(!bench.uut.busy.val());
    }
    bench.idle_inputs();
    assert_eq!(bench.read_state(), state);

    // Busy: start (from the IV), load_state and extra words in every clock
    // after the 16 words are ignored; the result and clock count are those
    // of the first start.
    let begin = bench.cycles;
    bench.uut.start.next = true;
    bench.uut.init_from_iv.next = false;
    let mut next = 0;
    while next < BLOCK_WORDS {
        bench.uut.word_valid.next = true;
        bench.uut.word_in.next = block[next].into();
        settle(&mut bench.uut);
        assert!(bench.uut.word_ready.val());
        bench.clock();
        next += 1;
        bench.uut.init_from_iv.next = true;
        bench.uut.init_from_port.next = true;
        bench.uut.load_state.next = true;
    }
    while !bench.uut.done.val() {
        bench.uut.word_in.next = random_word(&mut rng, W).into();
        settle(&mut bench.uut);
        assert!(!bench.uut.word_ready.val());
        assert!(bench.uut.busy.val());
        bench.clock();
        assert!(bench.cycles - begin < HANG_LIMIT, "hung");
    }
    assert_eq!(bench.cycles - begin, clocks_per_block(W) as u64);
    bench.idle_inputs();
    let after = reference(W, &state, &block);
    assert_eq!(bench.read_state(), after);

    // Reset in every clock position of a job (plus a few while idle).
    for at in 0..clocks_per_block(W) as u64 + 3 {
        bench.load_state(&state);
        let begin = bench.cycles;
        bench.uut.start.next = true;
        bench.uut.init_from_iv.next = false;
        let mut next = 0;
        while bench.cycles - begin < at {
            bench.uut.word_valid.next = next < BLOCK_WORDS;
            bench.uut.word_in.next = block[next.min(BLOCK_WORDS - 1)].into();
            settle(&mut bench.uut);
            let taken = bench.uut.word_ready.val() && bench.uut.word_valid.val();
            bench.clock();
            bench.uut.start.next = false;
            next += usize::from(taken);
        }
        bench.idle_inputs();
        bench.uut.reset.next = true;
        bench.uut.start.next = true;
        bench.uut.word_valid.next = true;
        settle(&mut bench.uut);
        assert!(!bench.uut.word_ready.val(), "ready during reset");
        bench.clock();
        bench.idle_inputs();
        settle(&mut bench.uut);
        assert!(!bench.uut.busy.val(), "busy after reset at {at}");
        assert!(!bench.uut.done.val(), "done after reset at {at}");
        // Idle stays idle.
        bench.clock();
        assert!(!bench.uut.busy.val());
        // A fresh job from a reloaded state is correct.
        bench.load_state(&state);
        let clocks = bench.compress(false, &block, |_| false);
        assert_eq!(clocks, clocks_per_block(W) as u64);
        assert_eq!(bench.read_state(), after, "job after reset at {at}");
    }
}

#[test]
fn sha256_core_ignores_misuse_and_resets_from_any_state() {
    misuse::<32>(2564);
}

#[test]
fn sha512_core_ignores_misuse_and_resets_from_any_state() {
    misuse::<64>(5124);
}

#[test]
fn sha2_cores_yosys_validate() {
    let mut uut = super::Sha256Core::default();
    uut.connect_all();
    yosys_validate("sha256_core", &generate_verilog(&uut)).unwrap();
    let mut uut = super::Sha512Core::default();
    uut.connect_all();
    yosys_validate("sha512_core", &generate_verilog(&uut)).unwrap();
}

/// Every design of [`super::designs`] (both cores and the hash engine
/// `sha256_tweak`) is at or under [`CELL_DELAY_BUDGET_NS`] of cell delay on
/// its worst path in the yosys timing estimate (the flow of `hdl timing`:
/// `synth_xilinx -abc9`, `sta` with the `cells_sim.v` delays).
///
/// [`CELL_DELAY_BUDGET_NS`]: crate::export::CELL_DELAY_BUDGET_NS
#[test]
fn sha2_cores_meet_the_cell_delay_budget() {
    crate::export::assert_designs_meet_cell_delay_budget(&super::designs());
}
