//! The matrix sampler against `pqc`'s ExpandA, driven by a model of the
//! sequencer around it: a SHAKE128 sponge that takes the absorb words and
//! squeezes with gaps, a core that loads the ring's slots at random
//! clocks, and (KeyGen's case) another sampler filling slots while `hold`
//! is high.

use super::*;
use crate::ntt::sim::{settle, tick, Lcg};
use pqc::keccak::{KeccakBackend, SoftKeccak, SpongeMode};
use pqc::mldsa::sample::expand_a_entry;
use pqc::ring::N;
use std::collections::VecDeque;

/// What a ring slot holds.
#[derive(Clone, Debug, PartialEq)]
enum Slot {
    /// Loaded (or never written): free.
    Free,
    /// Being written (coefficients so far).
    Writing(Vec<Option<i32>>),
    /// Written by the matrix sampler: Â\[row\]\[col\].
    Entry(usize, usize, Vec<i32>),
    /// Written by the other sampler.
    Other,
}

/// The environment's knobs (each a probability in 1/16).
struct Knobs {
    feed_room: u32,
    squeeze_valid: u32,
    consume: u32,
    hold: u32,
    other: u32,
}

/// Runs the sampler from `start` for a k × l matrix; when `halt_at` is
/// set, halts it on that clock and returns early. Returns the entries the
/// core loaded in order (`None` for the other sampler's) and the clocks.
fn run(
    uut: &mut MatrixSampler,
    rho: &[u8; 32],
    (k, l): (usize, usize),
    knobs: &Knobs,
    rng: &mut Lcg,
    halt_at: Option<usize>,
) -> (Vec<Option<(usize, usize)>>, usize) {
    let rho_words: Vec<u64> = rho
        .chunks_exact(4)
        .map(|w| u64::from(u32::from_le_bytes(w.try_into().unwrap())))
        .collect();
    let mut slots = vec![Slot::Free; RING_SLOTS];
    let mut pending: VecDeque<usize> = VecDeque::new();
    let mut loaded = Vec::new();
    // The sponge: the words absorbed, the squeeze and its read position.
    let mut absorbed: Option<Vec<u32>> = None;
    let mut stream: Vec<u32> = Vec::new();
    let mut read = 0;
    let mut squeeze_delay = 0usize;
    let mut running: Option<(usize, usize)> = None;
    let p = |rng: &mut Lcg, sixteenths: u32| rng.next_u32() % 16 < sixteenths;
    uut.k.next = (k as u64).into();
    uut.l.next = (l as u64).into();
    uut.start.next = true;
    tick(uut, |u| &mut u.clock);
    uut.start.next = false;
    let mut clocks = 0;
    while uut.active.val() || !pending.is_empty() {
        clocks += 1;
        assert!(clocks < 2_000 * k * l, "the sampler hangs");
        if Some(clocks) == halt_at {
            uut.halt.next = true;
            tick(uut, |u| &mut u.clock);
            uut.halt.next = false;
            settle(uut);
            assert!(!uut.active.val());
            return (loaded, clocks);
        }
        uut.feed_room.next = p(rng, knobs.feed_room);
        uut.hold.next = p(rng, knobs.hold);
        let offer = absorbed.is_none() && squeeze_delay == 0 && read < stream.len();
        uut.squeeze_valid.next = offer && p(rng, knobs.squeeze_valid);
        uut.squeeze_data.next = u64::from(stream.get(read).copied().unwrap_or(0)).into();
        settle(uut);
        uut.rho_word.next = rho_words[uut.rho_index.val().index()].into();
        uut.consume.next = uut.ring_ready.val() && p(rng, knobs.consume);
        uut.produce_other.next = uut.hold.val()
            && !uut.sponge_owned.val()
            && !uut.ring_full.val()
            && p(rng, knobs.other);
        settle(uut);
        let write_slot = uut.write_slot.val().index();
        // The sponge's side.
        if uut.sponge_launch.val() {
            assert!(running.is_none(), "clock {clocks}: launch during an entry");
            assert_eq!(uut.sponge_arg0.val().index() as u32, kregs::MODE_SHAKE128);
            assert_eq!(uut.sponge_arg1.val().to_u64(), ABSORB_BYTES);
            let entry = (uut.row.val().index(), uut.col.val().index());
            running = Some(entry);
            absorbed = Some(Vec::new());
            stream.clear();
            read = 0;
            assert_eq!(slots[write_slot], Slot::Free, "clock {clocks}: full ring");
            slots[write_slot] = Slot::Writing(vec![None; N]);
        }
        if uut.sponge_owned.val() && uut.feed_valid.val() && uut.feed_room.val() {
            let words = absorbed.as_mut().expect("absorb outside a request");
            words.push(uut.feed_data.val().to_u64() as u32);
            assert_eq!(uut.feed_last.val(), words.len() == 9);
            if uut.feed_last.val() {
                let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                let (row, col) = running.unwrap();
                assert_eq!(&bytes[..32], rho, "clock {clocks}: ρ");
                assert_eq!(bytes[32..34], [col as u8, row as u8], "clock {clocks}");
                assert_eq!(bytes[34..], [0, 0], "clock {clocks}");
                let mut out = vec![0u8; 168 * 8];
                SoftKeccak.sponge(SpongeMode::Shake128, &[&bytes[..34]], &mut out);
                stream = out
                    .chunks_exact(4)
                    .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
                    .collect();
                absorbed = None;
                squeeze_delay = 25;
            }
        }
        squeeze_delay = squeeze_delay.saturating_sub(1);
        if uut.squeeze_valid.val() && uut.squeeze_ready.val() {
            assert!(uut.sponge_owned.val());
            read += 1;
        }
        if uut.coeff_write.val() {
            assert!(
                uut.sponge_owned.val(),
                "clock {clocks}: write outside an entry"
            );
            let Slot::Writing(coeffs) = &mut slots[write_slot] else {
                panic!(
                    "clock {clocks}: write into slot {write_slot}: {:?}",
                    slots[write_slot]
                );
            };
            coeffs[uut.coeff_index.val().index()] = Some(uut.coeff_data.val().to_u64() as i32);
        }
        if uut.sponge_abort.val() {
            assert!(running.is_some());
            stream.clear();
        }
        if uut.entry_done.val() {
            let (row, col) = running.take().expect("an entry to end");
            let Slot::Writing(coeffs) = &slots[write_slot] else {
                panic!("clock {clocks}: entry ends on slot {write_slot}");
            };
            let got: Vec<i32> = coeffs
                .iter()
                .map(|c| c.expect("256 coefficients"))
                .collect();
            let mut want = [0i32; N];
            expand_a_entry(&mut SoftKeccak, rho, row, col, &mut want);
            assert_eq!(got, want.to_vec(), "Â[{row}][{col}]");
            slots[write_slot] = Slot::Entry(row, col, got);
            pending.push_back(write_slot);
        }
        if uut.produce_other.val() {
            assert_eq!(slots[write_slot], Slot::Free);
            slots[write_slot] = Slot::Other;
            pending.push_back(write_slot);
        }
        if uut.consume.val() {
            let slot = pending.pop_front().expect("a filled slot");
            assert_eq!(uut.read_slot.val().index(), slot, "clock {clocks}");
            loaded.push(match &slots[slot] {
                Slot::Entry(row, col, _) => Some((*row, *col)),
                Slot::Other => None,
                s => panic!("clock {clocks}: loading {s:?}"),
            });
            slots[slot] = Slot::Free;
        }
        assert_eq!(uut.ring_full.val(), pending.len() == RING_SLOTS);
        tick(uut, |u| &mut u.clock);
    }
    assert!(running.is_none());
    (loaded, clocks)
}

fn entries(loaded: &[Option<(usize, usize)>]) -> Vec<(usize, usize)> {
    loaded.iter().flatten().copied().collect()
}

fn row_order(k: usize, l: usize) -> Vec<(usize, usize)> {
    (0..k).flat_map(|i| (0..l).map(move |j| (i, j))).collect()
}

#[test]
fn matrix_sampler_writes_expand_a_into_the_ring_in_row_order() {
    let mut uut = MatrixSampler::default();
    uut.connect_all();
    settle(&mut uut);
    let mut rng = Lcg::new(32);
    let busy = Knobs {
        feed_room: 11,
        squeeze_valid: 12,
        consume: 3,
        hold: 4,
        other: 8,
    };
    let eager = Knobs {
        feed_room: 16,
        squeeze_valid: 16,
        consume: 16,
        hold: 0,
        other: 0,
    };
    for (case, (k, l)) in [(4, 4), (2, 3), (8, 7)].into_iter().enumerate() {
        let rho: [u8; 32] = core::array::from_fn(|_| rng.next_u32() as u8);
        let knobs = if case == 1 { &eager } else { &busy };
        let (loaded, clocks) = run(&mut uut, &rho, (k, l), knobs, &mut rng, None);
        assert_eq!(entries(&loaded), row_order(k, l), "case {case}");
        if case != 1 {
            assert!(loaded.iter().any(Option::is_none), "no other slot");
        }
        assert!(clocks > 280 * k * l, "{clocks}");
        eprintln!("case {case}: {clocks} clocks, {} loads", loaded.len());
    }
}

#[test]
fn matrix_sampler_halts_and_starts_again() {
    let mut uut = MatrixSampler::default();
    uut.connect_all();
    settle(&mut uut);
    let mut rng = Lcg::new(33);
    let knobs = Knobs {
        feed_room: 14,
        squeeze_valid: 14,
        consume: 8,
        hold: 0,
        other: 0,
    };
    let rho = [7u8; 32];
    // Halted within the second entry: one entry loaded at most.
    let (loaded, _) = run(&mut uut, &rho, (2, 2), &knobs, &mut rng, Some(450));
    assert!(loaded.len() <= 1, "{loaded:?}");
    let rho = [9u8; 32];
    let (loaded, _) = run(&mut uut, &rho, (2, 2), &knobs, &mut rng, None);
    assert_eq!(entries(&loaded), row_order(2, 2));
}

#[test]
fn matrix_sampler_yosys_validates() {
    let mut uut = MatrixSampler::default();
    uut.connect_all();
    yosys_validate("mldsa_matrix_sampler", &generate_verilog(&uut)).unwrap();
}
