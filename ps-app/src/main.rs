//! Bare-metal Zynq-7000 PS application: boots the Cortex-A9, runs the
//! ML-DSA / SLH-DSA self-tests on embedded ACVP vectors, prints a benchmark
//! table (timer ticks and peak stack per operation), and exits through ARM
//! semihosting with status 0 only if every self-test passed.
//!
//! Built for `armv7a-none-eabi` (see `scripts/qemu.sh`). On the host the
//! binary is a stub, so that workspace-wide `cargo test` and `clippy` still
//! cover the target-independent parts (memory map, UART divisors, the
//! application logic and the self-tests).
#![cfg_attr(target_os = "none", no_std)]
#![cfg_attr(target_os = "none", no_main)]
// On the host only the tests use the application code; the target build
// (clippy -D warnings in scripts/test.d/20-ps-app.sh) still catches dead code.
#![cfg_attr(not(target_os = "none"), allow(dead_code))]

mod app;
mod bench;
mod memory_map;
mod uart_config;

#[cfg(target_os = "none")]
mod board;

#[cfg(not(target_os = "none"))]
fn main() {
    eprintln!("ps-app runs on the Zynq-7000 PS: build it with scripts/qemu.sh");
    std::process::exit(2);
}
