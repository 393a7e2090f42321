//! Reset entry and exception vectors (ARM state, Secure SVC mode on entry,
//! MMU and caches off, as QEMU's `-kernel` and xsdb's `dow`/`con` leave
//! the CPU).
//!
//! `_start` parks CPU1, disables MMU and caches, points VBAR at our
//! vectors, invalidates TLBs, branch predictor, I-cache and the L1 D-cache
//! (by set/way, sized from CCSIDR), gives every exception mode the trap
//! stack and SYS mode the application stack, zeroes `.bss`, copies `.data`
//! if it was loaded apart, enables VFP/NEON (CPACR cp10/cp11, FPEXC.EN) and
//! calls [`super::start`] in SYS mode. The MMU and caches are turned on from
//! Rust (see `mmu.rs`), once the translation table exists.

core::arch::global_asm!(
    r#"
    .section .vector_table, "ax"
    .arm
    .balign 32
    .global _vector_table
_vector_table:
    b _start
    b _trap_undefined
    b _trap_svc
    b _trap_prefetch_abort
    b _trap_data_abort
    b _trap_reserved
    b _trap_irq
    b _trap_fiq

_trap_undefined:      mov r0, #1
                      b _trap_common
_trap_svc:            mov r0, #2
                      b _trap_common
_trap_prefetch_abort: mov r0, #3
                      b _trap_common
_trap_data_abort:     mov r0, #4
                      b _trap_common
_trap_reserved:       mov r0, #5
                      b _trap_common
_trap_irq:            mov r0, #6
                      b _trap_common
_trap_fiq:            mov r0, #7
                      b _trap_common
_trap_common:
    mov r1, lr
    ldr sp, =__exception_stack_top
    bl ps_app_exception_trap
    b _park

    .section .text.boot, "ax"
    .arm
    .fpu neon
    .global _start
_start:
    cpsid if
    mrc p15, 0, r0, c0, c0, 5       @ MPIDR: only CPU0 runs the application
    ands r0, r0, #3
    bne _park

    mrc p15, 0, r0, c1, c0, 0       @ SCTLR: MMU, D-cache, I-cache off, VBAR vectors
    bic r0, r0, #0x1
    bic r0, r0, #0x4
    bic r0, r0, #0x1000
    bic r0, r0, #0x2000
    mcr p15, 0, r0, c1, c0, 0
    isb
    ldr r0, =_vector_table
    mcr p15, 0, r0, c12, c0, 0      @ VBAR

    mov r0, #0
    mcr p15, 0, r0, c8, c7, 0       @ TLBIALL
    mcr p15, 0, r0, c7, c5, 0       @ ICIALLU
    mcr p15, 0, r0, c7, c5, 6       @ BPIALL

    mcr p15, 2, r0, c0, c0, 0       @ CSSELR: level 1 data cache
    isb
    mrc p15, 1, r0, c0, c0, 0       @ CCSIDR
    and r1, r0, #7
    add r1, r1, #4                  @ log2(line bytes)
    ldr r3, =0x3ff
    and r2, r3, r0, lsr #3          @ ways - 1
    ldr r3, =0x7fff
    and r3, r3, r0, lsr #13         @ sets - 1
    clz r4, r2                      @ position of the way field
1:  mov r5, r3
2:  lsl r6, r2, r4
    orr r6, r6, r5, lsl r1
    mcr p15, 0, r6, c7, c6, 2       @ DCISW: invalidate by set/way
    subs r5, r5, #1
    bge 2b
    subs r2, r2, #1
    bge 1b
    dsb
    isb

    ldr r0, =__exception_stack_top  @ the trap never returns: one stack serves all
    cps #0x11
    mov sp, r0
    cps #0x12
    mov sp, r0
    cps #0x13
    mov sp, r0
    cps #0x17
    mov sp, r0
    cps #0x1b
    mov sp, r0
    cps #0x1f                       @ SYS mode for the application
    ldr sp, =__sys_stack_top

    ldr r0, =__sbss
    ldr r1, =__ebss
    mov r2, #0
3:  cmp r0, r1
    strlo r2, [r0], #4
    blo 3b

    ldr r0, =__sdata
    ldr r1, =__edata
    ldr r2, =__sidata
    cmp r0, r2
    beq 5f
4:  cmp r0, r1
    ldrlo r3, [r2], #4
    strlo r3, [r0], #4
    blo 4b
5:
    mrc p15, 0, r0, c1, c0, 2       @ CPACR: cp10/cp11 full access
    orr r0, r0, #(0xf << 20)
    mcr p15, 0, r0, c1, c0, 2
    isb
    mov r0, #0x40000000             @ FPEXC.EN
    vmsr fpexc, r0

    bl ps_app_start
    .global _park
_park:
    wfe
    b _park
    .ltorg
"#
);
