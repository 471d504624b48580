//! A Bank Heist run: T independent tournaments of every bot, played in parallel (each is one
//! match of the shared tournament layer), their credits summed.

use super::driver::{play, TournamentRecord, TournamentSetup};
use super::rules::{Tournament, Variant};
use crate::games::Game;
use crate::games::Player;
use crate::sandbox::Limits;
use crate::tournament::archive::{json_lines_into, Archive, ArchiveError, MatchFiles};
use crate::tournament::leaderboard::{Columns, Leaderboard};
use crate::tournament::ratings::MIN_MATCHES;
use crate::tournament::results::{rate, standings, write_run, MatchUnit, Results};
use crate::tournament::store::Identity;
use crate::tournament::{self, MatchFormat, MatchSummary, RunError, RunPlan};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Options of a Bank Heist run. Everything here is recorded in the manifest.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BankHeistOptions {
    /// Tournaments in the run; credits are summed over them.
    pub tournaments: u32,
    /// Games per tournament; `None` draws each tournament's G from 1000..=1100.
    pub games: Option<u32>,
    /// The run's seed: every tournament's rabble, dice and the bots' random streams derive
    /// from it.
    pub seed: u64,
    /// Limits of every invocation.
    pub limits: Limits,
    /// Whose arithmetic the tournaments follow: the contest's text (the default, left out of
    /// the manifest, which then reads as before the choice existed) or its author's
    /// controller (`"rules": "original"`).
    #[serde(default, skip_serializing_if = "Variant::is_text")]
    pub rules: Variant,
}

impl Default for BankHeistOptions {
    fn default() -> Self {
        BankHeistOptions {
            tournaments: 1,
            games: None,
            seed: 1,
            limits: Limits::default(),
            rules: Variant::Text,
        }
    }
}

/// One tournament of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// Index in the run.
    pub index: u32,
    /// Games G.
    pub games: u32,
    /// Seed of its rules' generator.
    pub rules_seed: u64,
}

/// The tournaments a run plays, each with its G and seed derived from the run's seed.
pub fn plan(opts: &BankHeistOptions) -> Vec<Plan> {
    (0..opts.tournaments)
        .map(|t| Plan {
            index: t,
            games: opts.games.unwrap_or_else(|| {
                Tournament::draw_games(crate::seed::derive_u64(
                    opts.seed,
                    "bank-heist/games",
                    &[t as u64],
                ))
            }),
            rules_seed: crate::seed::derive_u64(opts.seed, "bank-heist/tournament", &[t as u64]),
        })
        .collect()
}

struct FreeForAll<'a> {
    players: &'a [Arc<dyn Player>],
    opts: &'a BankHeistOptions,
    plans: Vec<Plan>,
}

impl MatchFormat for FreeForAll<'_> {
    type Match = Plan;
    type Record = TournamentRecord;

    fn matches(&self) -> &[Plan] {
        &self.plans
    }

    fn identity(&self, p: &Plan) -> Option<Identity> {
        Some(Identity {
            round: p.index,
            seats: (0..self.players.len()).collect(),
        })
    }

    fn play(&self, _i: usize, p: &Plan) -> TournamentRecord {
        let setup = TournamentSetup {
            index: p.index,
            games: p.games,
            rules_seed: p.rules_seed,
            root_seed: self.opts.seed,
            limits: self.opts.limits,
            variant: self.opts.rules,
        };
        play(&setup, self.players)
    }
}

/// A tournament in the shared results schema: every bot takes part; its score is its credits.
fn summarize(p: &Plan, r: &TournamentRecord) -> MatchSummary {
    let scores: Vec<u64> = r.bots.iter().map(|b| b.credits).collect();
    let best = scores.iter().copied().max().unwrap_or(0);
    MatchSummary {
        label: format!("tournament {} ({} games)", p.index, p.games),
        participants: (0..r.names.len()).collect(),
        winners: if r.void.is_some() {
            Vec::new()
        } else {
            (0..scores.len()).filter(|&b| scores[b] == best).collect()
        },
        scores,
        void: r.void.clone(),
        fuel: r.fuel.clone(),
        invocations: r.invocations.clone(),
        forfeits: r
            .failures
            .iter()
            .enumerate()
            .flat_map(|(b, kinds)| kinds.iter().map(move |(k, &n)| (b, k.clone(), n)))
            .collect(),
        points: Vec::new(),
    }
}

/// A finished run.
pub struct BankHeistRun {
    /// The tournaments, in order.
    pub records: Vec<TournamentRecord>,
    /// Each tournament in the shared results schema.
    pub summaries: Vec<MatchSummary>,
    /// Each tournament's record digest, for the receipt.
    pub digests: Vec<String>,
    /// Credits summed over the tournaments, with their spread; failures by kind.
    pub leaderboard: Leaderboard,
    /// The bots' names, in the order given.
    pub names: Vec<String>,
}

impl BankHeistRun {
    /// Total invocations.
    pub fn invocations(&self) -> u64 {
        self.records.iter().flat_map(|r| &r.invocations).sum()
    }

    /// Tournaments the host could not complete.
    pub fn void_tournaments(&self) -> usize {
        self.records.iter().filter(|r| r.void.is_some()).count()
    }
}

impl crate::games::Finished for BankHeistRun {
    fn names(&self) -> &[String] {
        &self.names
    }
    fn summaries(&self) -> &[MatchSummary] {
        &self.summaries
    }
    fn leaderboard(&self) -> &Leaderboard {
        &self.leaderboard
    }
    fn invocations(&self) -> u64 {
        BankHeistRun::invocations(self)
    }
}

/// Bank Heist, as the tournament commands run, resume, shard, merge and verify it.
pub struct BankHeist;

/// The game's name in manifests and on the command line.
pub const NAME: &str = "bank-heist";

impl crate::games::Game for BankHeist {
    type Options = BankHeistOptions;
    type Record = TournamentRecord;
    type Run = BankHeistRun;

    fn name(&self) -> &str {
        NAME
    }

    fn match_count(&self, _bots: usize, opts: &BankHeistOptions) -> usize {
        opts.tournaments as usize
    }

    fn round_count_field(&self) -> &'static str {
        "tournaments"
    }

    fn invocation_lines(&self, _index: usize, t: &TournamentRecord) -> Vec<serde_json::Value> {
        t.log
            .iter()
            .filter_map(|inv| serde_json::to_value(inv).ok())
            .collect()
    }

    fn match_field(&self) -> &'static str {
        "tournament"
    }

    fn reuse_note(&self, _opts: &BankHeistOptions) -> Option<String> {
        Some(
            "every bot plays in every Bank Heist tournament, so a change to any bot replays \
             them all"
                .into(),
        )
    }

    fn play(
        &self,
        players: &[Arc<dyn Player>],
        opts: &BankHeistOptions,
        workers: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
        plan: RunPlan<'_, TournamentRecord>,
    ) -> Result<Vec<Option<TournamentRecord>>, RunError> {
        let format = FreeForAll {
            players,
            opts,
            plans: self::plan(opts),
        };
        tournament::run(&format, workers, progress, plan)
    }

    fn finish(
        &self,
        names: Vec<String>,
        opts: &BankHeistOptions,
        records: Vec<TournamentRecord>,
        digests: Vec<String>,
    ) -> Result<BankHeistRun, RunError> {
        let plans = self::plan(opts);
        RunError::check_records(plans.len(), records.len(), digests.len())?;
        let summaries: Vec<MatchSummary> = plans
            .iter()
            .zip(&records)
            .map(|(p, r)| summarize(p, r))
            .collect();
        let mut leaderboard = standings(&names, &summaries, Columns::credits());
        let unit = MatchUnit {
            one: "tournament".into(),
            many: "tournaments".into(),
            advice: format!("run with --tournaments {MIN_MATCHES} or more"),
        };
        rate(&mut leaderboard, &names, &summaries, opts.seed, &unit);
        Ok(BankHeistRun {
            records,
            summaries,
            digests,
            leaderboard,
            names,
        })
    }

    fn write_archive(
        &self,
        r: &BankHeistRun,
        manifest: &Manifest,
        archive: &Archive,
    ) -> Result<(), ArchiveError> {
        write_archive(r, manifest, archive)
    }
}

/// Play the whole run with `workers` threads. `progress(done, total)` is called after each
/// tournament.
pub fn run(
    players: &[Arc<dyn Player>],
    opts: &BankHeistOptions,
    workers: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<BankHeistRun, RunError> {
    BankHeist.play_whole(players, opts, workers, progress)
}

/// The manifest of a Bank Heist run.
pub type Manifest = crate::tournament::Manifest<BankHeistOptions>;

#[derive(Serialize)]
struct Detail<'a> {
    /// Each bot's credits per tournament and in total (void tournaments excluded).
    credits: Vec<BotCredits<'a>>,
    tournaments: Vec<TournamentDetail<'a>>,
}

#[derive(Serialize)]
struct BotCredits<'a> {
    bot: &'a str,
    per_tournament: Vec<u64>,
    total: u64,
}

#[derive(Serialize)]
struct TournamentDetail<'a> {
    index: u32,
    games: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    void: Option<&'a str>,
    bots: Vec<(&'a str, &'a super::driver::FinalState)>,
}

/// Write the archive: manifest, results, leaderboard, the structured log
/// (`invocations.jsonl`) and in `matches.zip.zst` one human log per tournament
/// (`logs/tournament-N.log`).
pub fn write_archive(
    r: &BankHeistRun,
    manifest: &Manifest,
    archive: &Archive,
) -> Result<(), ArchiveError> {
    let credits = r
        .names
        .iter()
        .enumerate()
        .map(|(b, name)| {
            let per_tournament: Vec<u64> = r
                .records
                .iter()
                .map(|t| t.bots.get(b).map_or(0, |s| s.credits))
                .collect();
            let total = r
                .records
                .iter()
                .filter(|t| t.void.is_none())
                .map(|t| t.bots.get(b).map_or(0, |s| s.credits))
                .sum();
            BotCredits {
                bot: name,
                per_tournament,
                total,
            }
        })
        .collect();
    let tournaments = r
        .records
        .iter()
        .map(|t| TournamentDetail {
            index: t.index,
            games: t.games,
            void: t.void.as_deref(),
            bots: t.names.iter().map(String::as_str).zip(&t.bots).collect(),
        })
        .collect();
    let results = Results::new(
        "bank-heist",
        &r.names,
        &r.leaderboard,
        &r.summaries,
        &r.digests,
        "tournaments",
        Detail {
            credits,
            tournaments,
        },
    );
    // A tournament's log is long (every game of it): serialised in pieces. No head-to-head
    // table: every bot plays in every tournament.
    let pieces: Vec<&[super::driver::InvocationRecord]> =
        r.records.iter().flat_map(|t| t.log.chunks(1024)).collect();
    write_run(
        archive,
        manifest,
        &r.leaderboard,
        results,
        None,
        &pieces,
        |p, buf| json_lines_into(p.iter(), buf),
        || {
            let mut files = MatchFiles::with_capacity(r.records.len());
            for t in &r.records {
                files.file(
                    format!("logs/tournament-{}.log", t.index),
                    t.human_log.as_bytes(),
                )?;
            }
            Ok(files)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text's rules are left out of the manifest (so a text run's archive is the one
    /// koth wrote before the choice existed), the original's are recorded, and a manifest
    /// without the field (every archive written before) reads back as the text's.
    #[test]
    fn the_rules_in_the_manifest() {
        let text = serde_json::to_value(BankHeistOptions::default()).unwrap();
        assert!(text.get("rules").is_none(), "{text}");
        let original = BankHeistOptions {
            rules: Variant::Original,
            ..BankHeistOptions::default()
        };
        let json = serde_json::to_value(&original).unwrap();
        assert_eq!(json["rules"], "original");
        let back: BankHeistOptions = serde_json::from_value(json).unwrap();
        assert_eq!(back.rules, Variant::Original);
        let old: BankHeistOptions = serde_json::from_value(text).unwrap();
        assert_eq!(old.rules, Variant::Text);
        let bad = serde_json::json!({"tournaments": 1, "games": null, "seed": 1,
            "limits": serde_json::to_value(Limits::default()).unwrap(), "rules": "prose"});
        assert!(serde_json::from_value::<BankHeistOptions>(bad).is_err());
    }

    /// Records that are not one per tournament (a journal of another run) are an error, not
    /// a run summed up over fewer tournaments.
    #[test]
    fn records_that_are_not_one_per_tournament_are_refused() {
        let opts = BankHeistOptions {
            tournaments: 2,
            ..BankHeistOptions::default()
        };
        let names = vec!["a".to_string(), "b".to_string()];
        let err = BankHeist
            .finish(names, &opts, Vec::new(), Vec::new())
            .err()
            .expect("no records for two tournaments");
        assert!(
            matches!(
                err,
                RunError::Records {
                    matches: 2,
                    records: 0,
                    digests: 0
                }
            ),
            "{err}"
        );
        assert!(err.to_string().contains("2 matches"), "{err}");
    }
}
