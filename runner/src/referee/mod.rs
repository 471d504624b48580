//! Games as plugins: a referee describes its game and plays one match at a time through a
//! host (`wit/referee.wit`, package `koth:game`; the Rust side is the `koth-referee`
//! crate). koth gives a referee's game what the built-in games have: scheduling on every
//! core, the journal, resume, shards and merge, verify, ratings and the report.
//!
//! - [`shape`]: what the manifest records of the game and the run's options; the checks a
//!   description must pass.
//! - [`options`]: the referee's own options (`--opt NAME=VALUE`).
//! - [`schedule`]: the matches of a run, each seeded from what defines it.
//! - [`host`]: the host a match is played through (decisions, directories, randomness,
//!   the log), with every call checked.
//! - [`record`]: what a match leaves.
//! - [`game`]: the [`crate::games::Game`] every referee's game is.
//! - [`component`]: referees that are WebAssembly components, sandboxed.
//! - [`pages`]: what a referee tells people: its protocol and its replay viewer.
//!
//! A referee built into koth ([`Native`]) and the same referee built as a component give
//! the same archive: koth's Euchre is played both ways, and a test compares them.

pub mod component;
pub mod game;
pub mod host;
pub mod options;
pub mod pages;
pub mod record;
pub mod schedule;
pub mod shape;

use host::MatchHost;
use koth_referee::{Abort, Description, MatchResult, MatchSetup};
use pages::Pages;

/// A referee koth can play matches with.
pub trait Referee: Send + Sync {
    /// What the game is (asked once, when the referee was loaded).
    fn description(&self) -> &Description;
    /// Its protocol and viewer (asked once, when the referee was loaded).
    fn pages(&self) -> &Pages;
    /// Whether its game may keep each bot's directory for the whole run (`--scratch
    /// tournament`; asked once, when the referee was loaded).
    fn per_bot_scratch(&self) -> bool;
    /// Play one match through `host`, and hand the host back with the referee's result.
    fn play(&self, setup: &MatchSetup, host: MatchHost) -> (MatchHost, Result<MatchResult, Abort>);
}

/// A referee built into koth, run natively through the same host.
pub struct Native<R> {
    referee: R,
    description: Description,
    pages: Pages,
    per_bot_scratch: bool,
}

impl<R: koth_referee::Referee> Native<R> {
    /// Wrap `referee`, asking it what it is and its pages once.
    pub fn new(referee: R) -> Self {
        let description = referee.describe();
        let pages = Pages {
            protocol: referee.protocol(),
            viewer: referee.viewer(),
        };
        Native {
            per_bot_scratch: referee.per_bot_scratch(),
            referee,
            description,
            pages,
        }
    }
}

impl<R: koth_referee::Referee + Send + Sync> Referee for Native<R> {
    fn description(&self) -> &Description {
        &self.description
    }

    fn pages(&self) -> &Pages {
        &self.pages
    }

    fn per_bot_scratch(&self) -> bool {
        self.per_bot_scratch
    }

    fn play(
        &self,
        setup: &MatchSetup,
        mut host: MatchHost,
    ) -> (MatchHost, Result<MatchResult, Abort>) {
        let r = self.referee.play(setup, &mut host);
        (host, r)
    }
}
