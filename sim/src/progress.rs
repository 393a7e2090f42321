//! A progress bar (`indicatif`) for simulations: PL cycles run and
//! operations done. It appears only once a run has taken a few seconds,
//! and only on a terminal (stderr), so short runs and logs stay clean.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before the bar appears.
const SHOW_AFTER: Duration = Duration::from_secs(3);
/// Redraw period.
const TICK: Duration = Duration::from_millis(200);

/// A running progress bar; finished when dropped.
pub struct Progress {
    bar: ProgressBar,
    stop: Arc<AtomicBool>,
    ticker: Option<JoinHandle<()>>,
}

impl Progress {
    /// Starts a bar for `ops` operations; `cycles` is the PL-cycle counter
    /// of the simulation (`cosim::Pl::progress_counter`).
    pub fn start(label: &str, ops: u64, cycles: Arc<AtomicU64>) -> Self {
        let bar = ProgressBar::with_draw_target(Some(ops), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} {prefix} [{elapsed_precise}] {pos}/{len} operations, {msg}",
            )
            .expect("valid template"),
        );
        bar.set_prefix(label.to_string());
        let stop = Arc::new(AtomicBool::new(false));
        let ticker = {
            let (bar, stop) = (bar.clone(), stop.clone());
            std::thread::spawn(move || {
                let started = Instant::now();
                let start_cycles = cycles.load(Ordering::Relaxed);
                let mut shown = false;
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(TICK);
                    let elapsed = started.elapsed();
                    if !shown && elapsed >= SHOW_AFTER {
                        bar.set_draw_target(ProgressDrawTarget::stderr());
                        shown = true;
                    }
                    let run = cycles.load(Ordering::Relaxed) - start_cycles;
                    bar.set_message(format!(
                        "{} PL cycles ({:.2} M/s)",
                        group_digits(run),
                        run as f64 / elapsed.as_secs_f64() / 1e6
                    ));
                    bar.tick();
                }
            })
        };
        Progress {
            bar,
            stop,
            ticker: Some(ticker),
        }
    }

    /// One more operation done.
    pub fn op_done(&self) {
        self.bar.inc(1);
    }

    /// Prints a line on stderr without tearing the bar.
    pub fn note(&self, line: &str) {
        self.bar.suspend(|| eprintln!("{line}"));
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.ticker.take() {
            let _ = t.join();
        }
        self.bar.finish_and_clear();
    }
}

/// `1234567` as `1,234,567`.
pub fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_grouped_by_thousands() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1000), "1,000");
        assert_eq!(group_digits(12_345_678), "12,345,678");
    }

    #[test]
    fn the_bar_counts_operations_and_stops_when_dropped() {
        let cycles = Arc::new(AtomicU64::new(5));
        let p = Progress::start("test", 2, cycles.clone());
        p.op_done();
        cycles.fetch_add(100, Ordering::Relaxed);
        p.op_done();
        assert_eq!(p.bar.position(), 2);
        drop(p);
    }
}
