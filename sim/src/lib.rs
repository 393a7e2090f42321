//! Co-simulation of the PS application against the accelerator models (not written yet).
