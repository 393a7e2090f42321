//! The NTT core: `B` butterflies, `SLOTS` resident polynomials plus a
//! scratch buffer, twiddle ROMs, the controller, and an AXI4-Stream-style
//! load/store port.
//!
//! # Interface
//!
//! - Control: `op`, `arg0..2` (see [`ps_pl_contract::regmap::ntt`]) are sampled with
//!   a one-cycle `start` pulse while `busy` is low. `busy` stays high until
//!   the operation is complete; then `done` is set (and `error` if the
//!   request or the streamed data was malformed) until the next `start`.
//!   `cycles` holds the number of busy cycles of the last operation.
//! - `OP_ABORT` with `start` is taken even while busy: the core returns to
//!   idle on that clock with `done` and `error`, and the writes of the
//!   butterflies still in flight are dropped. `cycles` keeps the aborted
//!   operation's count (the abort clock included).
//! - `reset` (synchronous, active high; the top drives it from `aresetn`)
//!   returns the core to idle with `done`, `error` and `cycles` cleared.
//! - `s_*`: 32-bit input stream (valid/ready/last, AXI4-Stream semantics),
//!   used by `OP_LOAD`: 256 words, each < q, `tlast` on the 256th. A word
//!   ≥ q or a misplaced `tlast` sets `error` (an early `tlast` ends the load).
//! - `m_*`: 32-bit output stream used by `OP_STORE`: 256 words, `tlast` on
//!   the last; the core honours `m_tready` back-pressure.
//! - Row port (only in a core built by [`NttCore::with_row_port`], for the
//!   engines' polynomial memories; the bus tops have none): a row is one
//!   address of all `2B` banks, `2B` coefficients, in the banks' own
//!   layout. [`OP_STORE_ROWS`] puts the slot's `128/B` rows on `row_out`
//!   with `row_out_valid`, one a clock, with no back-pressure;
//!   [`OP_LOAD_ROWS`] writes one row from `row_in` each clock that
//!   `row_in_valid` is high while `row_in_ready` is. Rows stored this way
//!   and loaded back restore the polynomial exactly, in any slot. A core
//!   without the port refuses both ops with `error`.
//!
//! # Cycle counts (busy cycles, from the accepting edge to `done`)
//!
//! - NTT and INTT: `1024/B + ISSUE_TO_WRITE` ([`transform_cycles`]).
//! - PWM and PWMAC: `256/B + ISSUE_TO_WRITE` ([`pointwise_cycles`]).
//! - LOAD: 256, STORE: 257 with a stream that never stalls
//!   ([`load_cycles`], [`store_cycles`]).
//! - LOAD_ROWS: `128/B` with a row every clock; STORE_ROWS: `128/B + 1`
//!   ([`row_store_cycles`]).
//!
//! The data layout and the schedule are described in [`super::schedule`].

use super::arith::Q_U64;
use super::butterfly::{Butterfly, BUTTERFLY_LATENCY};
use super::schedule::{twiddle_base, twiddle_rom, Direction};
use ps_pl_contract::regmap::ntt as reg;
use rust_hdl::prelude::*;

/// Cycles from a read issue to the write of its results: one RAM read cycle,
/// one for the read crossbar (its output is registered), then the butterfly.
pub const ISSUE_TO_WRITE: usize = 2 + BUTTERFLY_LATENCY;
/// Buffers: the user slots plus the scratch buffer of the ping-pong.
pub const BUFFERS: usize = reg::SLOTS as usize + 1;
/// Index of the scratch buffer.
pub const SCRATCH: u64 = reg::SLOTS as u64;

/// Busy cycles of an NTT or INTT.
pub const fn transform_cycles(b: usize) -> usize {
    super::schedule::transform_issue_cycles(b) + ISSUE_TO_WRITE
}
/// Busy cycles of a PWM or PWMAC.
pub const fn pointwise_cycles(b: usize) -> usize {
    super::schedule::pointwise_issue_cycles(b) + ISSUE_TO_WRITE
}
/// Busy cycles of a LOAD whose input stream never stalls: one per word.
pub const fn load_cycles() -> usize {
    pqc::ring::N
}
/// Busy cycles of a STORE whose output stream never stalls: one cycle to
/// fetch the first word, then one per word.
pub const fn store_cycles() -> usize {
    pqc::ring::N + 1
}
/// Rows of a buffer: one address of all `2B` banks each.
pub const fn rows(b: usize) -> usize {
    pqc::ring::N / (2 * b)
}
/// Busy cycles of a STORE_ROWS: one cycle to fetch the first row, then one
/// per row.
pub const fn row_store_cycles(b: usize) -> usize {
    rows(b) + 1
}

/// Engine-internal op (row port only): the slot `arg0` into the row port.
/// Not a bus op: the values lie outside `regmap::ntt`'s.
pub const OP_STORE_ROWS: u32 = 0x10;
/// Engine-internal op (row port only): the row port into slot `arg0`.
pub const OP_LOAD_ROWS: u32 = 0x11;
const _: () = assert!(
    OP_STORE_ROWS > reg::OP_PWMAC && OP_LOAD_ROWS > reg::OP_PWMAC && OP_LOAD_ROWS < reg::OP_ABORT
);

const ST_IDLE: u64 = 0;
const ST_COMPUTE: u64 = 1;
const ST_DRAIN: u64 = 2;
const ST_LOAD: u64 = 3;
const ST_STORE: u64 = 4;
const ST_STORE_ROWS: u64 = 5;
const ST_LOAD_ROWS: u64 = 6;

const KIND_FWD: u64 = 0;
const KIND_INV: u64 = 1;
const KIND_PW: u64 = 2;

/// One coefficient buffer: `BANKS` simple dual-port RAMs of `2^AW` words.
#[derive(LogicBlock)]
pub struct CoeffBuffer<const BANKS: usize, const AW: usize> {
    pub clock: Signal<In, Clock>,
    pub read_address: [Signal<In, Bits<AW>>; BANKS],
    pub read_data: [Signal<Out, Bits<23>>; BANKS],
    pub write_address: [Signal<In, Bits<AW>>; BANKS],
    pub write_data: [Signal<In, Bits<23>>; BANKS],
    pub write_enable: [Signal<In, bool>; BANKS],
    banks: [RAM<Bits<23>, AW>; BANKS],
}

impl<const BANKS: usize, const AW: usize> Default for CoeffBuffer<BANKS, AW> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            read_address: std::array::from_fn(|_| Default::default()),
            read_data: std::array::from_fn(|_| Default::default()),
            write_address: std::array::from_fn(|_| Default::default()),
            write_data: std::array::from_fn(|_| Default::default()),
            write_enable: std::array::from_fn(|_| Default::default()),
            banks: std::array::from_fn(|_| Default::default()),
        }
    }
}

impl<const BANKS: usize, const AW: usize> Logic for CoeffBuffer<BANKS, AW> {
    #[hdl_gen]
    fn update(&mut self) {
        for k in 0..BANKS {
            self.banks[k].read_clock.next = self.clock.val();
            self.banks[k].write_clock.next = self.clock.val();
            self.banks[k].read_address.next = self.read_address[k].val();
            self.read_data[k].next = self.banks[k].read_data.val();
            self.banks[k].write_address.next = self.write_address[k].val();
            self.banks[k].write_data.next = self.write_data[k].val();
            self.banks[k].write_enable.next = self.write_enable[k].val();
        }
    }
}

/// The NTT core with `B` lanes. `BANKS = 2B`, `AW = log2(128/B)` (bank
/// address bits), `TW` = twiddle ROM address bits; use [`NttCoreB1`],
/// [`NttCoreB2`], [`NttCoreB4`] and [`NttCore::new`].
#[derive(LogicBlock)]
pub struct NttCore<const B: usize, const BANKS: usize, const AW: usize, const TW: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    pub start: Signal<In, bool>,
    pub op: Signal<In, Bits<8>>,
    pub arg0: Signal<In, Bits<32>>,
    pub arg1: Signal<In, Bits<32>>,
    pub arg2: Signal<In, Bits<32>>,
    pub busy: Signal<Out, bool>,
    pub done: Signal<Out, bool>,
    pub error: Signal<Out, bool>,
    pub cycles: Signal<Out, Bits<32>>,
    pub config_word: Signal<Out, Bits<32>>,
    pub s_tdata: Signal<In, Bits<32>>,
    pub s_tvalid: Signal<In, bool>,
    pub s_tlast: Signal<In, bool>,
    pub s_tready: Signal<Out, bool>,
    pub m_tdata: Signal<Out, Bits<32>>,
    pub m_tvalid: Signal<Out, bool>,
    pub m_tlast: Signal<Out, bool>,
    pub m_tready: Signal<In, bool>,
    /// Row port: a row for `OP_LOAD_ROWS`, bank `k` in `row_in[k]`.
    pub row_in: [Signal<In, Bits<23>>; BANKS],
    pub row_in_valid: Signal<In, bool>,
    pub row_in_ready: Signal<Out, bool>,
    /// Row port: a row of `OP_STORE_ROWS`, bank `k` in `row_out[k]`.
    pub row_out: [Signal<Out, Bits<23>>; BANKS],
    pub row_out_valid: Signal<Out, bool>,
    // Datapath.
    buf0: CoeffBuffer<BANKS, AW>,
    buf1: CoeffBuffer<BANKS, AW>,
    buf2: CoeffBuffer<BANKS, AW>,
    buf3: CoeffBuffer<BANKS, AW>,
    rom: [SyncROM<Bits<23>, TW>; B],
    bf: [Butterfly; B],
    // Registered crossbar output: the butterfly operands.
    xu: [DFF<Bits<23>>; B],
    xv: [DFF<Bits<23>>; B],
    xw: [DFF<Bits<23>>; B],
    xgs: [DFF<bool>; B],
    // Controller state.
    state: DFF<Bits<3>>,
    kind: DFF<Bits<2>>,
    accumulate: DFF<bool>,
    slot_p: DFF<Bits<2>>,
    slot_a: DFF<Bits<2>>,
    slot_b: DFF<Bits<2>>,
    layer: DFF<Bits<3>>,
    cnt: DFF<Bits<9>>,
    tw_base: DFF<Bits<TW>>,
    tw_mask: DFF<Bits<TW>>,
    drain: DFF<Bits<4>>,
    cycles_r: DFF<Bits<32>>,
    done_r: DFF<bool>,
    error_r: DFF<bool>,
    primed: DFF<bool>,
    // Issue-control pipeline (stage i = issued i+1 cycles ago).
    pv: [DFF<bool>; ISSUE_TO_WRITE],
    pc: [DFF<Bits<9>>; ISSUE_TO_WRITE],
    pk: [DFF<Bits<2>>; ISSUE_TO_WRITE],
    pwb: [DFF<Bits<2>>; ISSUE_TO_WRITE],
    prb: DFF<Bits<2>>,
    // Combinational helpers.
    issue: Signal<Local, bool>,
    rbuf: Signal<Local, Bits<2>>,
    wbuf: Signal<Local, Bits<2>>,
    wbuf_eff: Signal<Local, Bits<2>>,
    next_idx: Signal<Local, Bits<9>>,
    load_bank: Signal<Local, Bits<9>>,
    store_bank: Signal<Local, Bits<9>>,
    store_word: Signal<Local, Bits<23>>,
    accept_out: Signal<Local, bool>,
    accept_in: Signal<Local, bool>,
    accept_row: Signal<Local, bool>,
    finish: Signal<Local, bool>,
    w_valid: Signal<Local, bool>,
    w_c: Signal<Local, Bits<9>>,
    w_kind: Signal<Local, Bits<2>>,
    w_buf: Signal<Local, Bits<2>>,
    w_i7: Signal<Local, bool>,
    r_i7: Signal<Local, bool>,
    r_sel: Signal<Local, bool>,
    rd_addr: [Signal<Local, Bits<AW>>; BANKS],
    wr_addr: [Signal<Local, Bits<AW>>; BANKS],
    wr_data: [Signal<Local, Bits<23>>; BANKS],
    wr_en: [Signal<Local, bool>; BANKS],
    wr_lane: [Signal<Local, Bits<4>>; BANKS],
    wr_bot: [Signal<Local, bool>; BANKS],
    p_data: [Signal<Local, Bits<23>>; BANKS],
    a_data: [Signal<Local, Bits<23>>; BANKS],
    b_data: [Signal<Local, Bits<23>>; BANKS],
    u_sel: [Signal<Local, Bits<4>>; B],
    v_sel: [Signal<Local, Bits<4>>; B],
    // Elaboration constants (rust-hdl cannot use const generics in HDL
    // expressions, so every B-dependent number is a named constant).
    // Controller encodings as HDL constants.
    c_st_idle: Constant<Bits<3>>,
    c_st_compute: Constant<Bits<3>>,
    c_st_drain: Constant<Bits<3>>,
    c_st_load: Constant<Bits<3>>,
    c_st_store: Constant<Bits<3>>,
    c_st_store_rows: Constant<Bits<3>>,
    c_st_load_rows: Constant<Bits<3>>,
    c_kind_fwd: Constant<Bits<2>>,
    c_kind_inv: Constant<Bits<2>>,
    c_kind_pw: Constant<Bits<2>>,
    c_scratch: Constant<Bits<2>>,
    k_last_tr: Constant<Bits<9>>,
    k_last_pw: Constant<Bits<9>>,
    k_half: Constant<Bits<9>>,
    k_pw_half: Constant<Bits<9>>,
    k_b: Constant<Bits<9>>,
    k_bank_mask: Constant<Bits<9>>,
    k_addr_shift: Constant<Bits<4>>,
    k_lb: Constant<Bits<3>>,
    k_inv_base: Constant<Bits<TW>>,
    k_inv_mask: Constant<Bits<TW>>,
    k_drain_last: Constant<Bits<4>>,
    k_config: Constant<Bits<32>>,
    k_q: Constant<Bits<32>>,
    k_slots: Constant<Bits<32>>,
    k_op_load: Constant<Bits<8>>,
    k_op_store: Constant<Bits<8>>,
    k_op_ntt: Constant<Bits<8>>,
    k_op_intt: Constant<Bits<8>>,
    k_op_pwm: Constant<Bits<8>>,
    k_op_pwmac: Constant<Bits<8>>,
    k_op_abort: Constant<Bits<8>>,
    k_op_store_rows: Constant<Bits<8>>,
    k_op_load_rows: Constant<Bits<8>>,
    k_row_port: Constant<bool>,
    k_row_count: Constant<Bits<9>>,
    bank_hi: [Constant<bool>; BANKS],
    bank_lane: [Constant<Bits<4>>; BANKS],
    fwd_lo: [Constant<Bits<4>>; B],
    fwd_hi: [Constant<Bits<4>>; B],
    inv_u0: [Constant<Bits<4>>; B],
    inv_u1: [Constant<Bits<4>>; B],
    inv_v0: [Constant<Bits<4>>; B],
    inv_v1: [Constant<Bits<4>>; B],
    wf_lane0: [Constant<Bits<4>>; BANKS],
    wf_lane1: [Constant<Bits<4>>; BANKS],
    wf_bot0: [Constant<bool>; BANKS],
    wf_bot1: [Constant<bool>; BANKS],
}

/// One butterfly per cycle.
pub type NttCoreB1 = NttCore<1, 2, 7, 9>;
/// Two butterflies per cycle.
pub type NttCoreB2 = NttCore<2, 4, 6, 8>;
/// Four butterflies per cycle.
pub type NttCoreB4 = NttCore<4, 8, 5, 8>;

fn konst<const N: usize>(v: usize) -> Constant<Bits<N>> {
    Constant::new((v as u64).into())
}

impl<const B: usize, const BANKS: usize, const AW: usize, const TW: usize>
    NttCore<B, BANKS, AW, TW>
{
    /// Elaborates the core without the row port (the bus tops); panics if
    /// the generic parameters are inconsistent with `B`.
    pub fn new() -> Self {
        Self::build(false)
    }

    /// Elaborates the core with the row port (the engines).
    pub fn with_row_port() -> Self {
        Self::build(true)
    }

    fn build(row_port: bool) -> Self {
        let lb = B.trailing_zeros() as usize;
        assert!(B.is_power_of_two() && B <= 4, "B must be 1, 2 or 4");
        assert_eq!(BANKS, 2 * B, "BANKS must be 2B");
        assert_eq!(1 << AW, 128 / B, "AW must be log2(128/B)");
        let rom_len = super::schedule::twiddle_rom_len(B);
        assert!(rom_len <= 1 << TW && rom_len > 1 << (TW - 1), "TW");
        let config = ((B as u64) << reg::CONFIG_LANES_SHIFT)
            | ((reg::SLOTS as u64) << reg::CONFIG_SLOTS_SHIFT);
        let wf = |i7: usize, beta: usize| (beta + 2 * B - B * i7) % (2 * B);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            op: Default::default(),
            arg0: Default::default(),
            arg1: Default::default(),
            arg2: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            error: Default::default(),
            cycles: Default::default(),
            config_word: Default::default(),
            s_tdata: Default::default(),
            s_tvalid: Default::default(),
            s_tlast: Default::default(),
            s_tready: Default::default(),
            m_tdata: Default::default(),
            m_tvalid: Default::default(),
            m_tlast: Default::default(),
            m_tready: Default::default(),
            row_in: std::array::from_fn(|_| Default::default()),
            row_in_valid: Default::default(),
            row_in_ready: Default::default(),
            row_out: std::array::from_fn(|_| Default::default()),
            row_out_valid: Default::default(),
            buf0: Default::default(),
            buf1: Default::default(),
            buf2: Default::default(),
            buf3: Default::default(),
            rom: std::array::from_fn(|lane| {
                SyncROM::from(twiddle_rom(lane, B).into_iter().map(Bits::<23>::from))
            }),
            bf: std::array::from_fn(|_| Default::default()),
            xu: std::array::from_fn(|_| Default::default()),
            xv: std::array::from_fn(|_| Default::default()),
            xw: std::array::from_fn(|_| Default::default()),
            xgs: std::array::from_fn(|_| Default::default()),
            state: Default::default(),
            kind: Default::default(),
            accumulate: Default::default(),
            slot_p: Default::default(),
            slot_a: Default::default(),
            slot_b: Default::default(),
            layer: Default::default(),
            cnt: Default::default(),
            tw_base: Default::default(),
            tw_mask: Default::default(),
            drain: Default::default(),
            cycles_r: Default::default(),
            done_r: Default::default(),
            error_r: Default::default(),
            primed: Default::default(),
            pv: std::array::from_fn(|_| Default::default()),
            pc: std::array::from_fn(|_| Default::default()),
            pk: std::array::from_fn(|_| Default::default()),
            pwb: std::array::from_fn(|_| Default::default()),
            prb: Default::default(),
            issue: Default::default(),
            rbuf: Default::default(),
            wbuf: Default::default(),
            wbuf_eff: Default::default(),
            next_idx: Default::default(),
            load_bank: Default::default(),
            store_bank: Default::default(),
            store_word: Default::default(),
            accept_out: Default::default(),
            accept_in: Default::default(),
            accept_row: Default::default(),
            finish: Default::default(),
            w_valid: Default::default(),
            w_c: Default::default(),
            w_kind: Default::default(),
            w_buf: Default::default(),
            w_i7: Default::default(),
            r_i7: Default::default(),
            r_sel: Default::default(),
            rd_addr: std::array::from_fn(|_| Default::default()),
            wr_addr: std::array::from_fn(|_| Default::default()),
            wr_data: std::array::from_fn(|_| Default::default()),
            wr_en: std::array::from_fn(|_| Default::default()),
            wr_lane: std::array::from_fn(|_| Default::default()),
            wr_bot: std::array::from_fn(|_| Default::default()),
            p_data: std::array::from_fn(|_| Default::default()),
            a_data: std::array::from_fn(|_| Default::default()),
            b_data: std::array::from_fn(|_| Default::default()),
            u_sel: std::array::from_fn(|_| Default::default()),
            v_sel: std::array::from_fn(|_| Default::default()),
            c_st_idle: Constant::new(ST_IDLE.into()),
            c_st_compute: Constant::new(ST_COMPUTE.into()),
            c_st_drain: Constant::new(ST_DRAIN.into()),
            c_st_load: Constant::new(ST_LOAD.into()),
            c_st_store: Constant::new(ST_STORE.into()),
            c_st_store_rows: Constant::new(ST_STORE_ROWS.into()),
            c_st_load_rows: Constant::new(ST_LOAD_ROWS.into()),
            c_kind_fwd: Constant::new(KIND_FWD.into()),
            c_kind_inv: Constant::new(KIND_INV.into()),
            c_kind_pw: Constant::new(KIND_PW.into()),
            c_scratch: Constant::new(SCRATCH.into()),
            k_last_tr: konst(128 / B - 1),
            k_last_pw: konst(256 / B - 1),
            k_half: konst(64 / B),
            k_pw_half: konst(128 / B),
            k_b: konst(B),
            k_bank_mask: konst(2 * B - 1),
            k_addr_shift: konst(lb + 1),
            k_lb: konst(lb),
            k_inv_base: konst(twiddle_base(Direction::Inverse, 0, B)),
            k_inv_mask: konst(128 / B - 1),
            k_drain_last: konst(ISSUE_TO_WRITE - 1),
            k_config: Constant::new(config.into()),
            k_q: Constant::new(Q_U64.into()),
            k_slots: Constant::new((reg::SLOTS as u64).into()),
            k_op_load: Constant::new((reg::OP_LOAD as u64).into()),
            k_op_store: Constant::new((reg::OP_STORE as u64).into()),
            k_op_ntt: Constant::new((reg::OP_NTT as u64).into()),
            k_op_intt: Constant::new((reg::OP_INTT as u64).into()),
            k_op_pwm: Constant::new((reg::OP_PWM as u64).into()),
            k_op_pwmac: Constant::new((reg::OP_PWMAC as u64).into()),
            k_op_abort: Constant::new((reg::OP_ABORT as u64).into()),
            k_op_store_rows: Constant::new((OP_STORE_ROWS as u64).into()),
            k_op_load_rows: Constant::new((OP_LOAD_ROWS as u64).into()),
            k_row_port: Constant::new(row_port),
            k_row_count: konst(rows(B)),
            bank_hi: std::array::from_fn(|beta| Constant::new(beta >= B)),
            bank_lane: std::array::from_fn(|beta| konst(beta % B)),
            fwd_lo: std::array::from_fn(konst),
            fwd_hi: std::array::from_fn(|b| konst(b + B)),
            inv_u0: std::array::from_fn(|b| konst((2 * b) % (2 * B))),
            inv_u1: std::array::from_fn(|b| konst((2 * b + B) % (2 * B))),
            inv_v0: std::array::from_fn(|b| konst((2 * b + 1) % (2 * B))),
            inv_v1: std::array::from_fn(|b| konst((2 * b + 1 + B) % (2 * B))),
            wf_lane0: std::array::from_fn(|beta| konst(wf(0, beta) >> 1)),
            wf_lane1: std::array::from_fn(|beta| konst(wf(1, beta) >> 1)),
            wf_bot0: std::array::from_fn(|beta| Constant::new(wf(0, beta) & 1 == 1)),
            wf_bot1: std::array::from_fn(|beta| Constant::new(wf(1, beta) & 1 == 1)),
        }
    }
}

impl<const B: usize, const BANKS: usize, const AW: usize, const TW: usize> Default
    for NttCore<B, BANKS, AW, TW>
{
    fn default() -> Self {
        Self::new()
    }
}

impl<const B: usize, const BANKS: usize, const AW: usize, const TW: usize> Logic
    for NttCore<B, BANKS, AW, TW>
{
    // Nested `if`s mirror the mux structure and keep to the subset of Rust
    // that rust-hdl translates.
    #[allow(clippy::collapsible_if, clippy::collapsible_else_if)]
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, kind, accumulate, slot_p, slot_a, slot_b, layer, cnt, tw_base,
            tw_mask, drain, cycles_r, done_r, error_r, primed, prb
        );
        self.buf0.clock.next = self.clock.val();
        self.buf1.clock.next = self.clock.val();
        self.buf2.clock.next = self.clock.val();
        self.buf3.clock.next = self.clock.val();
        for i in 0..ISSUE_TO_WRITE {
            self.pv[i].clock.next = self.clock.val();
            self.pc[i].clock.next = self.clock.val();
            self.pk[i].clock.next = self.clock.val();
            self.pwb[i].clock.next = self.clock.val();
        }
        for b in 0..B {
            self.rom[b].clock.next = self.clock.val();
            self.bf[b].clock.next = self.clock.val();
            self.xu[b].clock.next = self.clock.val();
            self.xv[b].clock.next = self.clock.val();
            self.xw[b].clock.next = self.clock.val();
            self.xgs[b].clock.next = self.clock.val();
            self.bf[b].u.next = self.xu[b].q.val();
            self.bf[b].v.next = self.xv[b].q.val();
            self.bf[b].w.next = self.xw[b].q.val();
            self.bf[b].gs.next = self.xgs[b].q.val();
        }

        // ---- Status outputs.
        self.busy.next = self.state.q.val() != self.c_st_idle.val();
        self.done.next = self.done_r.q.val();
        self.error.next = self.error_r.q.val();
        self.cycles.next = self.cycles_r.q.val();
        self.config_word.next = self.k_config.val();
        if self.state.q.val() != self.c_st_idle.val() {
            self.cycles_r.d.next = self.cycles_r.q.val() + 1;
        }

        // ---- Issue side: which buffers a transform layer reads and writes.
        self.issue.next = self.state.q.val() == self.c_st_compute.val();
        self.rbuf.next = self.slot_p.q.val();
        self.wbuf.next = self.slot_p.q.val();
        if self.kind.q.val() != self.c_kind_pw.val() {
            if self.layer.q.val().get_bit(0) {
                self.rbuf.next = self.c_scratch.val();
            } else {
                self.wbuf.next = self.c_scratch.val();
            }
        }
        self.pv[0].d.next = self.issue.val();
        self.pc[0].d.next = self.cnt.q.val();
        self.pk[0].d.next = self.kind.q.val();
        self.pwb[0].d.next = self.wbuf.val();
        self.prb.d.next = self.rbuf.val();
        for i in 1..ISSUE_TO_WRITE {
            self.pv[i].d.next = self.pv[i - 1].q.val();
            self.pc[i].d.next = self.pc[i - 1].q.val();
            self.pk[i].d.next = self.pk[i - 1].q.val();
            self.pwb[i].d.next = self.pwb[i - 1].q.val();
        }

        // Twiddle ROM address: the layer's base plus the cycle modulo the
        // layer's twiddle period.
        for b in 0..B {
            self.rom[b].address.next =
                self.tw_base.q.val() + (bit_cast::<TW, 9>(self.cnt.q.val()) & self.tw_mask.q.val());
        }

        // ---- Stream handshakes.
        self.s_tready.next = self.state.q.val() == self.c_st_load.val();
        self.accept_in.next = (self.state.q.val() == self.c_st_load.val()) & self.s_tvalid.val();
        self.m_tvalid.next = (self.state.q.val() == self.c_st_store.val()) & self.primed.q.val();
        self.m_tlast.next = (self.state.q.val() == self.c_st_store.val())
            & self.primed.q.val()
            & (self.cnt.q.val() == 255);
        self.accept_out.next = (self.state.q.val() == self.c_st_store.val())
            & self.primed.q.val()
            & self.m_tready.val();
        self.row_in_ready.next = self.state.q.val() == self.c_st_load_rows.val();
        self.accept_row.next =
            (self.state.q.val() == self.c_st_load_rows.val()) & self.row_in_valid.val();
        self.row_out_valid.next =
            (self.state.q.val() == self.c_st_store_rows.val()) & self.primed.q.val();
        self.next_idx.next = self.cnt.q.val();
        if self.accept_out.val() {
            self.next_idx.next = self.cnt.q.val() + 1;
        }
        // bank(i) = (i + B·i7) mod 2B for the streamed index.
        self.load_bank.next = self.cnt.q.val() & self.k_bank_mask.val();
        if self.cnt.q.val().get_bit(7) {
            self.load_bank.next = (self.cnt.q.val() + self.k_b.val()) & self.k_bank_mask.val();
        }
        self.store_bank.next = self.load_bank.val();

        // ---- Read addresses (broadcast to every buffer).
        for k in 0..BANKS {
            self.rd_addr[k].next = bit_cast::<AW, 9>(self.cnt.q.val() >> 1);
            if self.state.q.val() == self.c_st_store.val() {
                self.rd_addr[k].next = self
                    .next_idx
                    .val()
                    .get_bits::<AW>(self.k_addr_shift.val().index());
            } else if (self.state.q.val() == self.c_st_store_rows.val())
                | (self.kind.q.val() == self.c_kind_inv.val())
            {
                // Row stores and inverse layers read row `cnt`.
                self.rd_addr[k].next = bit_cast::<AW, 9>(self.cnt.q.val());
            } else if self.kind.q.val() == self.c_kind_fwd.val() {
                if self.bank_hi[k].val() != self.cnt.q.val().get_bit(0) {
                    self.rd_addr[k].next =
                        bit_cast::<AW, 9>((self.cnt.q.val() >> 1) + self.k_half.val());
                }
            }
            self.buf0.read_address[k].next = self.rd_addr[k].val();
            self.buf1.read_address[k].next = self.rd_addr[k].val();
            self.buf2.read_address[k].next = self.rd_addr[k].val();
            self.buf3.read_address[k].next = self.rd_addr[k].val();
        }

        // ---- Read data by role: primary (transform source, accumulator,
        // store source), pointwise operands A and B.
        for k in 0..BANKS {
            self.p_data[k].next = self.buf0.read_data[k].val();
            if self.prb.q.val() == 1 {
                self.p_data[k].next = self.buf1.read_data[k].val();
            }
            if self.prb.q.val() == 2 {
                self.p_data[k].next = self.buf2.read_data[k].val();
            }
            if self.prb.q.val() == 3 {
                self.p_data[k].next = self.buf3.read_data[k].val();
            }
            self.a_data[k].next = self.buf0.read_data[k].val();
            if self.slot_a.q.val() == 1 {
                self.a_data[k].next = self.buf1.read_data[k].val();
            }
            if self.slot_a.q.val() == 2 {
                self.a_data[k].next = self.buf2.read_data[k].val();
            }
            self.b_data[k].next = self.buf0.read_data[k].val();
            if self.slot_b.q.val() == 1 {
                self.b_data[k].next = self.buf1.read_data[k].val();
            }
            if self.slot_b.q.val() == 2 {
                self.b_data[k].next = self.buf2.read_data[k].val();
            }
        }

        for k in 0..BANKS {
            self.row_out[k].next = self.p_data[k].val();
        }

        // ---- Output stream word.
        self.store_word.next = 0.into();
        for k in 0..BANKS {
            if self.store_bank.val().index() == k {
                self.store_word.next = self.p_data[k].val();
            }
        }
        self.m_tdata.next = bit_cast::<32, 23>(self.store_word.val());

        // ---- Read crossbar into the lanes (control of stage 0), registered
        // in front of the butterflies.
        self.r_i7.next = self.pc[0].q.val() >= self.k_half.val();
        if self.pk[0].q.val() == self.c_kind_pw.val() {
            self.r_i7.next = self.pc[0].q.val() >= self.k_pw_half.val();
        }
        self.r_sel.next = self.pc[0].q.val().get_bit(0) != self.r_i7.val();
        for b in 0..B {
            self.u_sel[b].next = self.fwd_lo[b].val();
            self.v_sel[b].next = self.fwd_hi[b].val();
            if self.pk[0].q.val() == self.c_kind_fwd.val() {
                if self.pc[0].q.val().get_bit(0) {
                    self.u_sel[b].next = self.fwd_hi[b].val();
                    self.v_sel[b].next = self.fwd_lo[b].val();
                }
            } else if self.pk[0].q.val() == self.c_kind_inv.val() {
                if self.r_i7.val() {
                    self.u_sel[b].next = self.inv_u1[b].val();
                    self.v_sel[b].next = self.inv_v1[b].val();
                } else {
                    self.u_sel[b].next = self.inv_u0[b].val();
                    self.v_sel[b].next = self.inv_v0[b].val();
                }
            } else if self.r_sel.val() {
                self.u_sel[b].next = self.fwd_hi[b].val();
                self.v_sel[b].next = self.fwd_hi[b].val();
            } else {
                self.v_sel[b].next = self.fwd_lo[b].val();
            }
            self.xgs[b].d.next = self.pk[0].q.val() == self.c_kind_inv.val();
            self.xu[b].d.next = 0.into();
            self.xv[b].d.next = 0.into();
            self.xw[b].d.next = self.rom[b].data.val();
            for k in 0..BANKS {
                if self.u_sel[b].val().index() == k {
                    if (self.pk[0].q.val() != self.c_kind_pw.val()) | self.accumulate.q.val() {
                        self.xu[b].d.next = self.p_data[k].val();
                    }
                }
                if self.v_sel[b].val().index() == k {
                    if self.pk[0].q.val() == self.c_kind_pw.val() {
                        self.xv[b].d.next = self.a_data[k].val();
                        self.xw[b].d.next = self.b_data[k].val();
                    } else {
                        self.xv[b].d.next = self.p_data[k].val();
                    }
                }
            }
        }

        // ---- Write side (control of the last pipeline stage).
        for i in (ISSUE_TO_WRITE - 1)..ISSUE_TO_WRITE {
            self.w_valid.next = self.pv[i].q.val();
            self.w_c.next = self.pc[i].q.val();
            self.w_kind.next = self.pk[i].q.val();
            self.w_buf.next = self.pwb[i].q.val();
        }
        self.w_i7.next = self.w_c.val() >= self.k_half.val();
        if self.w_kind.val() == self.c_kind_pw.val() {
            self.w_i7.next = self.w_c.val() >= self.k_pw_half.val();
        }
        for k in 0..BANKS {
            self.wr_lane[k].next = self.bank_lane[k].val();
            self.wr_bot[k].next = false;
            self.wr_addr[k].next = bit_cast::<AW, 9>(self.w_c.val() >> 1);
            self.wr_en[k].next = self.w_valid.val();
            if self.w_kind.val() == self.c_kind_fwd.val() {
                self.wr_addr[k].next = bit_cast::<AW, 9>(self.w_c.val());
                if self.w_i7.val() {
                    self.wr_lane[k].next = self.wf_lane1[k].val();
                    self.wr_bot[k].next = self.wf_bot1[k].val();
                } else {
                    self.wr_lane[k].next = self.wf_lane0[k].val();
                    self.wr_bot[k].next = self.wf_bot0[k].val();
                }
            } else if self.w_kind.val() == self.c_kind_inv.val() {
                if self.bank_hi[k].val() != self.w_c.val().get_bit(0) {
                    self.wr_bot[k].next = true;
                    self.wr_addr[k].next =
                        bit_cast::<AW, 9>((self.w_c.val() >> 1) + self.k_half.val());
                }
            } else {
                self.wr_en[k].next = self.w_valid.val()
                    & (self.bank_hi[k].val() == (self.w_c.val().get_bit(0) != self.w_i7.val()));
            }
            self.wr_data[k].next = 0.into();
            for b in 0..B {
                if self.wr_lane[k].val().index() == b {
                    if self.wr_bot[k].val() {
                        self.wr_data[k].next = self.bf[b].bot.val();
                    } else {
                        self.wr_data[k].next = self.bf[b].top.val();
                    }
                }
            }
            // The load port writes one coefficient per accepted word.
            if self.state.q.val() == self.c_st_load.val() {
                self.wr_data[k].next = self.s_tdata.val().get_bits::<23>(0);
                self.wr_addr[k].next = self
                    .cnt
                    .q
                    .val()
                    .get_bits::<AW>(self.k_addr_shift.val().index());
                self.wr_en[k].next = self.accept_in.val() & (self.load_bank.val().index() == k);
            }
            // The row port writes every bank of one address.
            if self.state.q.val() == self.c_st_load_rows.val() {
                self.wr_data[k].next = self.row_in[k].val();
                self.wr_addr[k].next = bit_cast::<AW, 9>(self.cnt.q.val());
                self.wr_en[k].next = self.accept_row.val();
            }
        }
        self.wbuf_eff.next = self.w_buf.val();
        if (self.state.q.val() == self.c_st_load.val())
            | (self.state.q.val() == self.c_st_load_rows.val())
        {
            self.wbuf_eff.next = self.slot_p.q.val();
        }
        for k in 0..BANKS {
            self.buf0.write_address[k].next = self.wr_addr[k].val();
            self.buf1.write_address[k].next = self.wr_addr[k].val();
            self.buf2.write_address[k].next = self.wr_addr[k].val();
            self.buf3.write_address[k].next = self.wr_addr[k].val();
            self.buf0.write_data[k].next = self.wr_data[k].val();
            self.buf1.write_data[k].next = self.wr_data[k].val();
            self.buf2.write_data[k].next = self.wr_data[k].val();
            self.buf3.write_data[k].next = self.wr_data[k].val();
            self.buf0.write_enable[k].next = self.wr_en[k].val() & (self.wbuf_eff.val() == 0);
            self.buf1.write_enable[k].next = self.wr_en[k].val() & (self.wbuf_eff.val() == 1);
            self.buf2.write_enable[k].next = self.wr_en[k].val() & (self.wbuf_eff.val() == 2);
            self.buf3.write_enable[k].next = self.wr_en[k].val() & (self.wbuf_eff.val() == 3);
        }

        // ---- Controller.
        self.finish.next = false;
        if self.state.q.val() == self.c_st_idle.val() {
            if self.start.val() {
                self.done_r.d.next = false;
                self.error_r.d.next = false;
                self.cycles_r.d.next = 0.into();
                self.cnt.d.next = 0.into();
                self.layer.d.next = 0.into();
                self.drain.d.next = 0.into();
                self.primed.d.next = false;
                self.accumulate.d.next = self.op.val() == self.k_op_pwmac.val();
                self.slot_p.d.next = self.arg0.val().get_bits::<2>(0);
                self.slot_a.d.next = self.arg1.val().get_bits::<2>(0);
                self.slot_b.d.next = self.arg2.val().get_bits::<2>(0);
                self.tw_base.d.next = 0.into();
                self.tw_mask.d.next = 0.into();
                if self.arg0.val() >= self.k_slots.val() {
                    self.error_r.d.next = true;
                    self.done_r.d.next = true;
                } else if self.op.val() == self.k_op_load.val() {
                    self.state.d.next = self.c_st_load.val();
                } else if self.op.val() == self.k_op_store.val() {
                    self.state.d.next = self.c_st_store.val();
                } else if (self.op.val() == self.k_op_store_rows.val()) & self.k_row_port.val() {
                    self.state.d.next = self.c_st_store_rows.val();
                } else if (self.op.val() == self.k_op_load_rows.val()) & self.k_row_port.val() {
                    self.state.d.next = self.c_st_load_rows.val();
                } else if self.op.val() == self.k_op_ntt.val() {
                    self.state.d.next = self.c_st_compute.val();
                    self.kind.d.next = self.c_kind_fwd.val();
                } else if self.op.val() == self.k_op_intt.val() {
                    self.state.d.next = self.c_st_compute.val();
                    self.kind.d.next = self.c_kind_inv.val();
                    self.tw_base.d.next = self.k_inv_base.val();
                    self.tw_mask.d.next = self.k_inv_mask.val();
                } else if (self.op.val() == self.k_op_pwm.val())
                    | (self.op.val() == self.k_op_pwmac.val())
                {
                    if (self.arg1.val() >= self.k_slots.val())
                        | (self.arg2.val() >= self.k_slots.val())
                    {
                        self.error_r.d.next = true;
                        self.done_r.d.next = true;
                    } else {
                        self.state.d.next = self.c_st_compute.val();
                        self.kind.d.next = self.c_kind_pw.val();
                    }
                } else {
                    self.error_r.d.next = true;
                    self.done_r.d.next = true;
                }
            }
        } else if self.state.q.val() == self.c_st_compute.val() {
            self.cnt.d.next = self.cnt.q.val() + 1;
            if self.kind.q.val() == self.c_kind_pw.val() {
                if self.cnt.q.val() == self.k_last_pw.val() {
                    self.state.d.next = self.c_st_drain.val();
                }
            } else if self.cnt.q.val() == self.k_last_tr.val() {
                self.cnt.d.next = 0.into();
                self.layer.d.next = self.layer.q.val() + 1;
                self.tw_base.d.next = self.tw_base.q.val() + self.tw_mask.q.val() + 1;
                if self.kind.q.val() == self.c_kind_inv.val() {
                    self.tw_mask.d.next = self.tw_mask.q.val() >> 1;
                } else if self.layer.q.val() >= self.k_lb.val() {
                    self.tw_mask.d.next = (self.tw_mask.q.val() << 1) + 1;
                }
                if self.layer.q.val() == 7 {
                    self.state.d.next = self.c_st_drain.val();
                }
            }
        } else if self.state.q.val() == self.c_st_drain.val() {
            self.drain.d.next = self.drain.q.val() + 1;
            if self.drain.q.val() == self.k_drain_last.val() {
                self.finish.next = true;
            }
        } else if self.state.q.val() == self.c_st_load.val() {
            if self.accept_in.val() {
                self.cnt.d.next = self.cnt.q.val() + 1;
                if bit_cast::<32, 32>(self.s_tdata.val()) >= self.k_q.val() {
                    self.error_r.d.next = true;
                }
                if self.cnt.q.val() == 255 {
                    if !self.s_tlast.val() {
                        self.error_r.d.next = true;
                    }
                    self.finish.next = true;
                } else if self.s_tlast.val() {
                    self.error_r.d.next = true;
                    self.finish.next = true;
                }
            }
        } else if self.state.q.val() == self.c_st_store_rows.val() {
            self.primed.d.next = true;
            self.cnt.d.next = self.cnt.q.val() + 1;
            if self.primed.q.val() & (self.cnt.q.val() == self.k_row_count.val()) {
                self.finish.next = true;
            }
        } else if self.state.q.val() == self.c_st_load_rows.val() {
            if self.accept_row.val() {
                self.cnt.d.next = self.cnt.q.val() + 1;
                if self.cnt.q.val() == self.k_last_tr.val() {
                    self.finish.next = true;
                }
            }
        } else if self.state.q.val() == self.c_st_store.val() {
            self.primed.d.next = true;
            self.cnt.d.next = self.next_idx.val();
            if self.accept_out.val() & (self.cnt.q.val() == 255) {
                self.finish.next = true;
            }
        } else {
            self.state.d.next = self.c_st_idle.val();
        }
        if self.finish.val() {
            self.state.d.next = self.c_st_idle.val();
            self.done_r.d.next = true;
        }
        // Abort wins over everything, busy or not: back to idle, and no
        // write of the pipeline lands any more.
        if self.start.val() & (self.op.val() == self.k_op_abort.val()) {
            self.state.d.next = self.c_st_idle.val();
            self.done_r.d.next = true;
            self.error_r.d.next = true;
            self.primed.d.next = false;
            for i in 0..ISSUE_TO_WRITE {
                self.pv[i].d.next = false;
            }
        }
        if self.reset.val() {
            self.state.d.next = self.c_st_idle.val();
            self.done_r.d.next = false;
            self.error_r.d.next = false;
            self.cycles_r.d.next = 0.into();
            self.primed.d.next = false;
            for i in 0..ISSUE_TO_WRITE {
                self.pv[i].d.next = false;
            }
        }
    }
}
