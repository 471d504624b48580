//! What the `koth` commands share, and what `koth-bench` (which measures them) needs of them:
//! the engine's options and the sandbox they build ([`engine`]), a tournament's options and the
//! play loop with its progress bar ([`play`]), where a command's time goes ([`phases`]), and
//! the HTML report written after a run ([`report`]).

pub mod engine;
pub mod phases;
pub mod play;
pub mod report;

use std::path::PathBuf;

/// The worker count when `--jobs` is not given: the machine's cores (1 if they cannot be
/// told).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The `koth` executable: this process when it is `koth`, else the `koth` beside this
/// executable (where `koth-bench` is built). Commands that start koth again (compile workers,
/// a benchmark's whole-command runs, a contest's upload checker) run this one.
pub fn koth_executable() -> Option<PathBuf> {
    let me = std::env::current_exe().ok()?;
    if me.file_stem().is_some_and(|s| s == "koth") {
        return Some(me);
    }
    beside_this("koth")
}

/// The executable `name` (with the platform's suffix) in this executable's folder, if there
/// is one: how `koth` and `koth-bench` find each other.
pub fn beside_this(name: &str) -> Option<PathBuf> {
    let me = std::env::current_exe().ok()?;
    let beside = me.with_file_name(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    beside.is_file().then_some(beside)
}
