//! The SHA-2 compression core: one compression of one message block per
//! job (FIPS 180-4 §6.2.2 / §6.4.2), one round per clock, word-serial in
//! and out. `W` is the word width: 32 for SHA-256 (64 rounds, 512-bit
//! block), 64 for SHA-512 (80 rounds, 1024-bit block). R below is the
//! number of rounds.
//!
//! # Interface
//!
//! All inputs are sampled at the rising edge of `clock`.
//!
//! - `reset` (synchronous, active high, wins over everything): the core is
//!   idle after the clock. The chaining value is not cleared: it holds the
//!   start value of an interrupted job (see `start`).
//! - `load_state` (idle only): shifts `word_in` into the chaining value,
//!   H0 ← H1 ← … ← H7 ← `word_in`; eight clocks load H0..H7 in order.
//!   (The SLH-DSA hash engines start from `init_value` instead, with no
//!   clock of loading; until stop 44 the SHA-256 one reloaded the state
//!   after the PK.seed block this way before every block.)
//! - `start` (taken when idle, i.e. `busy` low): starts a compression from
//!   the SHA IV when `init_from_iv` is set, else from `init_value` when
//!   `init_from_port` is set (e.g. the SLH-DSA state after the PK.seed
//!   block, kept outside the core: no reload clocks), else from the
//!   chaining value held in the core (a multi-block message chains without
//!   reloading). The start value becomes the chaining value, so the result
//!   is always H ← start value + compression.
//! - `word_in`/`word_valid`/`word_ready`: the message words W_0..W_15, big
//!   endian as FIPS 180-4 reads them, one per clock where both valid and
//!   ready are high. `word_ready` is high in the `start` clock (so W_0 may
//!   come with `start`; `word_ready` is combinational from `start` and
//!   `reset`, never from `word_valid`) and until W_15 is taken; round t runs in the clock
//!   that takes W_{t+1}, so there is no load phase, and a missing word stalls
//!   the core (each clock without the asked-for word adds one clock to
//!   the count below). Rounds 16..R−1 take W_t from the message schedule in the
//!   15-word shift register plus the precomputed next word.
//! - `out_index`/`out_word`: H\[`out_index`\] of the chaining value
//!   (combinational from the registers); the digest is H0..H7 big endian.
//!   `chain_value` shows all eight words at once (the registers), so the
//!   digest can be taken in the `done` clock while the next `start` is.
//! - `busy`: a compression is in progress; `done`: one-clock pulse, the
//!   chaining value holds the result (`busy` falls in the same clock).
//!
//! # Clock counts
//!
//! With every word valid when asked, a block takes exactly R + 2 clocks
//! (66 for SHA-256, 82 for SHA-512, asserted by the tests): `done` is high
//! after the (R + 2)-th rising edge counted from the one that takes
//! `start`. The `start` clock takes W_0, the next R − 1 clocks take
//! W_1..W_{R−1} (from the input for t < 16) and run rounds 0..R−2, one clock
//! runs round R−1 and one adds the working variables into the chaining
//! value. `start` may come again in the `done` clock, so back-to-back blocks
//! cost R + 2 clocks each, also when each starts from `init_value` and the
//! digest is taken from `chain_value` in the `done` clock. Loading a
//! chaining value with `load_state` takes 8 clocks and reading the digest
//! through `out_index` one clock per word; neither overlaps a compression.
//!
//! # Timing
//!
//! The naive round, T1 = h + Σ1(e) + Ch(e,f,g) + K_t + W_t followed by
//! a = T1 + T2, is two carry chains deep. Here:
//!
//! - h + K_t + W_t is added a clock ahead into the register `p` (h of round
//!   t is g of round t − 1; W_0 meets the initial h); K_t comes from the ROM
//!   into a register a clock before that, and W_t (t ≥ 16) from the message
//!   schedule is also computed a clock ahead into `w_next`.
//! - e' = d + p + Σ1 + Ch and a' = p + Σ1 + Ch + Σ0 + Maj are carry-save
//!   trees (T1 = p + Σ1 + Ch shared as two vectors) ending in one adder each.
//! - On SHA-512 that adder is carry-select: the upper 32 bits are added for
//!   both carries in, beside the lower 32 bits, which halves the chain.
//! - The schedule taps are flip-flops with a reset, so yosys does not end
//!   its shift-register chains in SRL16E outputs (1.5 ns clock-to-out) right
//!   before an adder; the stages between the taps stay SRL16E.
//!
//! Measured figures are in the [`super`] module documentation.

use rust_hdl::prelude::*;

/// Words of a message block.
pub const BLOCK_WORDS: usize = 16;

/// SHA-256 compression core (32-bit words, 64 rounds).
pub type Sha256Core = Sha2Core<32>;
/// SHA-512 compression core (64-bit words, 80 rounds).
pub type Sha512Core = Sha2Core<64>;

/// The per-variant numbers of FIPS 180-4 §4.1.2/§4.1.3: rotation and shift
/// amounts of Σ0, Σ1, σ0, σ1, the round count, the IV and the constants.
struct Params {
    rounds: usize,
    /// Width of the lower half of the carry-select adders of a' and e';
    /// the word width means one plain adder.
    split: u64,
    big_sigma0: [u64; 3],
    big_sigma1: [u64; 3],
    /// Two rotations and a shift.
    small_sigma0: [u64; 3],
    small_sigma1: [u64; 3],
    iv: [u64; 8],
    k: Vec<u64>,
}

fn params(w: usize) -> Params {
    match w {
        32 => Params {
            rounds: rounds(32),
            split: 32,
            big_sigma0: [2, 13, 22],
            big_sigma1: [6, 11, 25],
            small_sigma0: [7, 18, 3],
            small_sigma1: [17, 19, 10],
            iv: super::IV256.map(u64::from),
            k: super::K256.iter().map(|&k| u64::from(k)).collect(),
        },
        64 => Params {
            rounds: rounds(64),
            split: 32,
            big_sigma0: [28, 34, 39],
            big_sigma1: [14, 18, 41],
            small_sigma0: [1, 8, 7],
            small_sigma1: [19, 61, 6],
            iv: super::IV512,
            k: super::K512.to_vec(),
        },
        _ => panic!("SHA-2 cores exist for 32- and 64-bit words, not {w}"),
    }
}

/// Rounds R of the `W`-bit variant: 64 (SHA-256) or 80 (SHA-512).
pub const fn rounds(w: usize) -> usize {
    if w == 32 {
        64
    } else {
        80
    }
}

/// Clocks from the `start` clock to `done` with every word valid when asked.
pub const fn clocks_per_block(w: usize) -> usize {
    rounds(w) + 2
}

/// The SHA-2 compression core; see the module documentation.
#[derive(LogicBlock)]
pub struct Sha2Core<const W: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset to idle (the chaining value is kept).
    pub reset: Signal<In, Bit>,
    /// Start a compression (taken when not busy).
    pub start: Signal<In, Bit>,
    /// With `start`: begin from the IV instead of the held chaining value.
    pub init_from_iv: Signal<In, Bit>,
    /// With `start` and not `init_from_iv`: begin from `init_value`.
    pub init_from_port: Signal<In, Bit>,
    /// The start value H0..H7 that `init_from_port` takes.
    pub init_value: [Signal<In, Bits<W>>; 8],
    /// Shift `word_in` into the chaining value (when idle).
    pub load_state: Signal<In, Bit>,
    /// Message word (or chaining-value word with `load_state`).
    pub word_in: Signal<In, Bits<W>>,
    /// `word_in` holds the next message word.
    pub word_valid: Signal<In, Bit>,
    /// The core takes a message word this clock if `word_valid`.
    pub word_ready: Signal<Out, Bit>,
    /// Which chaining-value word `out_word` shows.
    pub out_index: Signal<In, Bits<3>>,
    /// H\[`out_index`\].
    pub out_word: Signal<Out, Bits<W>>,
    /// The chaining value H0..H7.
    pub chain_value: [Signal<Out, Bits<W>>; 8],
    /// A compression is in progress.
    pub busy: Signal<Out, Bit>,
    /// One-clock pulse: the compression finished, the result is in H.
    pub done: Signal<Out, Bit>,
    /// Chaining value H0..H7.
    cv: [DFF<Bits<W>>; 8],
    /// Working variables a..h.
    v: [DFF<Bits<W>>; 8],
    /// The 15 newest message words, `sched[14]` the newest.
    sched: [DFF<Bits<W>>; 15],
    /// The message-schedule word for the next clock.
    w_next: DFF<Bits<W>>,
    /// h + K_t + W_t of the next round.
    p: DFF<Bits<W>>,
    /// K of the word the next advance takes (K\[`count`\]).
    k: DFF<Bits<W>>,
    k_rom: ROM<Bits<W>, 7>,
    running: DFF<Bit>,
    /// Advances done in this job: advance t takes W_t (t < R) and runs
    /// round t − 1 (1 ≤ t ≤ R); advance R + 1 adds into the chaining value.
    count: DFF<Bits<7>>,
    done_r: DFF<Bit>,
    taken: Signal<Local, Bit>,
    advance: Signal<Local, Bit>,
    count_next: Signal<Local, Bits<7>>,
    init: [Signal<Local, Bits<W>>; 8],
    w_cur: Signal<Local, Bits<W>>,
    h_sel: Signal<Local, Bits<W>>,
    p_next: Signal<Local, Bits<W>>,
    big_sigma0: Signal<Local, Bits<W>>,
    big_sigma1: Signal<Local, Bits<W>>,
    ch: Signal<Local, Bits<W>>,
    maj: Signal<Local, Bits<W>>,
    s1: Signal<Local, Bits<W>>,
    c1: Signal<Local, Bits<W>>,
    se: Signal<Local, Bits<W>>,
    ce: Signal<Local, Bits<W>>,
    s2: Signal<Local, Bits<W>>,
    c2: Signal<Local, Bits<W>>,
    sa: Signal<Local, Bits<W>>,
    ca: Signal<Local, Bits<W>>,
    e_lo: Signal<Local, Bits<W>>,
    e_hi0: Signal<Local, Bits<W>>,
    e_hi1: Signal<Local, Bits<W>>,
    a_lo: Signal<Local, Bits<W>>,
    a_hi0: Signal<Local, Bits<W>>,
    a_hi1: Signal<Local, Bits<W>>,
    new_a: Signal<Local, Bits<W>>,
    new_e: Signal<Local, Bits<W>>,
    small_sigma0: Signal<Local, Bits<W>>,
    small_sigma1: Signal<Local, Bits<W>>,
    w_sched: Signal<Local, Bits<W>>,
    iv: [Constant<Bits<W>>; 8],
    /// Rotations as `(x >> r) | (x << (W − r))`: Σ0 ×3, Σ1 ×3, σ0 ×2, σ1 ×2.
    rot_right: [Constant<Bits<W>>; 10],
    rot_left: [Constant<Bits<W>>; 10],
    /// The shifts of σ0 and σ1.
    shift_right: [Constant<Bits<W>>; 2],
    /// The carry-select split S (see [`Params`]), 2^S − 1, 2^S (0 for no
    /// split) and 1.
    half: Constant<Bits<W>>,
    lo_mask: Constant<Bits<W>>,
    half_carry: Constant<Bits<W>>,
    one: Constant<Bits<W>>,
    last_round: Constant<Bits<7>>,
    final_count: Constant<Bits<7>>,
}

impl<const W: usize> Default for Sha2Core<W> {
    fn default() -> Self {
        let p = params(W);
        let rot = [
            p.big_sigma0[0],
            p.big_sigma0[1],
            p.big_sigma0[2],
            p.big_sigma1[0],
            p.big_sigma1[1],
            p.big_sigma1[2],
            p.small_sigma0[0],
            p.small_sigma0[1],
            p.small_sigma1[0],
            p.small_sigma1[1],
        ];
        let w = W as u64;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            init_from_iv: Default::default(),
            init_from_port: Default::default(),
            init_value: Default::default(),
            load_state: Default::default(),
            word_in: Default::default(),
            word_valid: Default::default(),
            word_ready: Default::default(),
            out_index: Default::default(),
            out_word: Default::default(),
            chain_value: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            cv: Default::default(),
            v: Default::default(),
            sched: Default::default(),
            w_next: Default::default(),
            p: Default::default(),
            k: Default::default(),
            k_rom: ROM::new(
                p.k.iter()
                    .enumerate()
                    .map(|(i, &k)| ((i as u64).into(), k.into()))
                    .collect(),
            ),
            running: Default::default(),
            count: Default::default(),
            done_r: Default::default(),
            taken: Default::default(),
            advance: Default::default(),
            count_next: Default::default(),
            init: Default::default(),
            w_cur: Default::default(),
            h_sel: Default::default(),
            p_next: Default::default(),
            big_sigma0: Default::default(),
            big_sigma1: Default::default(),
            ch: Default::default(),
            maj: Default::default(),
            s1: Default::default(),
            c1: Default::default(),
            se: Default::default(),
            ce: Default::default(),
            s2: Default::default(),
            c2: Default::default(),
            sa: Default::default(),
            ca: Default::default(),
            e_lo: Default::default(),
            e_hi0: Default::default(),
            e_hi1: Default::default(),
            a_lo: Default::default(),
            a_hi0: Default::default(),
            a_hi1: Default::default(),
            new_a: Default::default(),
            new_e: Default::default(),
            small_sigma0: Default::default(),
            small_sigma1: Default::default(),
            w_sched: Default::default(),
            iv: p.iv.map(|x| Constant::new(x.into())),
            rot_right: rot.map(|r| Constant::new(r.into())),
            rot_left: rot.map(|r| Constant::new((w - r).into())),
            shift_right: [p.small_sigma0[2], p.small_sigma1[2]].map(|s| Constant::new(s.into())),
            half: Constant::new(p.split.into()),
            lo_mask: Constant::new((u64::MAX >> (64 - p.split)).into()),
            half_carry: Constant::new((if p.split < w { 1u64 << p.split } else { 0 }).into()),
            one: Constant::new(1u64.into()),
            last_round: Constant::new((p.rounds as u64).into()),
            final_count: Constant::new((p.rounds as u64 + 1).into()),
        }
    }
}

impl<const W: usize> Logic for Sha2Core<W> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..8 {
            self.cv[i].clock.next = self.clock.val();
            self.cv[i].d.next = self.cv[i].q.val();
            self.v[i].clock.next = self.clock.val();
            self.v[i].d.next = self.v[i].q.val();
            self.init[i].next = self.cv[i].q.val();
            if self.init_from_port.val() {
                self.init[i].next = self.init_value[i].val();
            }
            if self.init_from_iv.val() {
                self.init[i].next = self.iv[i].val();
            }
            self.chain_value[i].next = self.cv[i].q.val();
        }
        for i in 0..15 {
            self.sched[i].clock.next = self.clock.val();
            self.sched[i].d.next = self.sched[i].q.val();
        }
        dff_setup!(self, clock, w_next, p, k, running, count, done_r);

        // The round on a..h = v[0..8]: T1 = p + Σ1(e) + Ch(e, f, g) with
        // p = h + K_t + W_t from the clock before.
        self.big_sigma0.next = ((self.v[0].q.val() >> self.rot_right[0].val())
            | (self.v[0].q.val() << self.rot_left[0].val()))
            ^ ((self.v[0].q.val() >> self.rot_right[1].val())
                | (self.v[0].q.val() << self.rot_left[1].val()))
            ^ ((self.v[0].q.val() >> self.rot_right[2].val())
                | (self.v[0].q.val() << self.rot_left[2].val()));
        self.big_sigma1.next = ((self.v[4].q.val() >> self.rot_right[3].val())
            | (self.v[4].q.val() << self.rot_left[3].val()))
            ^ ((self.v[4].q.val() >> self.rot_right[4].val())
                | (self.v[4].q.val() << self.rot_left[4].val()))
            ^ ((self.v[4].q.val() >> self.rot_right[5].val())
                | (self.v[4].q.val() << self.rot_left[5].val()));
        self.ch.next =
            (self.v[4].q.val() & self.v[5].q.val()) | (!self.v[4].q.val() & self.v[6].q.val());
        self.maj.next = (self.v[0].q.val() & self.v[1].q.val())
            | (self.v[0].q.val() & self.v[2].q.val())
            | (self.v[1].q.val() & self.v[2].q.val());
        // Carry-save: T1 = p + Σ1 + Ch as s1 + c1, then e' = s1 + c1 + d and
        // a' = s1 + c1 + Σ0 + Maj reduced to two operands each.
        self.s1.next = self.p.q.val() ^ self.big_sigma1.val() ^ self.ch.val();
        self.c1.next = ((self.p.q.val() & self.big_sigma1.val())
            | (self.p.q.val() & self.ch.val())
            | (self.big_sigma1.val() & self.ch.val()))
            << 1;
        self.se.next = self.s1.val() ^ self.c1.val() ^ self.v[3].q.val();
        self.ce.next = ((self.s1.val() & self.c1.val())
            | (self.s1.val() & self.v[3].q.val())
            | (self.c1.val() & self.v[3].q.val()))
            << 1;
        self.s2.next = self.s1.val() ^ self.c1.val() ^ self.big_sigma0.val();
        self.c2.next = ((self.s1.val() & self.c1.val())
            | (self.s1.val() & self.big_sigma0.val())
            | (self.c1.val() & self.big_sigma0.val()))
            << 1;
        self.sa.next = self.s2.val() ^ self.c2.val() ^ self.maj.val();
        self.ca.next = ((self.s2.val() & self.c2.val())
            | (self.s2.val() & self.maj.val())
            | (self.c2.val() & self.maj.val()))
            << 1;
        // Carry-select: the upper half is added for both carries in, in
        // parallel with the lower half, so the carry chain is W/2 long.
        self.e_lo.next =
            (self.se.val() & self.lo_mask.val()) + (self.ce.val() & self.lo_mask.val());
        self.e_hi0.next = (self.se.val() >> self.half.val()) + (self.ce.val() >> self.half.val());
        self.e_hi1.next = (self.se.val() >> self.half.val())
            + (self.ce.val() >> self.half.val())
            + self.one.val();
        self.new_e.next =
            (self.e_lo.val() & self.lo_mask.val()) | (self.e_hi0.val() << self.half.val());
        if (self.e_lo.val() & self.half_carry.val()).any() {
            self.new_e.next =
                (self.e_lo.val() & self.lo_mask.val()) | (self.e_hi1.val() << self.half.val());
        }
        self.a_lo.next =
            (self.sa.val() & self.lo_mask.val()) + (self.ca.val() & self.lo_mask.val());
        self.a_hi0.next = (self.sa.val() >> self.half.val()) + (self.ca.val() >> self.half.val());
        self.a_hi1.next = (self.sa.val() >> self.half.val())
            + (self.ca.val() >> self.half.val())
            + self.one.val();
        self.new_a.next =
            (self.a_lo.val() & self.lo_mask.val()) | (self.a_hi0.val() << self.half.val());
        if (self.a_lo.val() & self.half_carry.val()).any() {
            self.new_a.next =
                (self.a_lo.val() & self.lo_mask.val()) | (self.a_hi1.val() << self.half.val());
        }

        // The message schedule one word ahead: with sched[14] = W_{t-1} in
        // the clock that takes W_t, this is W_{t+1} = σ1(W_{t-1}) + W_{t-6}
        // + σ0(W_{t-14}) + W_{t-15}.
        self.small_sigma0.next = ((self.sched[1].q.val() >> self.rot_right[6].val())
            | (self.sched[1].q.val() << self.rot_left[6].val()))
            ^ ((self.sched[1].q.val() >> self.rot_right[7].val())
                | (self.sched[1].q.val() << self.rot_left[7].val()))
            ^ (self.sched[1].q.val() >> self.shift_right[0].val());
        self.small_sigma1.next = ((self.sched[14].q.val() >> self.rot_right[8].val())
            | (self.sched[14].q.val() << self.rot_left[8].val()))
            ^ ((self.sched[14].q.val() >> self.rot_right[9].val())
                | (self.sched[14].q.val() << self.rot_left[9].val()))
            ^ (self.sched[14].q.val() >> self.shift_right[1].val());
        self.w_sched.next = self.small_sigma1.val()
            + self.sched[9].q.val()
            + self.small_sigma0.val()
            + self.sched[0].q.val();

        self.taken.next = self.start.val() & !self.running.q.val() & !self.reset.val();
        self.advance.next = self.running.q.val()
            & !self.reset.val()
            & ((self.count.q.val() >= 16) | self.word_valid.val());
        self.word_ready.next = self.taken.val()
            | (self.running.q.val() & !self.reset.val() & (self.count.q.val() < 16));

        // p for the word taken this clock: h of the next round is g now,
        // except for W_0, whose round starts from the initial h.
        self.w_cur.next = self.w_next.q.val();
        if self.count.q.val() < 16 {
            self.w_cur.next = self.word_in.val();
        }
        // Idle, p is stored only by a start, so the select needs the
        // `running` register and not `taken` (whose `start` comes from the
        // user's logic).
        self.h_sel.next = self.v[6].q.val();
        if !self.running.q.val() {
            self.h_sel.next = self.init[7].val();
        } else if self.count.q.val() == 0 {
            self.h_sel.next = self.v[7].q.val();
        }
        self.p_next.next = self.h_sel.val() + self.k.q.val() + self.w_cur.val();

        self.count_next.next = self.count.q.val();
        self.done_r.d.next = false;
        if self.reset.val() {
            self.running.d.next = false;
            self.count_next.next = 0.into();
            // A reset on the schedule taps keeps them flip-flops: yosys
            // would otherwise end shift-register chains in SRL16E
            // outputs (1.5 ns clock-to-out) right before the adders.
            self.sched[0].d.next = 0.into();
            self.sched[1].d.next = 0.into();
            self.sched[9].d.next = 0.into();
            self.sched[14].d.next = 0.into();
        } else if self.advance.val() {
            self.count_next.next = self.count.q.val() + 1;
            if (self.count.q.val() != 0) & (self.count.q.val() <= self.last_round.val()) {
                self.v[0].d.next = self.new_a.val();
                self.v[1].d.next = self.v[0].q.val();
                self.v[2].d.next = self.v[1].q.val();
                self.v[3].d.next = self.v[2].q.val();
                self.v[4].d.next = self.new_e.val();
                self.v[5].d.next = self.v[4].q.val();
                self.v[6].d.next = self.v[5].q.val();
                self.v[7].d.next = self.v[6].q.val();
            }
            if self.count.q.val() < self.last_round.val() {
                self.p.d.next = self.p_next.val();
                for i in 0..14 {
                    self.sched[i].d.next = self.sched[i + 1].q.val();
                }
                self.sched[14].d.next = self.w_cur.val();
                self.w_next.d.next = self.w_sched.val();
            }
            if self.count.q.val() == self.final_count.val() {
                for i in 0..8 {
                    self.cv[i].d.next = self.cv[i].q.val() + self.v[i].q.val();
                }
                self.running.d.next = false;
                self.done_r.d.next = true;
                self.count_next.next = 0.into();
            }
        } else if self.taken.val() {
            for i in 0..8 {
                self.v[i].d.next = self.init[i].val();
                self.cv[i].d.next = self.init[i].val();
            }
            self.running.d.next = true;
            if self.word_valid.val() {
                self.count_next.next = 1.into();
                self.p.d.next = self.p_next.val();
                for i in 0..14 {
                    self.sched[i].d.next = self.sched[i + 1].q.val();
                }
                self.sched[14].d.next = self.w_cur.val();
            }
        } else if !self.running.q.val() & self.load_state.val() {
            for i in 0..7 {
                self.cv[i].d.next = self.cv[i + 1].q.val();
            }
            self.cv[7].d.next = self.word_in.val();
        }
        self.count.d.next = self.count_next.val();
        // K of the word the next clock takes, read a clock ahead.
        self.k_rom.address.next = self.count_next.val();
        self.k.d.next = self.k_rom.data.val();

        self.busy.next = self.running.q.val();
        self.done.next = self.done_r.q.val();
        self.out_word.next = self.cv[0].q.val();
        match self.out_index.val().index() {
            0 => self.out_word.next = self.cv[0].q.val(),
            1 => self.out_word.next = self.cv[1].q.val(),
            2 => self.out_word.next = self.cv[2].q.val(),
            3 => self.out_word.next = self.cv[3].q.val(),
            4 => self.out_word.next = self.cv[4].q.val(),
            5 => self.out_word.next = self.cv[5].q.val(),
            6 => self.out_word.next = self.cv[6].q.val(),
            7 => self.out_word.next = self.cv[7].q.val(),
            _ => {}
        }
    }
}
