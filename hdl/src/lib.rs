//! rust-hdl accelerator cores (not written yet).
