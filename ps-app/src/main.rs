//! Bare-metal Zynq-7000 PS application (not written yet).
#![no_std]
#![no_main]

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
