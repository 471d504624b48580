//! The typed bot worlds of `wit/`: for a component that implements one, the runner speaks
//! the game's protocol on the bot's behalf.
//!
//! Each game's adapter reads what the game's driver prepared (argv, stdin, the bot's
//! directory), builds the world's typed state, calls the component's `decide` through the
//! sandbox, and turns the returned move into what the protocol expects. The rules
//! (`games/*/rules.rs`) never see a world, and the sandbox never sees a game.

pub mod bank_heist;
pub mod coup;
pub mod euchre;

use crate::sandbox::vfs::OpenOptions;
use crate::sandbox::{Bot, BotKind, Invocation, Outcome, Report, Vfs};

/// The worlds koth knows: (interface exported, world name, game).
pub const WORLDS: [(&str, &str, &str); 3] = [
    ("koth:bots/coup@0.1.0", "coup-bot", "coup"),
    ("koth:bots/bank-heist@0.1.0", "bank-heist-bot", "bank-heist"),
    ("koth:bots/euchre@0.1.0", "euchre-bot", "euchre"),
];

/// The world a typed-world interface belongs to, by its exported interface.
pub fn world_of(interface: &str) -> Option<(&'static str, &'static str)> {
    WORLDS
        .iter()
        .find(|(i, _, _)| *i == interface)
        .map(|(_, w, g)| (*w, *g))
}

/// Whether `bot` can play `game` (`coup`, `bank-heist`, `euchre`): any core module can try;
/// a command component any game but Coup (whose protocol needs a file); a typed-world
/// component only its own game, and only where an adapter exists. The error says why.
pub fn check_game(bot: &Bot, game: &str) -> Result<(), String> {
    let interface = match bot.kind() {
        BotKind::World(interface) => interface,
        // Coup's protocol appends to the history file, and a component gets no files.
        BotKind::Command if game == "coup" => return Err(
            "is a wasi:cli/command component, and components get no files (no preopened directory), but Coup's protocol appends to the history file: build it for the coup-bot world (wit/coup.wit) or for wasm32-wasip1".into(),
        ),
        _ => return Ok(()),
    };
    match world_of(&interface) {
        Some((_, g)) if g == game && ADAPTED.contains(&g) => Ok(()),
        Some((world, g)) if g == game => Err(format!(
            "implements the `{world}` world, which koth does not run yet (only {ADAPTED:?}): build it as a wasm32-wasip1 module"
        )),
        Some((world, g)) => Err(format!(
            "implements the `{world}` world, a {g} bot, and cannot play {game}"
        )),
        None => Err(format!(
            "exports `{interface}`, which is not one of koth's worlds (wit/): is it built against another version of the WIT package?"
        )),
    }
}

/// The games whose world has an adapter.
const ADAPTED: [&str; 3] = ["coup", "bank-heist", "euchre"];

/// One decision of `bot`: through its world's adapter if it is a typed-world component,
/// as a plain invocation otherwise.
pub fn invoke(bot: &Bot, inv: &Invocation, dir: Option<&mut Vfs>) -> Report {
    match bot.kind() {
        BotKind::World(interface) => match world_of(&interface) {
            Some((_, "coup")) => coup::invoke(bot, inv, dir),
            Some((_, "bank-heist")) => bank_heist::invoke(bot, inv),
            Some((_, "euchre")) => euchre::invoke(bot, inv, dir),
            _ => fault(format!("no adapter for the world of `{interface}`")),
        },
        _ => bot.invoke(inv, dir),
    }
}

/// A report for an invocation the adapter could not make: the host's fault, never the bot's.
fn fault(why: String) -> Report {
    Report {
        outcome: Outcome::HostFault(why),
        fuel_used: 0,
        stdout: Vec::new(),
        stderr: Vec::new(),
        stderr_dropped: 0,
    }
}

/// Write `data` to `name` in the directory's root, appending or replacing, under its quota.
pub(crate) fn write_file(dir: &mut Vfs, name: &str, data: &[u8], append: bool) -> Result<(), ()> {
    let opts = OpenOptions {
        create: true,
        truncate: !append,
        follow: false,
        ..OpenOptions::default()
    };
    let node = dir.open(Vfs::ROOT, name.as_bytes(), opts).map_err(|_| ())?;
    let at = if append {
        dir.file_len(node).map_err(|_| ())?
    } else {
        0
    };
    let written = dir.write_at(node, at, data).map_err(|_| ())?;
    if written == data.len() {
        Ok(())
    } else {
        Err(())
    }
}
