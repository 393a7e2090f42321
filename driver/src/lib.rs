//! Zynq PL accelerator driver (not written yet).
#![no_std]
