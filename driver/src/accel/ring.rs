//! [`HwRing`]: `pqc::ring::RingBackend` on the NTT core.

use super::{AccelError, AccelStats, Control, DmaPort, Engine};
use crate::bus::RegisterBus;
use crate::cache::CacheMaintenance;
use crate::dma::AddressMap;
use pqc::ring::{Poly, RingBackend, SoftRing, N, Q};
use ps_pl_contract::regmap::ntt;

/// Bytes of one polynomial on the stream: 256 little-endian 32-bit words.
const POLY_BYTES: usize = 4 * N;

// Slot roles. Binary operations read A and B and write ACC, which never
// aliases an operand, so the core never reads and writes one slot at once.
const A: u32 = 0;
const B: u32 = 1;
const ACC: u32 = 2;
const _: () = assert!(ACC < ntt::SLOTS);

/// Ring arithmetic on the PL NTT core (see the [module docs](super)).
///
/// Coefficients cross the trait canonical (`[0, q)`, `pqc::ring`'s
/// contract) and the core wants every LOAD word below q (else
/// `STATUS_ERROR`): inputs are reduced with `rem_euclid(q)` on the way in
/// (the identity on canonical input, so the result still equals
/// [`SoftRing`] on the same residues) and every output word is checked to
/// be below q before it is written back, so results are bit-identical to
/// [`SoftRing`].
///
/// The vector methods keep operands resident in the core's three slots:
/// `dot` loads `row[j]` and `v[j]`, multiply-accumulates into one slot and
/// stores once; `scale_vec` loads `c` once for the whole vector.
pub struct HwRing<'a, Bc, D, C, M> {
    engine: Engine<'a, Bc, D, C, M>,
}

fn load<Bc: RegisterBus, D: RegisterBus, C: CacheMaintenance, M: AddressMap>(
    ctrl: &mut Control<Bc>,
    port: &mut DmaPort<'_, D, C, M>,
    slot: u32,
    p: &Poly,
) -> Result<(), AccelError> {
    for (word, &c) in port.source()[..POLY_BYTES].chunks_exact_mut(4).zip(p) {
        word.copy_from_slice(&(c.rem_euclid(Q) as u32).to_le_bytes());
    }
    ctrl.start(ntt::OP_LOAD, [slot, 0, 0]);
    port.send(POLY_BYTES)?;
    ctrl.wait(ntt::OP_LOAD).map(drop)
}

fn store<Bc: RegisterBus, D: RegisterBus, C: CacheMaintenance, M: AddressMap>(
    ctrl: &mut Control<Bc>,
    port: &mut DmaPort<'_, D, C, M>,
    slot: u32,
    out: &mut Poly,
) -> Result<(), AccelError> {
    ctrl.start(ntt::OP_STORE, [slot, 0, 0]);
    let bytes = port.receive(POLY_BYTES)?;
    let word = |i: usize| {
        u32::from_le_bytes([
            bytes[4 * i],
            bytes[4 * i + 1],
            bytes[4 * i + 2],
            bytes[4 * i + 3],
        ])
    };
    // Check every word before writing any: `out` may be an in-place operand.
    if let Some(index) = (0..N).find(|&i| word(i) >= Q as u32) {
        return Err(AccelError::BadCoefficient {
            index,
            value: word(index),
        });
    }
    ctrl.wait(ntt::OP_STORE)?;
    for (i, c) in out.iter_mut().enumerate() {
        *c = word(i) as i32;
    }
    Ok(())
}

impl<'a, Bc: RegisterBus, D: RegisterBus, C: CacheMaintenance, M: AddressMap>
    HwRing<'a, Bc, D, C, M>
{
    /// A backend over the NTT core's control block and its DMA port. Touches
    /// no register: the core's ID and version are checked on first use
    /// (a mismatch is a fault like any other). The port's buffers must
    /// hold at least one polynomial (1 KiB each way) or every call runs in
    /// software.
    pub fn new(ctrl: Control<Bc>, port: DmaPort<'a, D, C, M>) -> Self {
        HwRing {
            engine: Engine::new(ctrl, port, ntt::ID, ntt::OP_ABORT),
        }
    }

    /// The first fault seen (the hardware may have recovered from it).
    pub fn fault(&self) -> Option<AccelError> {
        self.engine.fault
    }

    /// Whether the core was given up (wrong ID or version, a core or DMA
    /// that did not recover, or repeated failures): every call then runs
    /// in software.
    pub fn abandoned(&self) -> bool {
        self.engine.abandoned()
    }

    /// Job, cycle and DMA counters.
    pub fn stats(&self) -> AccelStats {
        self.engine.stats()
    }

    /// The control-block client (for tests and probing).
    pub fn control(&mut self) -> &mut Control<Bc> {
        &mut self.engine.ctrl
    }

    fn fits(&self) -> bool {
        self.engine.port.source_capacity() >= POLY_BYTES
            && self.engine.port.destination_capacity() >= POLY_BYTES
    }

    /// Runs `job` in hardware if possible; `false` = do it in software.
    fn hw(
        &mut self,
        job: impl FnOnce(&mut Control<Bc>, &mut DmaPort<'a, D, C, M>) -> Result<(), AccelError>,
    ) -> bool {
        if !self.fits() {
            self.engine.software();
            return false;
        }
        self.engine.run(job).is_some()
    }

    /// LOAD `a`, run `op` on it in place, STORE it back.
    fn transform(&mut self, op: u32, a: &mut Poly) {
        let done = self.hw(|ctrl, port| {
            load(ctrl, port, A, a)?;
            ctrl.run(op, [A, 0, 0])?;
            store(ctrl, port, A, a)
        });
        if !done {
            if op == ntt::OP_NTT {
                SoftRing.ntt(a)
            } else {
                SoftRing.intt(a)
            }
        }
    }
}

impl<Bc: RegisterBus, D: RegisterBus, C: CacheMaintenance, M: AddressMap> RingBackend
    for HwRing<'_, Bc, D, C, M>
{
    fn ntt(&mut self, a: &mut Poly) {
        self.transform(ntt::OP_NTT, a)
    }

    fn intt(&mut self, a: &mut Poly) {
        self.transform(ntt::OP_INTT, a)
    }

    fn pointwise_mul(&mut self, a: &Poly, b: &Poly, out: &mut Poly) {
        let done = self.hw(|ctrl, port| {
            load(ctrl, port, A, a)?;
            load(ctrl, port, B, b)?;
            ctrl.run(ntt::OP_PWM, [ACC, A, B])?;
            store(ctrl, port, ACC, out)
        });
        if !done {
            SoftRing.pointwise_mul(a, b, out)
        }
    }

    fn pointwise_mul_acc(&mut self, acc: &mut Poly, a: &Poly, b: &Poly) {
        let done = self.hw(|ctrl, port| {
            load(ctrl, port, ACC, acc)?;
            load(ctrl, port, A, a)?;
            load(ctrl, port, B, b)?;
            ctrl.run(ntt::OP_PWMAC, [ACC, A, B])?;
            store(ctrl, port, ACC, acc)
        });
        if !done {
            SoftRing.pointwise_mul_acc(acc, a, b)
        }
    }

    // Each polynomial is its own LOAD/NTT/STORE job (the core streams one
    // slot per LOAD), and a failure part-way must leave the rest to software
    // without transforming any polynomial twice: so per polynomial.
    fn ntt_vec(&mut self, v: &mut [Poly]) {
        for p in v {
            self.ntt(p);
        }
    }

    fn intt_vec(&mut self, v: &mut [Poly]) {
        for p in v {
            self.intt(p);
        }
    }

    /// `out = Σ row[j] ∘ v[j]`: 2·len loads, len PWM/PWMAC into the
    /// accumulator slot, one store.
    fn dot(&mut self, row: &[Poly], v: &[Poly], out: &mut Poly) {
        debug_assert_eq!(row.len(), v.len());
        let done = !row.is_empty()
            && row.len() == v.len()
            && self.hw(|ctrl, port| {
                for (j, (a, b)) in row.iter().zip(v).enumerate() {
                    load(ctrl, port, A, a)?;
                    load(ctrl, port, B, b)?;
                    let op = if j == 0 { ntt::OP_PWM } else { ntt::OP_PWMAC };
                    ctrl.run(op, [ACC, A, B])?;
                }
                store(ctrl, port, ACC, out)
            });
        if !done {
            SoftRing.dot(row, v, out)
        }
    }

    /// `out[j] = c ∘ v[j]`: `c` loaded once, then per j one load, one PWM,
    /// one store. A failure at j leaves `out[j..]` to software.
    fn scale_vec(&mut self, c: &Poly, v: &[Poly], out: &mut [Poly]) {
        debug_assert_eq!(v.len(), out.len());
        let mut finished = 0;
        if !v.is_empty() && v.len() == out.len() {
            let finished = &mut finished;
            self.hw(|ctrl, port| {
                load(ctrl, port, A, c)?;
                for (p, o) in v.iter().zip(out.iter_mut()) {
                    load(ctrl, port, B, p)?;
                    ctrl.run(ntt::OP_PWM, [ACC, A, B])?;
                    store(ctrl, port, ACC, o)?;
                    *finished += 1;
                }
                Ok(())
            });
        }
        if finished < v.len() {
            SoftRing.scale_vec(c, &v[finished..], &mut out[finished..])
        }
    }
}
