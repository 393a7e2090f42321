//! The NTT core.
use super::butterfly::BUTTERFLY_LATENCY;
/// Cycles from a read issue to the write of its results.
pub const ISSUE_TO_WRITE: usize = 1 + BUTTERFLY_LATENCY;
