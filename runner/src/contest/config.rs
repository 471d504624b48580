//! `contest.json`: the contest's game with its options, and the server's limits on uploads.
//! A contest plays one game: Coup, built in, or any game as a plugin (its referee).

use crate::sandbox::Limits;
use serde::{Deserialize, Serialize};

/// The game a contest plays, with the options of its tournaments.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "game", rename_all = "kebab-case")]
pub enum GameConfig {
    /// Coup: an ordered-pair round robin, `rounds` times.
    Coup {
        /// Rounds of the round robin.
        rounds: u32,
        /// Paired (duplicate) deals.
        #[serde(default)]
        paired: bool,
        /// A sampled ladder of this many opponents per bot per round (`koth coup
        /// --opponents`); absent for the round robin.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        opponents: Option<u32>,
    },
    /// A game built into koth as a referee but Coup (`koth contest init --game bank-heist`
    /// or `euchre`), played natively as `koth play GAME` plays it, with the run's options
    /// fixed there (`koth play`'s). Its name is the game's, in `referee_options`.
    BuiltIn {
        /// The runs' options but the seed and the bots' limits, which the contest's own
        /// fields give: the game's shape, its format, rounds and the referee's options.
        referee_options: Box<crate::referee::shape::RefereeOptions>,
    },
    /// A game as a plugin: its referee, copied into the contest's folder by `koth contest
    /// init --referee`, with the run's options fixed there (`koth play`'s).
    Referee {
        /// The referee's file, relative to the contest's folder (`referee/<file>`).
        referee_file: String,
        /// The referee as every run's manifest records it: its SHA-256 (checked each time it
        /// is loaded) and its limits.
        referee: crate::tournament::RefereeEntry,
        /// The runs' options but the seed and the bots' limits, which the contest's own
        /// fields give: the game's shape, its format, rounds and the referee's options.
        referee_options: Box<crate::referee::shape::RefereeOptions>,
    },
}

impl GameConfig {
    /// The game's name, as `koth check` and manifests name it.
    pub fn name(&self) -> &str {
        match self {
            GameConfig::Coup { .. } => "coup",
            GameConfig::BuiltIn { referee_options }
            | GameConfig::Referee {
                referee_options, ..
            } => &referee_options.game.name,
        }
    }

    /// The runs' options `init` fixed, for a game played through the referee layer's
    /// options (every game but Coup's, which has its own fields).
    pub fn referee_options(&self) -> Option<&crate::referee::shape::RefereeOptions> {
        match self {
            GameConfig::Coup { .. } => None,
            GameConfig::BuiltIn { referee_options }
            | GameConfig::Referee {
                referee_options, ..
            } => Some(referee_options),
        }
    }
}

/// A contest's configuration.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ContestConfig {
    /// The game and its options.
    #[serde(flatten)]
    pub game: GameConfig,
    /// Seed of every run.
    pub seed: u64,
    /// Fuel per invocation.
    pub fuel: u64,
    /// Linear memory per instance, in MiB.
    pub memory_mib: u64,
    /// Worker threads of a run (0: the number of cores).
    #[serde(default)]
    pub jobs: usize,
    /// The largest upload accepted, in bytes.
    pub max_upload_bytes: u64,
    /// The most bots (by name) the contest takes.
    pub max_bots: usize,
    /// The most bots one author may have in the ladder (retired ones do not count).
    #[serde(default = "default_bots_per_author")]
    pub max_bots_per_author: usize,
    /// The most versions one author may upload in an hour, all their bots together.
    #[serde(default = "default_versions_per_hour")]
    pub max_versions_per_author_per_hour: usize,
    /// Whether `.py` scripts are taken (the interpreter's snapshot is then made when the
    /// server starts).
    #[serde(default = "default_true")]
    pub python: bool,
    /// The bot every new version plays a validation match against before it enters the
    /// ladder: a `.wasm` or `.py` file, its path relative to the contest folder (`koth
    /// contest init --validation-opponent FILE` copies it to `validation/`). None: no
    /// validation match.
    #[serde(default)]
    pub validation_opponent: Option<String>,
    /// How long an upload's checks (compiling it and its validation match) may take, in
    /// seconds; past it the check is stopped and the upload refused.
    #[serde(default = "default_check_seconds")]
    pub check_seconds: u64,
    /// The most memory an upload's check may take (its process's resident size), in MiB;
    /// past it the check is stopped and the upload refused. Compiling is the one step of a
    /// bot that fuel and the instance limits do not bound: a 850 KB module of nested blocks
    /// and branch tables took cranelift 400 MB and 6 s, a 3.4 MB one 1.5 GB and 46 s.
    #[serde(default = "default_check_memory_mib")]
    pub check_memory_mib: u64,
    /// The disk the contest keeps, in MiB: past it, older runs are condensed to their
    /// standings (see [`super::disk`]), then uploads are refused.
    #[serde(default = "default_max_disk_mib")]
    pub max_disk_mib: u64,
    /// How many of the newest finished runs keep their archives whole; older runs are
    /// condensed to their standings as soon as a newer run finishes (their matches stay in
    /// the store, and `koth contest export --run N` rebuilds them), so the disk a run adds
    /// grows with its new matches, not with the ladder.
    #[serde(default = "default_whole_runs")]
    pub whole_runs: usize,
    /// Where a run's matches are played: in the server's process (the default), or as a
    /// Slurm job array.
    #[serde(default, skip_serializing_if = "Executor::is_local")]
    pub executor: Executor,
}

/// Where a contest's runs play their matches.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum Executor {
    /// On the server's own workers.
    #[default]
    Local,
    /// As a Slurm job array of `shards` tasks, each `koth <game> ... --shard K/N` with the
    /// contest's store and code cache (so the folder must be on a filesystem the nodes share),
    /// submitted with `sbatch` and merged by the server when the array is done.
    Slurm {
        /// Tasks of the array: the run's matches are split into this many shards.
        shards: u32,
        /// More `sbatch` options (a partition, an account, a time limit).
        #[serde(default)]
        sbatch_args: Vec<String>,
    },
}

impl Executor {
    /// Whether runs play in the server's process.
    pub fn is_local(&self) -> bool {
        *self == Executor::Local
    }
}

fn default_true() -> bool {
    true
}

fn default_check_seconds() -> u64 {
    180
}

fn default_check_memory_mib() -> u64 {
    1024
}

fn default_max_disk_mib() -> u64 {
    4096
}

fn default_whole_runs() -> usize {
    1
}

fn default_bots_per_author() -> usize {
    3
}

fn default_versions_per_hour() -> usize {
    10
}

/// Longest bot or author name.
pub const MAX_NAME: usize = 32;

impl ContestConfig {
    /// A Coup contest with koth's default limits.
    pub fn coup(rounds: u32, seed: u64) -> ContestConfig {
        ContestConfig {
            game: GameConfig::Coup {
                rounds,
                paired: false,
                opponents: None,
            },
            seed,
            fuel: Limits::default().fuel,
            memory_mib: 64,
            jobs: 0,
            max_upload_bytes: 16 << 20,
            max_bots: 200,
            max_bots_per_author: default_bots_per_author(),
            max_versions_per_author_per_hour: default_versions_per_hour(),
            python: true,
            validation_opponent: None,
            check_seconds: default_check_seconds(),
            check_memory_mib: default_check_memory_mib(),
            max_disk_mib: default_max_disk_mib(),
            whole_runs: default_whole_runs(),
            executor: Executor::Local,
        }
    }

    /// Check the values, naming the first one out of range.
    pub fn check(&self) -> Result<(), String> {
        match self.game {
            GameConfig::Coup { rounds, .. } if rounds == 0 || rounds > 1000 => {
                return Err(format!("rounds {rounds} is out of range (1..=1000)"))
            }
            GameConfig::Coup {
                opponents: Some(m), ..
            } => {
                crate::tournament::sample::check_opponents(m)
                    .map_err(|why| format!("opponents {why}"))?;
            }
            GameConfig::BuiltIn {
                ref referee_options,
            } if crate::games::registry::referee(&referee_options.game.name).is_none() => {
                return Err(format!(
                    "koth has no built-in game `{}` (it has {})",
                    referee_options.game.name,
                    crate::games::registry::names().join(", ")
                ));
            }
            _ => {}
        }
        if let Some(o) = self.game.referee_options() {
            if o.rounds == 0 || o.rounds > 1000 {
                return Err(format!("rounds {} is out of range (1..=1000)", o.rounds));
            }
        }
        if self.memory_mib == 0 || self.memory_mib > 4096 {
            return Err(format!(
                "memory_mib {} is out of range (1..=4096)",
                self.memory_mib
            ));
        }
        if self.fuel == 0 {
            return Err("fuel must be positive".into());
        }
        if self.max_upload_bytes == 0 || self.max_upload_bytes > 256 << 20 {
            return Err(format!(
                "max_upload_bytes {} is out of range (1..=256 MiB)",
                self.max_upload_bytes
            ));
        }
        if self.max_bots < 2 {
            return Err("max_bots must be at least 2".into());
        }
        if self.max_bots_per_author == 0 {
            return Err("max_bots_per_author must be at least 1".into());
        }
        if self.max_versions_per_author_per_hour == 0 {
            return Err("max_versions_per_author_per_hour must be at least 1".into());
        }
        // An upload (its body and its check) must fit the server's 10-minute upload timeout.
        if self.check_seconds == 0 || self.check_seconds > 540 {
            return Err(format!(
                "check_seconds {} is out of range (1..=540)",
                self.check_seconds
            ));
        }
        if self.check_memory_mib < 64 {
            return Err(format!(
                "check_memory_mib {} is out of range (at least 64)",
                self.check_memory_mib
            ));
        }
        if self.max_disk_mib == 0 {
            return Err(format!(
                "max_disk_mib {} is out of range (at least 1)",
                self.max_disk_mib
            ));
        }
        if self.whole_runs == 0 {
            return Err("whole_runs must be at least 1 (the leaderboard's run)".into());
        }
        if let Executor::Slurm { shards, .. } = self.executor {
            if shards == 0 || shards > 1000 {
                return Err(format!(
                    "executor.slurm.shards {shards} is out of range (1..=1000)"
                ));
            }
        }
        if let Some(file) = &self.validation_opponent {
            let path = std::path::Path::new(file);
            let inside = path.is_relative()
                && path
                    .components()
                    .all(|c| matches!(c, std::path::Component::Normal(_)));
            if !inside {
                return Err(format!(
                    "validation_opponent {file:?} must be a path inside the contest folder (relative, no `..`)"
                ));
            }
        }
        Ok(())
    }

    /// Worker threads of a run.
    pub fn workers(&self) -> usize {
        if self.jobs > 0 {
            return self.jobs;
        }
        crate::command::cores()
    }

    /// Per-invocation limits.
    pub fn limits(&self) -> Limits {
        Limits {
            fuel: self.fuel,
            memory_bytes: self.memory_mib << 20,
            ..Limits::default()
        }
    }
}

/// Whether `name` may name a bot or an author: 1 to [`MAX_NAME`] ASCII letters, digits, `_`
/// and `-`, starting with a letter or digit (so never `..`, a path, NUL or HTML). Returns why
/// not.
pub fn check_name(what: &str, name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err(format!("the {what} name is empty"));
    }
    if name.len() > MAX_NAME {
        return Err(format!(
            "the {what} name is {} bytes long; at most {MAX_NAME}",
            name.len()
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(format!(
            "the {what} name holds {c:?}; use only ASCII letters, digits, `_` and `-`"
        ));
    }
    if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err(format!(
            "the {what} name must start with a letter or a digit"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_refuse_paths_nul_html_and_length() {
        for bad in ["", "a/b", "..", "-x", "a\0b", "<b>", "é", &"x".repeat(33)] {
            assert!(check_name("bot", bad).is_err(), "{bad:?}");
        }
        for good in ["a", "bot_2", "Z-9", &"x".repeat(32)] {
            assert!(check_name("bot", good).is_ok(), "{good:?}");
        }
    }

    #[test]
    fn the_config_reads_back() {
        let c = ContestConfig::coup(3, 7);
        let text = serde_json::to_string(&c).unwrap();
        assert!(text.contains(r#""game":"coup""#), "{text}");
        assert_eq!(serde_json::from_str::<ContestConfig>(&text).unwrap(), c);
    }
}
