//! What every game's tournament shares, knowing neither games nor wasmtime: a deterministic
//! parallel scheduler, the leaderboard, and the archive writer.

pub mod archive;
pub mod leaderboard;
pub mod scheduler;
