//! Bounded polling: every wait on hardware gives up after a fixed number of
//! attempts, so a missing or wedged device yields an error, never a hang.

/// A poll gave up: the condition did not hold within the attempt budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PollTimeout {
    /// How many times the condition was checked.
    pub attempts: u32,
}

/// Calls `check` up to `max_attempts` times (at least once) until it
/// returns `Some`; returns that value, or [`PollTimeout`].
///
/// The budget counts register reads, not time: on a 666 MHz Cortex-A9 an
/// uncached read over the AXI GP port costs roughly 100–200 ns, so
/// 1_000_000 attempts bound a wait to well under a second.
pub fn poll_until<T>(
    max_attempts: u32,
    mut check: impl FnMut() -> Option<T>,
) -> Result<T, PollTimeout> {
    let attempts = max_attempts.max(1);
    for _ in 0..attempts {
        if let Some(value) = check() {
            return Ok(value);
        }
        core::hint::spin_loop();
    }
    Err(PollTimeout { attempts })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returns_the_first_success_and_stops_checking() {
        let mut calls = 0;
        let got = poll_until(10, || {
            calls += 1;
            (calls == 3).then_some(calls * 7)
        });
        assert_eq!(got, Ok(21));
        assert_eq!(calls, 3);
    }

    #[test]
    fn gives_up_after_exactly_the_budget() {
        let mut calls = 0u32;
        let got: Result<(), _> = poll_until(5, || {
            calls += 1;
            None
        });
        assert_eq!(got, Err(PollTimeout { attempts: 5 }));
        assert_eq!(calls, 5);
    }

    #[test]
    fn a_zero_budget_still_checks_once() {
        let mut calls = 0;
        assert_eq!(
            poll_until(0, || {
                calls += 1;
                Some(())
            }),
            Ok(())
        );
        assert_eq!(calls, 1);
    }
}
