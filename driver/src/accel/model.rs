//! A behavioural model of the PL for the host tests: the two control
//! blocks (computing with `pqc`'s software), their two simple-mode DMA
//! engines, and the DDR they reach, all behind the driver's traits in safe
//! code. It is also the worked example of the module docs' memory recipe.

use super::{Control, DmaPort, HwKeccak, HwRing};
use crate::bus::RegisterBus;
use crate::cache::{is_line_aligned, CacheMaintenance};
use crate::dma::{AddressMap, AxiDma, OffsetMap};
use crate::poll::PollTimeout;
use crate::regmap::{ctrl, dma as dreg, keccak as kreg, ntt as nreg};
use pqc::keccak::{KeccakBackend, SoftKeccak, SpongeMode};
use pqc::ring::{self, Poly, N, Q};
use std::cell::RefCell;
use std::rc::Rc;
use std::vec::Vec;

/// Which core (and its DMA).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    Ntt,
    Keccak,
}

/// Injected misbehaviour, from job number `from_job` of that core on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Neither the core nor its DMA ever completes.
    Hang,
    /// The DMA reports DMASlvErr on the channel it starts.
    SlaveError,
    /// The ID register reads 0 (no core).
    WrongId,
    /// VERSION reads major 2.
    WrongVersion,
    /// Every job ends with STATUS_ERROR.
    StatusError,
    /// NTT: a STORE returns q in word 5. Keccak: the output stream is one word short.
    BadOutput,
}

#[derive(Default)]
struct Dma {
    regs: [u32; 0x60 / 4],
    /// S2MM armed with this many bytes of room.
    room: Option<usize>,
}

struct Core {
    which: Which,
    args: [u32; 3],
    status: u32,
    cycles: u32,
    job: Option<u32>,
    input: Vec<u32>,
    output: Vec<u32>,
    slots: [Poly; nreg::SLOTS as usize],
    dma: Dma,
    jobs_started: u64,
    fault: Option<(Fault, u64)>,
    /// Control-register accesses (reads and writes).
    ctrl_accesses: u64,
    /// DMA-register accesses.
    dma_accesses: u64,
}

/// The simulated PL and DDR.
pub struct Pl {
    /// (bus base, bytes) of each DDR region.
    regions: Vec<(u32, Vec<u8>)>,
    ntt: Core,
    keccak: Core,
}

/// The model's shared handle.
pub type SharedPl = Rc<RefCell<Pl>>;

impl Pl {
    pub fn new() -> SharedPl {
        let core = |which| Core {
            which,
            args: [0; 3],
            status: 0,
            cycles: 0,
            job: None,
            input: Vec::new(),
            output: Vec::new(),
            slots: [[0; N]; nreg::SLOTS as usize],
            dma: Dma::default(),
            jobs_started: 0,
            fault: None,
            ctrl_accesses: 0,
            dma_accesses: 0,
        };
        Rc::new(RefCell::new(Pl {
            regions: Vec::new(),
            ntt: core(Which::Ntt),
            keccak: core(Which::Keccak),
        }))
    }

    fn core(&mut self, which: Which) -> &mut Core {
        match which {
            Which::Ntt => &mut self.ntt,
            Which::Keccak => &mut self.keccak,
        }
    }

    /// Injects `fault` into `which` from its job number `from_job` (0 = at once).
    pub fn inject(&mut self, which: Which, fault: Fault, from_job: u64) {
        self.core(which).fault = Some((fault, from_job));
    }

    /// (control, DMA) register accesses of `which` so far.
    pub fn accesses(&mut self, which: Which) -> (u64, u64) {
        let c = self.core(which);
        (c.ctrl_accesses, c.dma_accesses)
    }

    fn range(&mut self, addr: u32, len: usize) -> &mut [u8] {
        range(&mut self.regions, addr, len)
    }

    /// Moves stream data between the core and DDR and runs ready jobs.
    fn pump(&mut self, which: Which) {
        let Pl {
            regions,
            ntt,
            keccak,
        } = self;
        let core = match which {
            Which::Ntt => ntt,
            Which::Keccak => keccak,
        };
        core.step();
        let Some(room) = core.dma.room else { return };
        if core.output.is_empty() || core.active_fault() == Some(Fault::Hang) {
            return;
        }
        let bytes: Vec<u8> = core.output.drain(..).flat_map(u32::to_le_bytes).collect();
        let n = bytes.len().min(room);
        let regs = &mut core.dma.regs;
        regs[dreg::S2MM_LENGTH / 4] = n as u32;
        regs[dreg::S2MM_DMASR / 4] |= dreg::DMASR_IDLE | dreg::DMASR_IOC_IRQ;
        core.dma.room = None;
        let da = regs[dreg::S2MM_DA / 4];
        range(regions, da, n).copy_from_slice(&bytes[..n]);
    }
}

fn range(regions: &mut [(u32, Vec<u8>)], addr: u32, len: usize) -> &mut [u8] {
    for (base, bytes) in regions {
        if addr >= *base && (addr - *base) as usize + len <= bytes.len() {
            let at = (addr - *base) as usize;
            return &mut bytes[at..at + len];
        }
    }
    panic!("DMA outside the DDR model: {addr:#x} + {len}");
}

impl Core {
    fn active_fault(&self) -> Option<Fault> {
        match self.fault {
            Some((f, from)) if self.jobs_started > from => Some(f),
            _ => None,
        }
    }

    fn finish(&mut self, error: bool, cycles: u32) {
        self.job = None;
        self.cycles = cycles;
        let error = error || self.active_fault() == Some(Fault::StatusError);
        self.status = ctrl::STATUS_DONE | if error { ctrl::STATUS_ERROR } else { 0 };
    }

    /// Runs the pending job if its input has arrived.
    fn step(&mut self) {
        let Some(op) = self.job else { return };
        if self.active_fault() == Some(Fault::Hang) {
            return;
        }
        match self.which {
            Which::Ntt => self.step_ntt(op),
            Which::Keccak => self.step_keccak(op),
        }
    }

    fn step_ntt(&mut self, op: u32) {
        let [a0, a1, a2] = self.args.map(|a| a as usize);
        let slots = nreg::SLOTS as usize;
        if a0 >= slots
            || (matches!(op, nreg::OP_PWM | nreg::OP_PWMAC) && (a1 >= slots || a2 >= slots))
        {
            return self.finish(true, 1);
        }
        match op {
            nreg::OP_LOAD => {
                if self.input.len() < N {
                    return;
                }
                let words: Vec<u32> = self.input.drain(..N).collect();
                let bad = words.iter().any(|&w| w >= Q as u32);
                if !bad {
                    self.slots[a0] = core::array::from_fn(|i| words[i] as i32);
                }
                self.finish(bad, N as u32 + 4)
            }
            nreg::OP_STORE => {
                self.output = self.slots[a0].iter().map(|&c| c as u32).collect();
                if self.active_fault() == Some(Fault::BadOutput) {
                    self.output[5] = Q as u32;
                }
                self.finish(false, N as u32 + 4)
            }
            nreg::OP_NTT => {
                ring::ntt(&mut self.slots[a0]);
                self.finish(false, 1100)
            }
            nreg::OP_INTT => {
                ring::intt(&mut self.slots[a0]);
                self.finish(false, 1100)
            }
            nreg::OP_PWM => {
                let (a, b) = (self.slots[a1], self.slots[a2]);
                ring::pointwise_mul(&a, &b, &mut self.slots[a0]);
                self.finish(false, 70)
            }
            nreg::OP_PWMAC => {
                let (a, b) = (self.slots[a1], self.slots[a2]);
                ring::pointwise_mul_acc(&mut self.slots[a0], &a, &b);
                self.finish(false, 70)
            }
            _ => self.finish(true, 1),
        }
    }

    fn step_keccak(&mut self, op: u32) {
        let [a0, a1, a2] = self.args;
        let bytes = |words: &[u32], len: usize| -> Vec<u8> {
            let mut b: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            b.truncate(len);
            b
        };
        let emit = |core: &mut Core, mut out: Vec<u8>, cycles: u32| {
            out.resize(out.len().next_multiple_of(4), 0);
            core.output = out
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                .collect();
            if core.active_fault() == Some(Fault::BadOutput) {
                core.output.pop();
            }
            core.finish(false, cycles);
        };
        match op {
            kreg::OP_SPONGE => {
                if a0 > 3 || a2 == 0 {
                    return self.finish(true, 1);
                }
                let words = (a1 as usize).div_ceil(4);
                if self.input.len() < words {
                    return;
                }
                let msg: Vec<u32> = self.input.drain(..words).collect();
                let msg = bytes(&msg, a1 as usize);
                let mut out = vec![0u8; a2 as usize];
                SoftKeccak.sponge(SpongeMode::ALL[a0 as usize], &[&msg], &mut out);
                let blocks = msg.len() / 136 + out.len() / 136 + 1;
                emit(self, out, 25 * blocks as u32)
            }
            kreg::OP_WOTS_CHAIN => {
                let n = a0 as usize;
                if !matches!(n, 16 | 24 | 32) || a1.checked_add(a2).is_none() {
                    return self.finish(true, 1);
                }
                let words = (2 * n + 32) / 4;
                if self.input.len() < words {
                    return;
                }
                let w: Vec<u32> = self.input.drain(..words).collect();
                let data = bytes(&w, 2 * n + 32);
                let adrs: [u8; 32] = data[n..n + 32].try_into().unwrap();
                let mut out = vec![0u8; n];
                pqc::slhdsa::shake_wots_chain(
                    &mut SoftKeccak,
                    &data[..n],
                    &adrs,
                    &data[n + 32..],
                    a1,
                    a2,
                    &mut out,
                );
                emit(self, out, 25 * a2)
            }
            _ => self.finish(true, 1),
        }
    }
}

/// A control block of the model.
pub struct CtrlBus {
    pub pl: SharedPl,
    pub which: Which,
}

impl RegisterBus for CtrlBus {
    fn read32(&mut self, offset: usize) -> u32 {
        let mut pl = self.pl.borrow_mut();
        let core = pl.core(self.which);
        core.ctrl_accesses += 1;
        let id = match self.which {
            Which::Ntt => nreg::ID,
            Which::Keccak => kreg::ID,
        };
        match offset {
            ctrl::ID if core.fault.map(|f| f.0) == Some(Fault::WrongId) => 0,
            ctrl::ID => id,
            ctrl::VERSION if core.fault.map(|f| f.0) == Some(Fault::WrongVersion) => 2 << 16,
            ctrl::VERSION => ctrl::VERSION_VALUE,
            ctrl::CONFIG => 4,
            ctrl::STATUS => core.status,
            ctrl::CYCLES => core.cycles,
            _ => 0,
        }
    }

    fn write32(&mut self, offset: usize, value: u32) {
        let mut pl = self.pl.borrow_mut();
        let core = pl.core(self.which);
        core.ctrl_accesses += 1;
        match offset {
            ctrl::ARG0 | ctrl::ARG1 | ctrl::ARG2 => core.args[(offset - ctrl::ARG0) / 4] = value,
            ctrl::COMMAND if value & ctrl::COMMAND_START != 0 => {
                let op = value & ctrl::COMMAND_OP_MASK;
                if self.which == Which::Keccak && op == kreg::OP_ABORT {
                    core.input.clear();
                    core.output.clear();
                    core.finish(true, 0);
                    return;
                }
                if core.job.is_some() {
                    return; // busy: start ignored
                }
                core.jobs_started += 1;
                core.job = Some(op);
                core.status = ctrl::STATUS_BUSY;
                drop(pl);
                self.pl.borrow_mut().pump(self.which);
            }
            _ => {}
        }
    }
}

/// A DMA engine of the model.
pub struct DmaBus {
    pub pl: SharedPl,
    pub which: Which,
}

impl RegisterBus for DmaBus {
    fn read32(&mut self, offset: usize) -> u32 {
        let mut pl = self.pl.borrow_mut();
        let core = pl.core(self.which);
        core.dma_accesses += 1;
        core.dma.regs[offset / 4]
    }

    fn write32(&mut self, offset: usize, value: u32) {
        let mut pl = self.pl.borrow_mut();
        let core = pl.core(self.which);
        core.dma_accesses += 1;
        let fault = core.active_fault();
        let regs = &mut core.dma.regs;
        match offset {
            dreg::MM2S_DMASR | dreg::S2MM_DMASR => regs[offset / 4] &= !value,
            dreg::MM2S_DMACR if value & dreg::DMACR_RESET != 0 => {
                core.dma = Dma::default();
                core.dma.regs[dreg::MM2S_DMASR / 4] = dreg::DMASR_HALTED;
                core.dma.regs[dreg::S2MM_DMASR / 4] = dreg::DMASR_HALTED;
            }
            dreg::MM2S_LENGTH => {
                regs[offset / 4] = value;
                match fault {
                    Some(Fault::Hang) => return,
                    Some(Fault::SlaveError) => {
                        regs[dreg::MM2S_DMASR / 4] |= dreg::DMASR_DMA_SLV_ERR;
                        return;
                    }
                    _ => {}
                }
                let sa = regs[dreg::MM2S_SA / 4];
                regs[dreg::MM2S_DMASR / 4] |= dreg::DMASR_IDLE | dreg::DMASR_IOC_IRQ;
                let bytes = pl.range(sa, value as usize).to_vec();
                let core = pl.core(self.which);
                core.input.extend(bytes.chunks(4).map(|c| {
                    let mut w = [0u8; 4];
                    w[..c.len()].copy_from_slice(c);
                    u32::from_le_bytes(w)
                }));
                pl.pump(self.which);
            }
            dreg::S2MM_LENGTH => {
                regs[offset / 4] = value;
                if fault == Some(Fault::SlaveError) {
                    regs[dreg::S2MM_DMASR / 4] |= dreg::DMASR_DMA_SLV_ERR;
                    return;
                }
                core.dma.room = Some(value as usize);
                pl.pump(self.which);
            }
            _ => regs[offset / 4] = value,
        }
    }
}

/// A write-back cache in front of the DDR model.
pub struct SimCache {
    pl: SharedPl,
    map: OffsetMap,
}

impl CacheMaintenance for SimCache {
    fn clean(&mut self, buf: &[u8]) -> Result<(), PollTimeout> {
        let addr = self.map.bus_address(buf).expect("clean outside the arena");
        self.pl
            .borrow_mut()
            .range(addr, buf.len())
            .copy_from_slice(buf);
        Ok(())
    }
    fn invalidate(&mut self, buf: &mut [u8]) -> Result<(), PollTimeout> {
        assert!(is_line_aligned(buf));
        let addr = self
            .map
            .bus_address(buf)
            .expect("invalidate outside the arena");
        buf.copy_from_slice(self.pl.borrow_mut().range(addr, buf.len()));
        Ok(())
    }
}

/// The types of a model-backed port.
pub type ModelPort<'a> = DmaPort<'a, DmaBus, SimCache, OffsetMap>;
/// [`HwRing`] on the model.
pub type ModelRing<'a> = HwRing<'a, CtrlBus, DmaBus, SimCache, OffsetMap>;
/// [`HwKeccak`] on the model.
pub type ModelKeccak<'a> = HwKeccak<'a, CtrlBus, DmaBus, SimCache, OffsetMap>;

/// Poll budget of the model backends (the model answers at once, so a
/// small budget keeps the hang tests fast).
pub const POLL_LIMIT: u32 = 50;

/// A port for `which` whose buffers are `src_len` and `dst_len` bytes of `arena`.
pub fn port<'a>(
    pl: &SharedPl,
    which: Which,
    arena: &'a mut [u8],
    src_len: usize,
    dst_len: usize,
) -> ModelPort<'a> {
    let base = match which {
        Which::Ntt => 0x1000_0000,
        Which::Keccak => 0x2000_0000,
    };
    let map = OffsetMap::new(arena.as_ptr() as usize, arena.len(), base);
    pl.borrow_mut()
        .regions
        .push((base, vec![0xEE; arena.len()]));
    let usable = arena.len() - crate::cache::LINE_BYTES;
    let aligned = super::line_aligned(arena, usable).expect("arena too small");
    let (dst, rest) = aligned.split_at_mut(dst_len);
    let src = &mut rest[..src_len];
    assemble(pl, which, map, src, dst).expect("model buffers")
}

/// A port over caller-chosen buffers, with an address map that reaches
/// everything (`reach = true`) or nothing: for the buffer checks.
pub fn try_port<'a>(
    pl: &SharedPl,
    which: Which,
    reach: bool,
    src: &'a mut [u8],
    dst: &'a mut [u8],
) -> Result<ModelPort<'a>, crate::dma::DmaError> {
    let (lo, hi) = [&*src, &*dst].iter().fold((usize::MAX, 0), |(lo, hi), b| {
        let start = b.as_ptr() as usize;
        (lo.min(start), hi.max(start + b.len()))
    });
    let map = OffsetMap::new(lo, if reach { hi - lo } else { 0 }, 0x3000_0000);
    assemble(pl, which, map, src, dst)
}

/// The DMA engine of `which` with the model's cache over `map`, as a port
/// over `src` and `dst`.
fn assemble<'a>(
    pl: &SharedPl,
    which: Which,
    map: OffsetMap,
    src: &'a mut [u8],
    dst: &'a mut [u8],
) -> Result<ModelPort<'a>, crate::dma::DmaError> {
    let engine = AxiDma::new(
        DmaBus {
            pl: pl.clone(),
            which,
        },
        14,
        POLL_LIMIT,
    );
    let cache = SimCache {
        pl: pl.clone(),
        map,
    };
    DmaPort::new(engine, cache, map, src, dst)
}

/// A control client for `which`.
pub fn control(pl: &SharedPl, which: Which) -> Control<CtrlBus> {
    Control::new(
        CtrlBus {
            pl: pl.clone(),
            which,
        },
        POLL_LIMIT,
    )
}

/// [`HwRing`] over the model with 1 KiB buffers (one polynomial).
pub fn ring<'a>(pl: &SharedPl, arena: &'a mut [u8]) -> ModelRing<'a> {
    HwRing::new(
        control(pl, Which::Ntt),
        port(pl, Which::Ntt, arena, 1024, 1024),
    )
}

/// [`HwKeccak`] over the model with 4 KiB buffers.
pub fn keccak<'a>(pl: &SharedPl, arena: &'a mut [u8]) -> ModelKeccak<'a> {
    HwKeccak::new(
        control(pl, Which::Keccak),
        port(pl, Which::Keccak, arena, 4096, 4096),
    )
}
