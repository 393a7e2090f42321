//! The conservative model of the PS–PL bus that the co-simulation clocks
//! and the timing report states. Figures in PL cycles at the PL clock.

/// One AXI4-Lite access from the Cortex-A9 through M_AXI_GP0 and the
/// interconnect, read or write, status polls included.
pub const AXI_LITE_ACCESS_CYCLES: u32 = 32;
/// From the CPU's write of a DMA LENGTH register to the first stream beat.
pub const DMA_FIRST_BEAT_CYCLES: u32 = 80;
/// From the beat with TLAST into S2MM to the channel reporting idle.
pub const S2MM_COMPLETION_CYCLES: u32 = 40;
/// Stream bytes moved per PL cycle at most (32-bit AXI4-Stream).
pub const STREAM_BYTES_PER_CYCLE: u32 = crate::dma::STREAM_DATA_BITS / 8;
