//! The sandbox: load WASI bots and run one invocation at a time, safely and deterministically.

pub mod errno;
pub mod outcome;
pub mod vfs;

pub use errno::Errno;
pub use outcome::{Outcome, TrapKind};
pub use vfs::{Vfs, VfsLimits};
