//! What a run of a referee's game records in its manifest: the game's shape (seats, teams,
//! scoring: everything the steps after playing need, so that merge, report and verify work
//! without the referee) and the run's options. Also the checks a referee's description must
//! pass before anything is played.

use super::options::{check_integer, check_text, OptionValues};
use crate::sandbox::{Limits, VfsLimits};
use crate::tournament::ScratchScope;
use koth_referee::{Description, Format, Partners, Seating, Value};
use serde::{Deserialize, Serialize};

/// Seats per match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatCount {
    /// This many.
    Fixed(u32),
    /// One per bot of the run.
    Everyone,
}

/// How a game's leaderboard reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoringShape {
    /// The score's name, or `None` for the number of matches won.
    pub score_name: Option<String>,
    /// What matches are called.
    pub matches: String,
    /// Show the mean and spread per match.
    pub spread: bool,
    /// Show points for and against.
    pub points: bool,
}

/// The game as the steps after playing need it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameShape {
    /// The game's name.
    pub name: String,
    /// Seats per match.
    pub seats: SeatCount,
    /// Each seat's short name (empty: numbers).
    pub seat_names: Vec<String>,
    /// Teams as lists of seats (empty: none).
    pub teams: Vec<Vec<u32>>,
    /// How the leaderboard reads.
    pub scoring: ScoringShape,
}

impl GameShape {
    /// The shape of the game `d` describes.
    pub fn of(d: &Description) -> GameShape {
        GameShape {
            name: d.name.clone(),
            seats: match d.seating {
                Seating::Fixed(n) => SeatCount::Fixed(n),
                Seating::Everyone => SeatCount::Everyone,
            },
            seat_names: d.seat_names.clone(),
            teams: d.teams.clone(),
            scoring: ScoringShape {
                score_name: d.scoring.score_name.clone(),
                matches: d.scoring.matches.clone(),
                spread: d.scoring.spread,
                points: d.scoring.points,
            },
        }
    }

    /// Seat `s`'s short name.
    pub fn seat_name(&self, s: usize) -> String {
        self.seat_names
            .get(s)
            .cloned()
            .unwrap_or_else(|| s.to_string())
    }
}

/// A format, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FormatName {
    /// Every ordered pair, once per round.
    OrderedPairs,
    /// Every set of k bots, once per round.
    Tables,
    /// Every bot in every match.
    AllPlayAll,
}

impl From<Format> for FormatName {
    fn from(f: Format) -> Self {
        match f {
            Format::OrderedPairs => FormatName::OrderedPairs,
            Format::Tables => FormatName::Tables,
            Format::AllPlayAll => FormatName::AllPlayAll,
        }
    }
}

impl std::fmt::Display for FormatName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FormatName::OrderedPairs => "ordered-pairs",
            FormatName::Tables => "tables",
            FormatName::AllPlayAll => "all-play-all",
        })
    }
}

/// A partner mode, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PartnersName {
    /// A team is copies of one bot.
    Copies,
    /// Partners drawn at random for each match.
    Random,
}

impl From<Partners> for PartnersName {
    fn from(p: Partners) -> Self {
        match p {
            Partners::Copies => PartnersName::Copies,
            Partners::Random => PartnersName::Random,
        }
    }
}

impl std::fmt::Display for PartnersName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PartnersName::Copies => "copies",
            PartnersName::Random => "random",
        })
    }
}

/// The options of a run of a referee's game, as the manifest records them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RefereeOptions {
    /// The game's shape.
    pub game: GameShape,
    /// How matches are drawn.
    pub format: FormatName,
    /// Rounds: how many times the format's set of matches is played.
    pub rounds: u32,
    /// How teams are filled (games with teams only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub partners: Option<PartnersName>,
    /// Paired (duplicate) matches.
    pub paired: bool,
    /// The referee's own options, resolved.
    pub options: OptionValues,
    /// The run's seed.
    pub seed: u64,
    /// Limits of every bot invocation.
    pub limits: Limits,
    /// Each seat's directory quotas, or `None`: no directory.
    pub directory: Option<VfsLimits>,
    /// A sampled ladder (ordered pairs only): each bot meets this many opponents a round,
    /// drawn by [`crate::tournament::sample`]; `None` plays every pair.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub opponents: Option<u32>,
    /// How long each bot's directory lives: one match (the default), or the whole run
    /// where the referee allows it (`--scratch tournament`).
    #[serde(skip_serializing_if = "ScratchScope::is_game", default)]
    pub scratch: ScratchScope,
}

impl RefereeOptions {
    /// The options of a run of the game `d` describes: its shape and each seat's directory
    /// from the description, the rest as the command line chose. `koth play` and the games
    /// built on a native referee (`koth euchre`) both build them here, so that the same
    /// choices give the same manifest.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        d: &Description,
        format: FormatName,
        rounds: u32,
        partners: Option<PartnersName>,
        paired: bool,
        options: OptionValues,
        seed: u64,
        limits: Limits,
    ) -> RefereeOptions {
        RefereeOptions {
            game: GameShape::of(d),
            format,
            rounds,
            partners,
            paired,
            options,
            seed,
            limits,
            directory: d.directory.map(|q| VfsLimits {
                max_bytes: q.bytes,
                max_nodes: q.nodes,
                ..VfsLimits::default()
            }),
            opponents: None,
            scratch: ScratchScope::Game,
        }
    }
}

/// Why a description cannot be run.
pub type DescriptionError = String;

fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && s.len() <= 64
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Check that `d` describes a game koth can run, with directories within `caps`; the error
/// names the first thing wrong.
pub fn check_description(d: &Description, caps: &VfsLimits) -> Result<(), DescriptionError> {
    if !is_name(&d.name) {
        return Err(format!(
            "its name {:?} is not lowercase letters, digits and `-` (at most 64, starting with a letter)",
            d.name
        ));
    }
    if d.summary.len() > 1024 || d.summary.contains(['\n', '\r']) {
        return Err("its summary is not one line of at most 1024 bytes".into());
    }
    let seats = match d.seating {
        Seating::Fixed(n) if !(2..=64).contains(&n) => {
            return Err(format!(
                "it asks for {n} seats per match; koth runs 2 to 64"
            ))
        }
        Seating::Fixed(n) => Some(n as usize),
        Seating::Everyone => None,
    };
    if let Some(n) = seats {
        if !d.seat_names.is_empty() && d.seat_names.len() != n {
            return Err(format!("it names {} seats but has {n}", d.seat_names.len()));
        }
    } else if !d.seat_names.is_empty() {
        return Err("it names seats, but its seating is `everyone`".into());
    }
    for (i, name) in d.seat_names.iter().enumerate() {
        let ok = !name.is_empty()
            && name.len() <= 16
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !ok || d.seat_names[..i].contains(name) {
            return Err(format!(
                "seat name {name:?} is not a unique short name of letters, digits, `-` and `_`"
            ));
        }
    }
    if !d.teams.is_empty() {
        let Some(n) = seats else {
            return Err("it has teams, but its seating is `everyone`".into());
        };
        let mut seen = vec![false; n];
        for team in &d.teams {
            if team.is_empty() {
                return Err("it has an empty team".into());
            }
            for &s in team {
                let Some(slot) = seen.get_mut(s as usize) else {
                    return Err(format!("a team holds seat {s}, but there are {n} seats"));
                };
                if std::mem::replace(slot, true) {
                    return Err(format!("seat {s} is in two teams"));
                }
            }
        }
        if seen.iter().any(|s| !s) {
            return Err("some seat is in no team".into());
        }
        if d.teams.len() < 2 {
            return Err("it has teams, but only one".into());
        }
        if d.partners.is_empty() {
            return Err("it has teams but no partner mode (copies or random)".into());
        }
    } else if !d.partners.is_empty() {
        return Err("it lists partner modes but has no teams".into());
    }
    if d.formats.is_empty() {
        return Err("it supports no format".into());
    }
    for f in &d.formats {
        match (f, seats) {
            (Format::AllPlayAll, _) => {}
            (_, None) => {
                return Err(format!(
                    "format {} needs a fixed number of seats",
                    FormatName::from(*f)
                ))
            }
            (Format::OrderedPairs, Some(n)) => {
                let sides = if d.teams.is_empty() { n } else { d.teams.len() };
                if sides != 2 {
                    return Err("format ordered-pairs needs two seats or two teams".into());
                }
                if !d.teams.is_empty() && d.partners.as_slice() != [Partners::Copies] {
                    return Err(
                        "format ordered-pairs with teams needs partners as copies only".into(),
                    );
                }
            }
            (Format::Tables, Some(_)) => {}
        }
    }
    if d.rounds == 0 || d.rounds > 1_000_000 {
        return Err(format!(
            "its default of {} rounds is out of range",
            d.rounds
        ));
    }
    if let Some(dir) = &d.directory {
        if dir.bytes > caps.max_bytes || dir.nodes > caps.max_nodes {
            return Err(format!(
                "it asks for directories of {} bytes and {} files and folders, above koth's caps of {} and {}",
                dir.bytes, dir.nodes, caps.max_bytes, caps.max_nodes
            ));
        }
    }
    if d.options.len() > 64 {
        return Err(format!(
            "it declares {} options; at most 64",
            d.options.len()
        ));
    }
    for (i, o) in d.options.iter().enumerate() {
        if !is_name(&o.name) || d.options[..i].iter().any(|p| p.name == o.name) {
            return Err(format!("option name {:?} is not a unique name", o.name));
        }
        if o.description.len() > 1024 {
            return Err(format!("option {}'s description is too long", o.name));
        }
        match &o.default {
            Value::Integer(i) => check_integer(o, *i),
            Value::Text(t) => check_text(o, t),
            Value::Flag(_) => Ok(()),
        }
        .map_err(|why| format!("option {}'s default {why}", o.name))?;
    }
    if d.scoring.matches.is_empty() || d.scoring.matches.len() > 32 {
        return Err("its scoring does not say what matches are called".into());
    }
    if d.scoring
        .score_name
        .as_ref()
        .is_some_and(|s| s.is_empty() || s.len() > 32)
    {
        return Err("its score's name is empty or too long".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use koth_referee::{Directory, OptionSpec, Scoring};

    fn euchre_like() -> Description {
        Description {
            name: "euchre".into(),
            summary: "four players in two teams".into(),
            seating: Seating::Fixed(4),
            seat_names: vec!["N".into(), "E".into(), "S".into(), "W".into()],
            teams: vec![vec![0, 2], vec![1, 3]],
            partners: vec![Partners::Copies, Partners::Random],
            formats: vec![Format::Tables, Format::AllPlayAll],
            rounds: 10,
            paired: true,
            directory: Some(Directory {
                bytes: 1024,
                nodes: 64,
            }),
            options: vec![OptionSpec {
                name: "target".into(),
                description: "points that win".into(),
                default: Value::Integer(10),
                min: Some(1),
                max: Some(1000),
                choices: vec![],
            }],
            scoring: Scoring {
                score_name: None,
                matches: "games".into(),
                spread: false,
                points: true,
            },
        }
    }

    #[test]
    fn a_sound_description_passes() {
        check_description(&euchre_like(), &VfsLimits::default()).unwrap();
    }

    #[test]
    fn each_broken_description_is_named() {
        // Each case breaks one field of a valid description.
        type Break = Box<dyn Fn(&mut Description)>;
        let caps = VfsLimits::default();
        let cases: Vec<(&str, Break)> = vec![
            ("name", Box::new(|d| d.name = "Euchre!".into())),
            ("seats", Box::new(|d| d.seating = Seating::Fixed(1))),
            (
                "names 3 seats",
                Box::new(|d| {
                    d.seat_names.pop();
                }),
            ),
            (
                "two teams",
                Box::new(|d| d.teams = vec![vec![0, 2], vec![2, 3], vec![1]]),
            ),
            ("no team", Box::new(|d| d.teams = vec![vec![0, 2], vec![1]])),
            ("partner mode", Box::new(|d| d.partners.clear())),
            ("no format", Box::new(|d| d.formats.clear())),
            (
                "ordered-pairs",
                Box::new(|d| d.formats = vec![Format::OrderedPairs]),
            ),
            (
                "caps",
                Box::new(|d| {
                    d.directory = Some(Directory {
                        bytes: 1 << 30,
                        nodes: 1,
                    })
                }),
            ),
            (
                "default",
                Box::new(|d| d.options[0].default = Value::Integer(0)),
            ),
            ("rounds", Box::new(|d| d.rounds = 0)),
        ];
        for (want, change) in cases {
            let mut d = euchre_like();
            change(&mut d);
            let e = check_description(&d, &caps).expect_err(want);
            assert!(e.contains(want), "{want}: {e}");
        }
    }
}
