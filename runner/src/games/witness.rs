//! Re-playing an archive of a built-in driver through its game's referee.
//!
//! Before `koth-results/4`, Coup and Bank Heist were played by drivers of their own, which
//! seeded each invocation's `random_get` stream in their own way and recorded a few things a
//! referee's record leaves out: the raw text a Coup bot appended (or that its history file was
//! rewritten), and stderr tails of their own lengths. The referees play the same games, move
//! for move, so `koth verify`, `report` and `replay` re-play such an archive through the
//! referee with a [`Witness`] in front of each bot: it gives each invocation the driver's seed
//! and keeps what the driver recorded, from which `coup::driver` and `bank_heist::driver`
//! write the driver's records again.

use super::Player;
use crate::sandbox::{Invocation, Report, Vfs};
use std::sync::{Arc, Mutex, PoisonError};

/// The seed a driver gave an invocation: from its seat, its number in the match (from 0) and
/// its arguments.
pub type SeedOf = dyn Fn(usize, u64, &[Vec<u8>]) -> [u8; 32] + Send + Sync;

/// Bytes of stderr a witness keeps: the longest tail a driver recorded (Coup's).
pub const KEPT_STDERR: usize = 2048;

/// What a witness saw of one invocation, beyond the referee's record.
#[derive(Debug, Clone, Default)]
pub struct Seen {
    /// The last [`KEPT_STDERR`] bytes of stderr, raw, for the drivers' own tails of it (a
    /// tail of those is the same tail of the whole).
    pub stderr: Vec<u8>,
    /// For a bot with a directory: what it appended to the file its first argument names, if
    /// the file is still there and starts with what it held before (lossy UTF-8).
    pub appended: Option<String>,
}

impl Seen {
    /// What was seen of invocation `k` of `seen`, or nothing (an empty sighting).
    pub fn at(seen: &[Seen], k: usize) -> &Seen {
        static NOTHING: Seen = Seen {
            stderr: Vec::new(),
            appended: None,
        };
        seen.get(k).unwrap_or(&NOTHING)
    }
}

/// Every invocation of one match, in order, as the witnesses of its seats saw them.
#[derive(Clone, Default)]
pub struct Sightings(Arc<Mutex<Vec<Seen>>>);

impl Sightings {
    /// What was seen, in invocation order.
    pub fn take(&self) -> Vec<Seen> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// A player that stands in front of another for one seat of a re-played match.
pub struct Witness {
    inner: Arc<dyn Player>,
    seat: usize,
    seed: Arc<SeedOf>,
    seen: Sightings,
}

impl Witness {
    /// The match's players, each behind a witness for its seat, seeding as `seed` does and
    /// writing into `seen`.
    pub fn seats(
        players: &[Arc<dyn Player>],
        seed: Arc<SeedOf>,
        seen: &Sightings,
    ) -> Vec<Arc<dyn Player>> {
        players
            .iter()
            .enumerate()
            .map(|(seat, p)| {
                Arc::new(Witness {
                    inner: Arc::clone(p),
                    seat,
                    seed: Arc::clone(&seed),
                    seen: seen.clone(),
                }) as Arc<dyn Player>
            })
            .collect()
    }
}

impl Player for Witness {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn invoke(&self, inv: &Invocation, dir: Option<&mut Vfs>) -> Report {
        let n = self
            .seen
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len() as u64;
        let inv = Invocation {
            seed: (self.seed)(self.seat, n, &inv.args),
            ..inv.clone()
        };
        let file = inv
            .args
            .first()
            .map(|a| String::from_utf8_lossy(a).into_owned());
        let (report, appended) = match (dir, file) {
            (Some(dir), Some(file)) => {
                let before = dir.host_file(&file).map(<[u8]>::to_vec);
                let report = self.inner.invoke(&inv, Some(&mut *dir));
                let appended = match (before, dir.host_file(&file)) {
                    (Some(before), Some(after)) => after
                        .strip_prefix(before.as_slice())
                        .map(|a| String::from_utf8_lossy(a).into_owned()),
                    _ => None,
                };
                (report, appended)
            }
            (dir, _) => (self.inner.invoke(&inv, dir), None),
        };
        self.seen
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Seen {
                stderr: report.stderr[report.stderr.len().saturating_sub(KEPT_STDERR)..].to_vec(),
                appended,
            });
        report
    }
}
