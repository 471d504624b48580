//! The command that re-runs an archive's tournament, from its manifest: what the report's
//! manifest section prints. A referee's game is re-run with `koth play REFEREE.wasm`, its
//! options as `--opt NAME=VALUE`; a built-in game with its own command and flags.

use serde_json::Value;

/// The arguments of the command (`koth` first) that plays the tournament `manifest`
/// describes again, with the bots and the referee named by their files in the manifest.
pub fn rerun_command(manifest: &Value) -> Vec<String> {
    let referee = manifest.pointer("/referee/file").map(|f| text(Some(f)));
    let Command { head, flags } = command(manifest, referee);
    let bots = manifest
        .get("bots")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|b| text(b.get("file")));
    std::iter::once("koth".to_string())
        .chain(head)
        .chain(bots)
        .chain(flags)
        .collect()
}

/// The command of the tournament `manifest` describes without `koth` and the bots (which a
/// caller adds, after it or before the flags): `play REFEREE` or the game's name, then every
/// option as a flag. `referee` is where the referee's file is (for a game played by one).
/// A contest's Slurm tasks run it with their shard of the bots' matches.
pub fn game_command(manifest: &Value, referee: Option<String>) -> Vec<String> {
    let Command { head, flags } = command(manifest, referee);
    head.into_iter().chain(flags).collect()
}

/// A command's words before the bots, and its flags.
struct Command {
    head: Vec<String>,
    flags: Vec<String>,
}

fn command(manifest: &Value, referee_file: Option<String>) -> Command {
    let o = manifest.get("options").unwrap_or(&Value::Null);
    let referee = manifest.get("referee").filter(|r| r.is_object());
    let game = manifest.get("game").and_then(Value::as_str).unwrap_or("");
    // A game built into koth as a referee, played by `koth play GAME` (its options hold the
    // game's shape, and no referee's file is named). Coup's, Euchre's and Bank Heist's runs,
    // the same archive from `koth coup` or `koth play coup`, are re-run with their own
    // command.
    let built_in = referee.is_none() && o.get("game").is_some_and(Value::is_object);
    let own_command = matches!(game, "coup" | "euchre" | "bank-heist");
    let head = match (referee, referee_file) {
        (Some(_), Some(file)) => vec!["play".to_string(), file],
        (Some(r), None) => vec!["play".to_string(), text(r.get("file"))],
        (None, _) if built_in && !own_command => vec!["play".to_string(), game.to_string()],
        (None, _) => vec![game.to_string()],
    };
    let mut args: Vec<String> = Vec::new();
    let mut flag = |name: &str, v: Option<&Value>| match v {
        None | Some(Value::Null) | Some(Value::Bool(false)) => {}
        Some(Value::Bool(true)) => args.push(format!("--{name}")),
        Some(v) => {
            args.push(format!("--{name}"));
            args.push(text(Some(v)));
        }
    };
    let referee_flags = |flag: &mut dyn FnMut(&str, Option<&Value>)| {
        for k in [
            "format",
            "rounds",
            "partners",
            "paired",
            "opponents",
            "scratch",
        ] {
            flag(k, o.get(k));
        }
        for (k, v) in o
            .get("options")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            flag(
                "opt",
                Some(&Value::String(format!("{k}={}", text(Some(v))))),
            );
        }
    };
    match (referee, game) {
        (Some(r), _) => {
            referee_flags(&mut flag);
            flag("referee-fuel", r.get("fuel"));
            flag("referee-memory", mib(r.get("memory_bytes")).as_ref());
        }
        // Euchre is played by its referee, natively: the referee's options under the command's
        // own names.
        (None, "euchre") => {
            flag("games", o.get("rounds"));
            flag("target", o.pointer("/options/target"));
            flag("partners", o.get("partners"));
            flag("paired", o.get("paired"));
        }
        // Coup is played by its referee, natively: always the ordered pairs, no options of
        // its own. (A Coup archive before `koth-results/4`, the built-in driver's, has the
        // same flags below; `koth coup` now deals its games differently.)
        (None, "coup") if built_in => {
            for k in ["rounds", "paired", "opponents", "scratch"] {
                flag(k, o.get(k));
            }
        }
        // Bank Heist is played by its referee, natively: its rounds are tournaments, and its
        // options are flags of their own where they are not the defaults.
        (None, "bank-heist") if built_in => {
            flag("tournaments", o.get("rounds"));
            flag(
                "games",
                o.pointer("/options/games")
                    .filter(|g| g.as_u64() != Some(0)),
            );
            flag(
                "rules",
                o.pointer("/options/rules")
                    .filter(|r| r.as_str() != Some("text")),
            );
        }
        (None, _) if built_in => referee_flags(&mut flag),
        (None, _) => {
            for k in [
                "rounds",
                "tournaments",
                "games",
                "rules",
                "scratch",
                "paired",
                "opponents",
            ] {
                flag(k, o.get(k));
            }
        }
    }
    flag("seed", o.get("seed"));
    flag("fuel", o.pointer("/limits/fuel"));
    flag("memory", mib(o.pointer("/limits/memory_bytes")).as_ref());
    if manifest.pointer("/engine/pooling") == Some(&Value::Bool(false)) {
        flag("no-pooling", Some(&Value::Bool(true)));
    }
    Command { head, flags: args }
}

/// A value as a command-line word: a string as it is, anything else as JSON.
fn text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => String::new(),
    }
}

/// Bytes as whole MiB, the unit of `--memory` and `--referee-memory`.
fn mib(bytes: Option<&Value>) -> Option<Value> {
    bytes.and_then(Value::as_u64).map(|b| Value::from(b >> 20))
}

/// The command as one line for a POSIX shell, each word through [`shell_word`].
pub fn shell_line(args: &[String]) -> String {
    args.iter()
        .map(|a| shell_word(a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `word` as one word for a POSIX shell: as it is when it holds only safe characters, else in
/// single quotes.
pub fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._-+:,=@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_built_in_referees_run_is_rerun_with_its_command_or_play_and_the_games_name() {
        let mut m = json!({
            "game": "coup",
            "bots": [{"file": "a.wasm"}, {"file": "b.wasm"}],
            "referee": null,
            "options": {"game": {"name": "coup"}, "format": "ordered-pairs", "rounds": 3,
                        "paired": false, "options": {}, "seed": 7, "scratch": "tournament",
                        "limits": {"fuel": 99, "memory_bytes": 67108864}}
        });
        // Coup's referee, built in: `koth coup`, whose archive is `koth play coup`'s.
        assert_eq!(
            shell_line(&rerun_command(&m)),
            "koth coup a.wasm b.wasm --rounds 3 --scratch tournament --seed 7 --fuel 99 \
             --memory 64"
        );
        // A built-in referee without a command of its own: `koth play NAME`.
        m["game"] = json!("go");
        assert_eq!(
            shell_line(&rerun_command(&m)),
            "koth play go a.wasm b.wasm --format ordered-pairs --rounds 3 --scratch tournament \
             --seed 7 --fuel 99 --memory 64"
        );
        // Coup's archives of the built-in driver (no game shape in their options) keep
        // `koth coup`.
        let m = json!({"game": "coup", "bots": [{"file": "a.wasm"}],
                       "options": {"rounds": 2, "scratch": "game", "seed": 1}});
        assert_eq!(
            shell_line(&rerun_command(&m)),
            "koth coup a.wasm --rounds 2 --scratch game --seed 1"
        );
    }

    #[test]
    fn a_referee_run_is_rerun_with_play_and_its_options() {
        let m = json!({
            "game": "liars-dice",
            "bots": [{"file": "a.wasm"}, {"file": "b b.py"}],
            "referee": {"file": "dice.wasm", "fuel": 10, "memory_bytes": 268435456u64},
            "options": {"format": "tables", "rounds": 3, "partners": null, "paired": false,
                        "options": {"dice": 5, "wild": "ones"}, "seed": 7,
                        "limits": {"fuel": 99, "memory_bytes": 67108864}},
            "engine": {"pooling": false}
        });
        let args = rerun_command(&m);
        assert_eq!(
            shell_line(&args),
            "koth play dice.wasm a.wasm 'b b.py' --format tables --rounds 3 --opt dice=5 \
             --opt wild=ones --referee-fuel 10 --referee-memory 256 --seed 7 --fuel 99 \
             --memory 64 --no-pooling"
        );
    }

    #[test]
    fn built_in_games_are_rerun_with_their_own_commands() {
        let coup = json!({"game": "coup", "bots": [{"file": "x.wasm"}],
            "options": {"rounds": 2, "scratch": "game", "paired": true, "opponents": 4,
                        "seed": 1, "limits": {"fuel": 5, "memory_bytes": 1048576}}});
        assert_eq!(
            shell_line(&rerun_command(&coup)),
            "koth coup x.wasm --rounds 2 --scratch game --paired --opponents 4 --seed 1 \
             --fuel 5 --memory 1"
        );
        let euchre = json!({"game": "euchre", "bots": [{"file": "e.wasm"}],
            "options": {"format": "tables", "rounds": 10, "partners": "copies",
                        "paired": false, "options": {"target": 5}, "seed": 3}});
        assert_eq!(
            shell_line(&rerun_command(&euchre)),
            "koth euchre e.wasm --games 10 --target 5 --partners copies --seed 3"
        );
    }
}
