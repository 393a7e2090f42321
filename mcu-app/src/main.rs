//! Bare-metal Cortex-M4F / Cortex-M7 application: runs the ML-DSA / SLH-DSA
//! self-tests on the ACVP vectors both firmwares embed (`pqc-selftest`), prints a benchmark
//! table (instructions under QEMU, cycles on a board, and peak stack per
//! operation), and exits through semihosting with status 0 only if every
//! self-test passed and every benchmarked operation succeeded.
//!
//! Built for `thumbv7em-none-eabihf` with one board feature (see
//! `scripts/mcu_qemu.sh`). On the host the binary is a stub; only the
//! board-independent table code is compiled and unit tested there.
#![cfg_attr(target_os = "none", no_std)]
#![cfg_attr(target_os = "none", no_main)]
#![cfg_attr(not(target_os = "none"), allow(dead_code))]

mod table;

#[cfg(target_os = "none")]
mod app;
#[cfg(target_os = "none")]
mod bench;
#[cfg(target_os = "none")]
mod board;

#[cfg(target_os = "none")]
#[cortex_m_rt::entry]
fn main() -> ! {
    // Key and signature buffers outside the measured stack. `entry` hands a
    // `static mut` declared here to main as `&mut`, once.
    static mut BUFFERS: bench::Buffers = bench::Buffers::new();
    let Some(mut peripherals) = cortex_m::Peripherals::take() else {
        board::exit(board::STATUS_PANIC)
    };
    let status = app::run(&mut peripherals, BUFFERS);
    board::exit(status)
}

#[cfg(not(target_os = "none"))]
fn main() {
    eprintln!("mcu-app runs on a Cortex-M: build it with scripts/mcu_qemu.sh");
    std::process::exit(2);
}
