//! Where a tournament command's wall time goes, phase by phase (`--timings`, and the
//! benches' whole-command runs): loading the bots, preparing the archive folder, playing,
//! the journal, the results and ratings, writing the archive, cleaning up, the report.

use std::cell::RefCell;
use std::time::{Duration, Instant};

/// Phases timed one after another: each [`Phases::mark`] closes the phase that began at the
/// previous mark (or at [`Phases::new`]).
pub struct Phases {
    started: Instant,
    last: RefCell<Instant>,
    rows: RefCell<Vec<(&'static str, Duration)>>,
    /// Time inside the journal's appends, summed over the workers (part of `play`).
    journal: RefCell<Option<Duration>>,
}

impl Default for Phases {
    fn default() -> Phases {
        Phases::new()
    }
}

impl Phases {
    /// Start timing now.
    pub fn new() -> Phases {
        let now = Instant::now();
        Phases {
            started: now,
            last: RefCell::new(now),
            rows: RefCell::new(Vec::new()),
            journal: RefCell::new(None),
        }
    }

    /// Close the phase `name`, which ran from the previous mark until now.
    pub fn mark(&self, name: &'static str) {
        let now = Instant::now();
        let began = self.last.replace(now);
        self.rows.borrow_mut().push((name, now - began));
    }

    /// Record how long the workers spent appending to the journal while playing.
    pub fn journal_appends(&self, spent: Duration) {
        *self.journal.borrow_mut() = Some(spent);
    }

    /// How long phase `name` took (the sum, if it was marked more than once).
    pub fn get(&self, name: &str) -> Duration {
        self.rows
            .borrow()
            .iter()
            .filter(|(n, _)| *n == name)
            .map(|(_, d)| *d)
            .sum()
    }

    /// Everything since [`Phases::new`].
    pub fn total(&self) -> Duration {
        self.started.elapsed()
    }

    /// One line per phase, then the whole and its ratio to `play`, such as
    /// `  play            0.81 s   62.0%`.
    pub fn render(&self) -> String {
        use std::fmt::Write;
        let total = self.total();
        let share = |d: Duration| 100.0 * d.as_secs_f64() / total.as_secs_f64().max(1e-9);
        let mut out = String::from("phases (wall time):\n");
        for (name, d) in self.rows.borrow().iter() {
            let _ = writeln!(
                out,
                "  {name:<18} {:>7.3} s  {:>5.1}%",
                d.as_secs_f64(),
                share(*d)
            );
            if *name == "play" {
                if let Some(j) = *self.journal.borrow() {
                    let _ = writeln!(
                        out,
                        "    of which journal appends {:.3} s (summed over the workers)",
                        j.as_secs_f64()
                    );
                }
            }
        }
        let play = self.get("play").as_secs_f64();
        let _ = write!(
            out,
            "  {:<18} {:>7.3} s",
            "whole command",
            total.as_secs_f64()
        );
        if play > 0.0 {
            let _ = write!(out, "  ({:.2}x play)", total.as_secs_f64() / play);
        }
        out.push('\n');
        out
    }
}
