//! The Xilinx AXI DMA (PG021) cores of the design, simple (register
//! direct) mode: how they are configured in the Vivado script, the buffers
//! the firmware reserves for them, and their registers.

use crate::typed::{register_bits, Register};

/// "Width of Buffer Length Register" (`c_sg_length_width`) of every AXI DMA
/// core in the block design: transfers of up to 2^23 − 1 bytes.
pub const LENGTH_WIDTH_BITS: u32 = 23;
/// Data width of the AXI4-Stream ports (`c_m_axis_mm2s_tdata_width`,
/// `c_s_axis_s2mm_tdata_width`) and of the accelerators' streams.
pub const STREAM_DATA_BITS: u32 = 32;
/// Memory-mapped data width of the DMA's AXI masters
/// (`c_m_axi_mm2s_data_width`, `c_m_axi_s2mm_data_width`).
pub const MEMORY_DATA_BITS: u32 = 32;
/// Largest transfer one LENGTH write can request.
pub const MAX_TRANSFER_BYTES: usize = (1 << LENGTH_WIDTH_BITS) - 1;

/// Source and destination buffer of the NTT core's DMA: one polynomial
/// (256 coefficients as 32-bit words) each way.
pub const NTT_BUFFER_BYTES: usize = 1024;
/// Source and destination buffer of the Keccak engine's DMA: the longest
/// message the protocols hash through it is ML-DSA-87's 2,592-byte public
/// key; longer requests run in software.
pub const KECCAK_BUFFER_BYTES: usize = 4096;
/// Largest stream of the ML-DSA engine's DMA, in bytes: the `OP_KEYGEN`
/// output of ML-DSA-87, pk ‖ sk = 2,592 + 4,896 (`pqc`'s `pk_len` +
/// `sk_len`; a test in `hdl` compares) and the check word. The input, ξ,
/// is 32 bytes.
pub const MLDSA_MAX_STREAM_BYTES: usize =
    2592 + 4896 + 4 * crate::regmap::mldsa::OUTPUT_CHECK_WORDS;
// S2MM must be armed for the whole packet in one LENGTH write (a packet
// longer than the armed length is DMA_INT_ERR).
const _: () = assert!(MLDSA_MAX_STREAM_BYTES <= MAX_TRANSFER_BYTES);
/// SIG_FORS ‖ SIG_HT of SLH-DSA-*-256f in bytes: `pqc`'s `sig_bytes`
/// (49,856) less R (32); a test in `driver` compares.
const SLHDSA_256F_BODY_BYTES: usize = 49_856 - 32;
/// Largest stream of the SLH-DSA engine's DMA, in bytes: the `OP_VERIFY`
/// input of SLH-DSA-*-256f, its header and SIG_FORS ‖ SIG_HT (49,940). The
/// largest output, 256f's `OP_SIGN` (the body and the verdict word,
/// 49,828 bytes), is shorter. Until stop 30 this was the output's length,
/// so a 256f verification did not fit the driver's buffer and ran in
/// software.
pub const SLHDSA_MAX_STREAM_BYTES: usize = max(
    4 * crate::regmap::slhdsa::VERIFY_HEADER_WORDS + SLHDSA_256F_BODY_BYTES,
    SLHDSA_256F_BODY_BYTES + 4,
);

const fn max(a: usize, b: usize) -> usize {
    if a > b {
        a
    } else {
        b
    }
}
const _: () = assert!(SLHDSA_MAX_STREAM_BYTES <= MAX_TRANSFER_BYTES);

/// Register byte offsets, for device models that decode raw addresses.
pub mod offset {
    /// MM2S control register.
    pub const MM2S_DMACR: usize = 0x00;
    /// MM2S status register.
    pub const MM2S_DMASR: usize = 0x04;
    /// MM2S source address (low 32 bits).
    pub const MM2S_SA: usize = 0x18;
    /// MM2S transfer length in bytes; writing it starts the transfer.
    pub const MM2S_LENGTH: usize = 0x28;
    /// S2MM control register.
    pub const S2MM_DMACR: usize = 0x30;
    /// S2MM status register.
    pub const S2MM_DMASR: usize = 0x34;
    /// S2MM destination address (low 32 bits).
    pub const S2MM_DA: usize = 0x48;
    /// S2MM buffer length in bytes; writing it arms the channel. After the
    /// transfer it reads back the bytes actually received.
    pub const S2MM_LENGTH: usize = 0x58;
    /// Size of the register file (the last register ends before it).
    pub const REGISTER_FILE_BYTES: usize = 0x60;
}

register_bits!(
    /// DMACR, the control register of a channel.
    Dmacr {
        /// Run/stop.
        RS = 1 << 0;
        /// Soft reset of both channels (self-clearing).
        RESET = 1 << 2;
        /// Interrupt on complete enable.
        IOC_IRQ_EN = 1 << 12;
        /// Error interrupt enable.
        ERR_IRQ_EN = 1 << 14;
    }
);

register_bits!(
    /// DMASR, the status register of a channel.
    Dmasr {
        /// The channel is halted (reset, stopped, or stopped by an error).
        HALTED = 1 << 0;
        /// Simple mode: the transfer has completed (or none was started).
        IDLE = 1 << 1;
        /// Internal error (e.g. zero length, a packet longer than the S2MM buffer).
        DMA_INT_ERR = 1 << 4;
        /// Slave error from the memory side.
        DMA_SLV_ERR = 1 << 5;
        /// Decode error: no slave at the address.
        DMA_DEC_ERR = 1 << 6;
        /// Interrupt on complete (write 1 to clear).
        IOC_IRQ = 1 << 12;
        /// Delay interrupt (write 1 to clear).
        DLY_IRQ = 1 << 13;
        /// Error interrupt (write 1 to clear).
        ERR_IRQ = 1 << 14;
    }
);

impl Dmasr {
    /// The error bits.
    pub const ERRORS: Dmasr =
        Dmasr(Dmasr::DMA_INT_ERR.0 | Dmasr::DMA_SLV_ERR.0 | Dmasr::DMA_DEC_ERR.0);
    /// The only bits a write can change: the interrupt bits, write 1 to clear.
    pub const WRITE_1_TO_CLEAR: Dmasr =
        Dmasr(Dmasr::IOC_IRQ.0 | Dmasr::DLY_IRQ.0 | Dmasr::ERR_IRQ.0);
}

/// A 32-bit bus address (SA, DA).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BusAddress(pub u32);

/// A transfer length in bytes (LENGTH).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Length(pub u32);

impl crate::typed::RegisterValue for BusAddress {
    fn from_bits(bits: u32) -> Self {
        BusAddress(bits)
    }
    fn bits(self) -> u32 {
        self.0
    }
}

impl crate::typed::RegisterValue for Length {
    fn from_bits(bits: u32) -> Self {
        Length(bits)
    }
    fn bits(self) -> u32 {
        self.0
    }
}

/// MM2S control register.
pub const MM2S_DMACR: Register<Dmacr> = Register::at(offset::MM2S_DMACR);
/// MM2S status register.
pub const MM2S_DMASR: Register<Dmasr> = Register::at(offset::MM2S_DMASR);
/// MM2S source address.
pub const MM2S_SA: Register<BusAddress> = Register::at(offset::MM2S_SA);
/// MM2S length: writing it starts the transfer.
pub const MM2S_LENGTH: Register<Length> = Register::at(offset::MM2S_LENGTH);
/// S2MM control register.
pub const S2MM_DMACR: Register<Dmacr> = Register::at(offset::S2MM_DMACR);
/// S2MM status register.
pub const S2MM_DMASR: Register<Dmasr> = Register::at(offset::S2MM_DMASR);
/// S2MM destination address.
pub const S2MM_DA: Register<BusAddress> = Register::at(offset::S2MM_DA);
/// S2MM length: writing it arms the channel; reads back the bytes received.
pub const S2MM_LENGTH: Register<Length> = Register::at(offset::S2MM_LENGTH);

/// The registers of one direction of the engine.
#[derive(Clone, Copy, Debug)]
pub struct ChannelRegisters {
    /// Control.
    pub dmacr: Register<Dmacr>,
    /// Status.
    pub dmasr: Register<Dmasr>,
    /// Address (SA or DA).
    pub address: Register<BusAddress>,
    /// Length.
    pub length: Register<Length>,
}

/// Memory to stream.
pub const MM2S: ChannelRegisters = ChannelRegisters {
    dmacr: MM2S_DMACR,
    dmasr: MM2S_DMASR,
    address: MM2S_SA,
    length: MM2S_LENGTH,
};
/// Stream to memory.
pub const S2MM: ChannelRegisters = ChannelRegisters {
    dmacr: S2MM_DMACR,
    dmasr: S2MM_DMASR,
    address: S2MM_DA,
    length: S2MM_LENGTH,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_fit_the_length_register_and_whole_stream_words() {
        for b in [
            NTT_BUFFER_BYTES,
            KECCAK_BUFFER_BYTES,
            MLDSA_MAX_STREAM_BYTES,
            SLHDSA_MAX_STREAM_BYTES,
        ] {
            assert!(b <= MAX_TRANSFER_BYTES);
            assert_eq!(b % (STREAM_DATA_BITS as usize / 8), 0);
        }
        assert!(
            (8..=26).contains(&LENGTH_WIDTH_BITS),
            "PG021 allows 8..=26 bits"
        );
    }

    #[test]
    fn registers_lie_in_the_register_file_and_the_w1c_bits_are_the_interrupts() {
        for ch in [MM2S, S2MM] {
            for o in [
                ch.dmacr.offset(),
                ch.dmasr.offset(),
                ch.address.offset(),
                ch.length.offset(),
            ] {
                assert!(o % 4 == 0 && o < offset::REGISTER_FILE_BYTES);
            }
        }
        assert_eq!(
            Dmasr::WRITE_1_TO_CLEAR,
            Dmasr::IOC_IRQ | Dmasr::DLY_IRQ | Dmasr::ERR_IRQ
        );
        assert!(!Dmasr::WRITE_1_TO_CLEAR.intersects(Dmasr::HALTED | Dmasr::IDLE | Dmasr::ERRORS));
    }
}
