//! Euchre (four players in two teams, one stdin input per decision): `shared/spec/euchre.md`.
//!
//! - [`rules`]: the pure game as a state machine the driver steps: whose decision is due,
//!   the exact stdin text for it, the parser for the answer, the spec's default, and the
//!   events for the human log.

pub mod rules;
