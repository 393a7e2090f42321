//! ARM semihosting exit, so that QEMU (`-semihosting`) ends with our status.
//!
//! SYS_EXIT_EXTENDED (0x20) takes a block {reason, status}; with reason
//! ADP_Stopped_ApplicationExit, QEMU exits with `status` (checked by
//! scripts/test.d/20-ps-app.sh for both 0 and a failing status). Without a
//! semihosting host (a board run without a debugger) the SVC enters our
//! trap, which parks the CPU: the status line on the UART is then the result.

const SYS_EXIT_EXTENDED: u32 = 0x20;
const ADP_STOPPED_APPLICATION_EXIT: u32 = 0x20026;

/// Ends the program with `status` (0 = every self-test passed).
pub fn exit(status: u32) -> ! {
    let block = [ADP_STOPPED_APPLICATION_EXIT, status];
    // SAFETY: the semihosting call reads the two-word block, which lives
    // until the call returns (it does not, under a semihosting host).
    unsafe {
        core::arch::asm!(
            "svc 0x123456",
            inout("r0") SYS_EXIT_EXTENDED => _,
            in("r1") block.as_ptr(),
            options(nostack)
        );
    }
    park()
}

/// Stops the CPU for good.
pub fn park() -> ! {
    loop {
        // SAFETY: WFE only waits for an event.
        unsafe { core::arch::asm!("wfe", options(nomem, nostack)) };
    }
}
