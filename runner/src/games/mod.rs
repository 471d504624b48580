//! The games koth can run, each in its own module.

pub mod coup;
