//! The matches of a run of a referee's game: which bots sit where, in which round, with
//! which seed. A match's seed depends only on what defines it (the run's seed, the round,
//! the bots in their seats), never on its position in the run, so a bot added to or taken
//! from the command line leaves every other match as it was.

use super::shape::{FormatName, PartnersName, RefereeOptions, SeatCount};
use crate::tournament::ScratchScope;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use thiserror::Error;

/// One match of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixture {
    /// The round (of its pairing), from 0.
    pub round: u32,
    /// The bot in each seat (indices into the run's bots).
    pub seats: Vec<usize>,
    /// The match's participants as results count them: one per team with copies, else one
    /// per seat (in team order with random partners).
    pub participants: Vec<usize>,
    /// Each participant's seats.
    pub seats_of: Vec<Vec<usize>>,
    /// Each seat's team (its own index without teams).
    pub team_of: Vec<u32>,
    /// The match's seed.
    pub seed: u64,
}

/// A run that cannot be drawn with these bots.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ScheduleError {
    /// Too few bots for a match.
    #[error("{format} needs at least {need} bots; {have} were given")]
    TooFew {
        /// The format.
        format: FormatName,
        /// Bots a match needs.
        need: usize,
        /// Bots given.
        have: usize,
    },
    /// Random partners fill every seat with its own bot.
    #[error("partners drawn at random need exactly {seats} bots, one per seat; {have} were given")]
    RandomNeedsSeats {
        /// Seats per match.
        seats: usize,
        /// Bots given.
        have: usize,
    },
    /// Options the game does not allow together.
    #[error("{0}")]
    Unsupported(String),
}

/// How many bots each match takes and how they fill the seats.
struct Sides {
    /// Participants per match.
    k: usize,
    /// Each participant's seats (copies), or `None`: one seat each.
    teams: Option<Vec<Vec<usize>>>,
    /// Seats drawn at random.
    random: bool,
    /// Seats per match.
    seats: usize,
}

fn sides(o: &RefereeOptions, bots: usize) -> Result<Sides, ScheduleError> {
    let seats = match o.game.seats {
        SeatCount::Fixed(n) => n as usize,
        SeatCount::Everyone => bots,
    };
    let teams: Vec<Vec<usize>> = o
        .game
        .teams
        .iter()
        .map(|t| t.iter().map(|&s| s as usize).collect())
        .collect();
    let sides = match (teams.is_empty(), o.partners) {
        (true, _) => Sides {
            k: seats,
            teams: None,
            random: false,
            seats,
        },
        (false, Some(PartnersName::Random)) => Sides {
            k: seats,
            teams: None,
            random: true,
            seats,
        },
        (false, _) => Sides {
            k: teams.len(),
            teams: Some(teams),
            random: false,
            seats,
        },
    };
    if sides.random && bots != seats {
        return Err(ScheduleError::RandomNeedsSeats { seats, have: bots });
    }
    if o.scratch == ScratchScope::Tournament && o.partners == Some(PartnersName::Copies) {
        return Err(ScheduleError::Unsupported(
            "--scratch tournament keeps one directory per bot, but with copies as partners a \
             bot holds several seats of a match"
                .into(),
        ));
    }
    if o.opponents.is_some() && o.format != FormatName::OrderedPairs {
        return Err(ScheduleError::Unsupported(format!(
            "--opponents samples ordered pairs; this run's format is {}",
            o.format
        )));
    }
    if let Some(m) = o.opponents {
        crate::tournament::sample::check_opponents(m)
            .map_err(|why| ScheduleError::Unsupported(format!("--opponents {why}")))?;
    }
    if o.format == FormatName::OrderedPairs && sides.k != 2 {
        return Err(ScheduleError::Unsupported(
            "ordered-pairs needs two seats or two teams of copies".into(),
        ));
    }
    if o.game.seats == SeatCount::Everyone && o.format != FormatName::AllPlayAll {
        return Err(ScheduleError::Unsupported(format!(
            "{} needs a fixed number of seats; this game seats everyone",
            o.format
        )));
    }
    if bots < sides.k || (o.format == FormatName::OrderedPairs && bots < 2) {
        return Err(ScheduleError::TooFew {
            format: o.format,
            need: sides.k.max(2),
            have: bots,
        });
    }
    // One match of the whole field: every bot must have a side of its own in it (a seat, or
    // a team of its copies); otherwise only the first few would ever be seated.
    if o.format == FormatName::AllPlayAll && !sides.random && bots != sides.k {
        return Err(ScheduleError::Unsupported(format!(
            "all-play-all seats every bot in one match, but a match of this game has {} sides \
             and the run has {bots} bots: use tables",
            sides.k
        )));
    }
    Ok(sides)
}

/// Every combination of `k` of `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut c: Vec<usize> = (0..k).collect();
    if k > n {
        return out;
    }
    loop {
        out.push(c.clone());
        let Some(i) = (0..k).rev().find(|&i| c[i] < n - k + i) else {
            return out;
        };
        c[i] += 1;
        for j in i + 1..k {
            c[j] = c[j - 1] + 1;
        }
    }
}

/// The number of matches of a run of `bots` bots, or why it cannot be drawn.
pub fn count(o: &RefereeOptions, bots: usize) -> Result<usize, ScheduleError> {
    let s = sides(o, bots)?;
    let per_round = match o.format {
        FormatName::OrderedPairs => match o.opponents {
            Some(m) => crate::tournament::sample::ordered_pairs(bots, m),
            None => bots * (bots - 1),
        },
        FormatName::Tables => binomial(bots, s.k),
        FormatName::AllPlayAll => 1,
    };
    Ok(per_round.saturating_mul(o.rounds as usize))
}

fn binomial(n: usize, k: usize) -> usize {
    (0..k).fold(1usize, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// The matches of a run of the bots named `names` (in the order given), in match order.
pub fn schedule(o: &RefereeOptions, names: &[String]) -> Result<Vec<Fixture>, ScheduleError> {
    let s = sides(o, names.len())?;
    // The groups of bots that meet, each in its seating order before any rotation: a pair
    // in both orders; a table or the whole field in name order, so that the command line's
    // order changes no match.
    let by_name = |mut group: Vec<usize>| {
        group.sort_by(|a, b| names[*a].cmp(&names[*b]));
        group
    };
    let groups: Vec<Vec<usize>> = match o.format {
        FormatName::OrderedPairs => (0..names.len())
            .flat_map(|a| {
                (0..names.len())
                    .filter(move |&b| b != a)
                    .map(move |b| vec![a, b])
            })
            .collect(),
        FormatName::Tables => combinations(names.len(), s.k)
            .into_iter()
            .map(by_name)
            .collect(),
        FormatName::AllPlayAll => vec![by_name((0..names.len()).collect())],
    };
    let mut out = Vec::with_capacity(groups.len() * o.rounds as usize);
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    for round in 0..o.rounds {
        // Paired: the k rounds of a group deal alike and rotate the seats.
        let (deal, turn) = if o.paired {
            (round / s.k as u32, round as usize % s.k)
        } else {
            (round, 0)
        };
        // A sampled ladder draws its pairs for each deal (so paired rounds share them), both
        // orders of each, in the order every pair would have.
        let sampled: Option<Vec<Vec<usize>>> = o.opponents.map(|m| {
            crate::tournament::sample::partners(o.seed, deal, &refs, m)
                .iter()
                .enumerate()
                .flat_map(|(a, bs)| bs.iter().map(move |&b| vec![a, b]))
                .collect()
        });
        let groups = sampled.as_ref().unwrap_or(&groups);
        for group in groups {
            let ids: Vec<&[u8]> = group.iter().map(|&b| names[b].as_bytes()).collect();
            let seed = crate::seed::derive_named(
                o.seed,
                if o.paired {
                    "referee/deal"
                } else {
                    "referee/match"
                },
                &[&[&deal.to_le_bytes()[..]], &ids[..]].concat(),
            );
            let mut order = group.clone();
            if s.random {
                // Drawn from the match's own seed: the same bots always sit alike.
                order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
            }
            order.rotate_left(turn);
            let mut f = seat(&s, round, order, seed);
            if s.random {
                team_order(&mut f, &o.game.teams);
            }
            out.push(f);
        }
    }
    Ok(out)
}

/// Seat the participants `order` (one per side, in side order).
fn seat(s: &Sides, round: u32, order: Vec<usize>, seed: u64) -> Fixture {
    match &s.teams {
        Some(teams) => {
            let mut seats = vec![0; s.seats];
            let mut team_of = vec![0; s.seats];
            for (t, (team, &bot)) in teams.iter().zip(&order).enumerate() {
                for &seat in team {
                    seats[seat] = bot;
                    team_of[seat] = t as u32;
                }
            }
            Fixture {
                round,
                seats,
                participants: order,
                seats_of: teams.clone(),
                team_of,
                seed,
            }
        }
        None => Fixture {
            round,
            team_of: (0..s.seats as u32).collect(),
            seats_of: (0..s.seats).map(|i| vec![i]).collect(),
            participants: order.clone(),
            seats: order,
            seed,
        },
    }
}

/// With random partners the participants are the seats in team order (each team's seats,
/// team after team), and each seat's team is the game's.
fn team_order(f: &mut Fixture, teams: &[Vec<u32>]) {
    if teams.is_empty() {
        return;
    }
    let order: Vec<usize> = teams.iter().flatten().map(|&s| s as usize).collect();
    f.participants = order.iter().map(|&s| f.seats[s]).collect();
    f.seats_of = order.iter().map(|&s| vec![s]).collect();
    for (t, team) in teams.iter().enumerate() {
        for &s in team {
            if let Some(slot) = f.team_of.get_mut(s as usize) {
                *slot = t as u32;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::options::OptionValues;
    use crate::referee::shape::{GameShape, ScoringShape};
    use crate::sandbox::Limits;

    fn opts(seats: SeatCount, teams: Vec<Vec<u32>>, format: FormatName) -> RefereeOptions {
        RefereeOptions {
            game: GameShape {
                name: "g".into(),
                seats,
                seat_names: vec![],
                teams,
                scoring: ScoringShape {
                    score_name: None,
                    matches: "games".into(),
                    spread: false,
                    points: false,
                },
            },
            format,
            rounds: 2,
            partners: None,
            paired: false,
            options: OptionValues::default(),
            seed: 7,
            limits: Limits::default(),
            directory: None,
            opponents: None,
            scratch: ScratchScope::Game,
        }
    }

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn combinations_are_all_there_once() {
        assert_eq!(combinations(4, 2).len(), 6);
        assert_eq!(combinations(5, 3).len(), 10);
        assert_eq!(combinations(3, 3), vec![vec![0, 1, 2]]);
        assert!(combinations(2, 3).is_empty());
        assert_eq!(binomial(13, 2), 78);
    }

    #[test]
    fn ordered_pairs_play_both_orders_every_round() {
        let o = opts(SeatCount::Fixed(2), vec![], FormatName::OrderedPairs);
        let s = schedule(&o, &names(&["a", "b", "c"])).unwrap();
        assert_eq!(s.len(), 12);
        assert_eq!(count(&o, 3).unwrap(), 12);
        assert_eq!(s[0].seats, vec![0, 1]);
        assert_eq!(s[1].seats, vec![0, 2]);
        assert_eq!(s[2].seats, vec![1, 0]);
        assert_ne!(s[0].seed, s[2].seed);
        assert_ne!(s[0].seed, s[6].seed, "rounds differ");
    }

    #[test]
    fn a_match_keeps_its_seed_whatever_else_is_on_the_command_line() {
        let o = opts(SeatCount::Fixed(2), vec![], FormatName::OrderedPairs);
        let small = schedule(&o, &names(&["a", "b"])).unwrap();
        let big = schedule(&o, &names(&["z", "b", "q", "a"])).unwrap();
        let ab = |s: &[Fixture], n: &[String]| {
            s.iter()
                .find(|f| n[f.seats[0]] == "a" && n[f.seats[1]] == "b")
                .map(|f| f.seed)
        };
        assert_eq!(
            ab(&small, &names(&["a", "b"])),
            ab(&big, &names(&["z", "b", "q", "a"]))
        );
        let t = opts(
            SeatCount::Fixed(4),
            vec![vec![0, 2], vec![1, 3]],
            FormatName::Tables,
        );
        let one = schedule(&t, &names(&["b", "a"])).unwrap();
        let two = schedule(&t, &names(&["a", "c", "b"])).unwrap();
        // A table seats its bots in name order, so "a" against "b" is one match either way.
        assert_eq!(one[0].seats, vec![1, 0, 1, 0]);
        let ab2 = two.iter().find(|f| f.participants == vec![0, 2]).unwrap();
        assert_eq!(one[0].seed, ab2.seed);
    }

    #[test]
    fn copies_fill_their_team_and_paired_rounds_share_a_deal_and_rotate() {
        let mut o = opts(
            SeatCount::Fixed(4),
            vec![vec![0, 2], vec![1, 3]],
            FormatName::Tables,
        );
        o.partners = Some(PartnersName::Copies);
        o.paired = true;
        o.rounds = 4;
        let s = schedule(&o, &names(&["a", "b"])).unwrap();
        assert_eq!(s.len(), 4);
        assert_eq!(s[0].seats, vec![0, 1, 0, 1]);
        assert_eq!(s[1].seats, vec![1, 0, 1, 0]);
        assert_eq!(s[0].seed, s[1].seed);
        assert_ne!(s[1].seed, s[2].seed);
        assert_eq!(s[0].participants, vec![0, 1]);
        assert_eq!(s[1].participants, vec![1, 0]);
        assert_eq!(s[0].seats_of, vec![vec![0, 2], vec![1, 3]]);
    }

    #[test]
    fn random_partners_need_one_bot_per_seat_and_draw_the_seats() {
        let mut o = opts(
            SeatCount::Fixed(4),
            vec![vec![0, 2], vec![1, 3]],
            FormatName::AllPlayAll,
        );
        o.partners = Some(PartnersName::Random);
        o.rounds = 20;
        assert_eq!(
            schedule(&o, &names(&["a", "b", "c"])).unwrap_err(),
            ScheduleError::RandomNeedsSeats { seats: 4, have: 3 }
        );
        let s = schedule(&o, &names(&["a", "b", "c", "d"])).unwrap();
        assert_eq!(s.len(), 20);
        let distinct: std::collections::BTreeSet<_> = s.iter().map(|f| f.seats.clone()).collect();
        assert!(distinct.len() > 3, "{distinct:?}");
        for f in &s {
            let mut sorted = f.seats.clone();
            sorted.sort();
            assert_eq!(sorted, vec![0, 1, 2, 3]);
            // Participants in team order: N, S, then E, W.
            assert_eq!(
                f.participants,
                vec![f.seats[0], f.seats[2], f.seats[1], f.seats[3]]
            );
            assert_eq!(f.team_of, vec![0, 1, 0, 1]);
        }
    }

    #[test]
    fn everyone_plays_every_match() {
        let o = opts(SeatCount::Everyone, vec![], FormatName::AllPlayAll);
        let s = schedule(&o, &names(&["c", "a", "b"])).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].seats, vec![1, 2, 0], "seated in name order");
        let t = opts(SeatCount::Everyone, vec![], FormatName::Tables);
        assert!(matches!(
            schedule(&t, &names(&["a", "b"])),
            Err(ScheduleError::Unsupported(_))
        ));
    }

    #[test]
    fn all_play_all_needs_a_side_for_every_bot() {
        let mut o = opts(
            SeatCount::Fixed(4),
            vec![vec![0, 2], vec![1, 3]],
            FormatName::AllPlayAll,
        );
        o.partners = Some(PartnersName::Copies);
        assert!(schedule(&o, &names(&["a", "b"])).is_ok());
        let err = schedule(&o, &names(&["a", "b", "c"])).unwrap_err();
        assert!(
            matches!(&err, ScheduleError::Unsupported(why) if why.contains("use tables")),
            "{err:?}"
        );
        let o = opts(SeatCount::Fixed(2), vec![], FormatName::AllPlayAll);
        assert!(schedule(&o, &names(&["a", "b"])).is_ok());
        assert!(schedule(&o, &names(&["a", "b", "c"])).is_err());
    }

    #[test]
    fn too_few_bots_are_named() {
        let o = opts(SeatCount::Fixed(3), vec![], FormatName::Tables);
        assert_eq!(
            schedule(&o, &names(&["a", "b"])).unwrap_err(),
            ScheduleError::TooFew {
                format: FormatName::Tables,
                need: 3,
                have: 2
            }
        );
    }

    #[test]
    fn a_sampled_ladder_gives_each_bot_m_opponents_in_both_seats() {
        let mut o = opts(SeatCount::Fixed(2), vec![], FormatName::OrderedPairs);
        o.opponents = Some(4);
        let all: Vec<String> = (0..12).map(|i| format!("b{i}")).collect();
        let s = schedule(&o, &all).unwrap();
        assert_eq!(s.len(), count(&o, 12).unwrap());
        assert_eq!(s.len(), 2 * 12 * 4);
        for round in 0..2 {
            for bot in 0..12 {
                let first = s.iter().filter(|f| f.round == round && f.seats[0] == bot);
                let second = s.iter().filter(|f| f.round == round && f.seats[1] == bot);
                assert_eq!(
                    (first.count(), second.count()),
                    (4, 4),
                    "bot {bot}, round {round}"
                );
            }
        }
        // Tables cannot be sampled this way, and M must be even.
        let mut t = opts(SeatCount::Fixed(2), vec![], FormatName::Tables);
        t.opponents = Some(4);
        assert!(schedule(&t, &all).is_err());
        o.opponents = Some(3);
        assert!(schedule(&o, &all).is_err());
    }
}
