//! The pure rules of koth's games, one copy for everything that needs them: the runner
//! (`koth`), the guest SDK bots are written with (`koth-guest`), and referee components.
//!
//! Nothing here knows of wasmtime, the sandbox, files or processes. The crate builds for
//! `wasm32-wasip1`, `wasm32-wasip2` and `wasm32-unknown-unknown` as well as natively.
//!
//! Two layers:
//!
//! - **Always**, with no dependencies: each protocol's vocabulary and its rules of play, the
//!   part a bot needs. Coup's [`coup::Card`]s, [`coup::Action`]s, [`coup::Move`]s and the
//!   original arbiter's [`coup::legal_actions`]; Bank Heist's [`bank_heist::Bank`]s and round-2
//!   [`bank_heist::Answer`]s; Euchre's [`euchre::Card`]s (bowers, effective suits),
//!   [`euchre::legal_plays`], [`euchre::trick_winner`] and [`euchre::Answer`]s.
//! - **With the `engine` feature** (`rand`, `rand_chacha`, `serde`, `thiserror`): whole games
//!   stepped one decision at a time, with their seeded generators and event logs
//!   (`coup::Game`, `bank_heist::Tournament`, `euchre::Game`). The runner and referees use it.
//!
//! The `serde` feature (implied by `engine`) derives `Serialize` and `Deserialize` for the
//! plain types, in the form koth's archives record.
#![warn(missing_docs)]

pub mod bank_heist;
pub mod coup;
pub mod euchre;

#[cfg(all(test, feature = "serde"))]
mod serde_forms;
