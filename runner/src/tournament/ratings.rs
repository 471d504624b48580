//! Ratings with uncertainty: a Bradley–Terry fit of every match, a 95% interval for each
//! bot from a seeded bootstrap over matches, and the probability that each bot is truly above
//! the next one on the leaderboard.
//!
//! - **Two-sided matches** (Coup's games, Euchre's pairings) are one comparison each: the
//!   winner beats the loser; a draw is half a win each.
//! - **Matches of more than two** (a Bank Heist tournament, Euchre with random partners) are
//!   broken into every pair of participants ranked by their scores in the match ("all-pairs
//!   rank breaking", a consistent estimator for Plackett–Luce strengths): a higher score beats
//!   a lower one, equal scores are half a win each, and teammates (equal scores by
//!   construction) compare as a tie only when they are different bots.
//! - **The fit** is Hunter's minorise–maximise iteration for Bradley–Terry. A weak prior, one
//!   virtual draw of every bot against a reference of average strength, keeps a bot that won
//!   (or lost) everything at a finite rating.
//! - **The scale** is Elo's: 400 × log10 of the strength, centred so the bots average 1500. A
//!   difference of 400 means 10:1 odds.
//! - **The bootstrap** resamples the matches with replacement from a generator seeded by the
//!   caller (the run's seed), so the intervals are the same for the same run.

use super::results::MatchSummary;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use serde::{Deserialize, Serialize};

/// Bootstrap resamples.
pub const RESAMPLES: usize = 200;

/// One bot's rating.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// Elo-scale rating from the fit on all matches.
    pub rating: f64,
    /// 2.5th percentile over the bootstrap.
    pub low: f64,
    /// 97.5th percentile over the bootstrap.
    pub high: f64,
    /// Fraction of resamples in which this bot is rated above the next one on the
    /// leaderboard (`None` for the last).
    pub above_next: Option<f64>,
}

/// One comparison: `winner` beat `loser` with weight `w` (1, or 0.5 for each side of a tie).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Comparison {
    winner: usize,
    loser: usize,
    w: f64,
}

/// `a` against `b`: a win for the one with the higher key, half a win each when equal.
fn compare(a: usize, b: usize, ka: u64, kb: u64, out: &mut Vec<Comparison>) {
    match ka.cmp(&kb) {
        std::cmp::Ordering::Greater => out.push(Comparison {
            winner: a,
            loser: b,
            w: 1.0,
        }),
        std::cmp::Ordering::Less => out.push(Comparison {
            winner: b,
            loser: a,
            w: 1.0,
        }),
        std::cmp::Ordering::Equal => {
            out.push(Comparison {
                winner: a,
                loser: b,
                w: 0.5,
            });
            out.push(Comparison {
                winner: b,
                loser: a,
                w: 0.5,
            });
        }
    }
}

/// The comparisons a match contributes.
fn comparisons(m: &MatchSummary) -> Vec<Comparison> {
    let mut out = Vec::new();
    if m.void.is_some() {
        return out;
    }
    let parts = &m.participants;
    let won = |pos: usize| u64::from(m.winners.contains(&pos));
    if parts.len() == 2 {
        // Two sides: the winner beats the loser; no winner (or both) is a draw.
        if parts[0] != parts[1] {
            compare(parts[0], parts[1], won(0), won(1), &mut out);
        }
        return out;
    }
    // More than two: every pair, ranked by score (or by winning, when scores are absent).
    let key = |pos: usize| m.scores.get(pos).copied().unwrap_or(won(pos));
    for i in 0..parts.len() {
        for j in i + 1..parts.len() {
            if parts[i] != parts[j] {
                compare(parts[i], parts[j], key(i), key(j), &mut out);
            }
        }
    }
    out
}

/// Bradley–Terry strengths of `n` bots from the comparisons of `matches` (indices into
/// `per_match`), with `prior` virtual draws of each bot against an average reference.
/// Returns log-strengths centred at 0.
fn fit(n: usize, per_match: &[Vec<Comparison>], matches: &[usize], prior: f64) -> Vec<f64> {
    // wins[i], and games[i][j] = comparisons between i and j (weights summed both ways).
    let mut wins = vec![0.0; n];
    let mut games = vec![vec![0.0; n]; n];
    for &m in matches {
        for c in &per_match[m] {
            wins[c.winner] += c.w;
            games[c.winner][c.loser] += c.w;
            games[c.loser][c.winner] += c.w;
        }
    }
    let mut p = vec![1.0f64; n];
    for _ in 0..5000 {
        let mut change: f64 = 0.0;
        let mut next = vec![0.0; n];
        for i in 0..n {
            // The reference has strength 1: `prior` wins in `2 × prior` games against it.
            let mut denom = prior * 2.0 / (p[i] + 1.0);
            for j in 0..n {
                if games[i][j] > 0.0 {
                    denom += games[i][j] / (p[i] + p[j]);
                }
            }
            next[i] = if denom > 0.0 {
                ((wins[i] + prior) / denom).max(1e-300)
            } else {
                1.0
            };
        }
        if prior == 0.0 {
            // Without the reference only ratios are defined: keep the geometric mean at 1.
            let log_mean = next.iter().map(|x| x.ln()).sum::<f64>() / n.max(1) as f64;
            for x in next.iter_mut() {
                *x = (x.ln() - log_mean).exp();
            }
        }
        for i in 0..n {
            change = change.max((next[i].ln() - p[i].ln()).abs());
        }
        p = next;
        if change < 1e-10 {
            break;
        }
    }
    let logs: Vec<f64> = p.iter().map(|x| x.ln()).collect();
    let mean = logs.iter().sum::<f64>() / n.max(1) as f64;
    logs.iter().map(|x| x - mean).collect()
}

/// Elo scale from log-strengths: 400 log10, centred at 1500.
fn elo(log_strength: f64) -> f64 {
    1500.0 + 400.0 * log_strength / std::f64::consts::LN_10
}

/// Ratings of `n` bots from `summaries`, with bootstrap intervals drawn from `seed`;
/// `order` is the leaderboard's order of bots (for "above the next one"). Returns one rating
/// per bot, by bot index.
pub fn ratings(n: usize, summaries: &[MatchSummary], order: &[usize], seed: u64) -> Vec<Rating> {
    const PRIOR: f64 = 1.0;
    let per_match: Vec<Vec<Comparison>> = summaries.iter().map(comparisons).collect();
    let all: Vec<usize> = (0..summaries.len()).collect();
    let point = fit(n, &per_match, &all, PRIOR);
    if all.is_empty() {
        return point
            .iter()
            .map(|&x| Rating {
                rating: elo(x),
                low: elo(x),
                high: elo(x),
                above_next: None,
            })
            .collect();
    }
    let mut rng =
        ChaCha8Rng::seed_from_u64(crate::seed::derive_u64(seed, "ratings/bootstrap", &[]));
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(RESAMPLES); n];
    let mut above = vec![0usize; n];
    for _ in 0..RESAMPLES {
        let pick: Vec<usize> = (0..all.len())
            .map(|_| rng.random_range(0..all.len()))
            .collect();
        let s = fit(n, &per_match, &pick, PRIOR);
        for (i, v) in s.iter().enumerate() {
            samples[i].push(*v);
        }
        for w in order.windows(2) {
            if s[w[0]] > s[w[1]] {
                above[w[0]] += 1;
            }
        }
    }
    // Each bot's resampled ratings, sorted once for both percentiles.
    for v in &mut samples {
        v.sort_by(|a, b| a.total_cmp(b));
    }
    let percentile = |v: &[f64], q: f64| {
        let idx = ((v.len() as f64 - 1.0) * q).round() as usize;
        v.get(idx).copied().unwrap_or(0.0)
    };
    let has_next: Vec<bool> = {
        let mut h = vec![false; n];
        for w in order.windows(2) {
            h[w[0]] = true;
        }
        h
    };
    (0..n)
        .map(|i| Rating {
            rating: elo(point[i]),
            low: elo(percentile(&samples[i], 0.025)),
            high: elo(percentile(&samples[i], 0.975)),
            above_next: has_next[i].then(|| above[i] as f64 / RESAMPLES as f64),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn duel(a: usize, b: usize, a_wins: bool) -> MatchSummary {
        MatchSummary {
            participants: vec![a, b],
            scores: if a_wins { vec![1, 0] } else { vec![0, 1] },
            winners: vec![if a_wins { 0 } else { 1 }],
            ..MatchSummary::default()
        }
    }

    #[test]
    fn three_wins_in_four_is_a_strength_ratio_of_three() {
        let games = [
            duel(0, 1, true),
            duel(0, 1, true),
            duel(1, 0, false),
            duel(0, 1, false),
        ];
        let per: Vec<_> = games.iter().map(comparisons).collect();
        let s = fit(2, &per, &[0, 1, 2, 3], 0.0);
        // Maximum likelihood: p0 / p1 = 3 exactly, so log-strengths are ±ln(3)/2.
        assert!((s[0] - s[1] - 3f64.ln()).abs() < 1e-8, "{s:?}");
        assert!((s[0] + s[1]).abs() < 1e-12);
        // On the Elo scale that is 400 log10(3) ≈ 190.8 points apart.
        assert!((elo(s[0]) - elo(s[1]) - 190.848).abs() < 1e-2);
    }

    #[test]
    fn the_prior_keeps_an_unbeaten_bot_finite() {
        let games = vec![duel(0, 1, true); 5];
        let per: Vec<_> = games.iter().map(comparisons).collect();
        let s = fit(2, &per, &[0, 1, 2, 3, 4], 1.0);
        assert!(s.iter().all(|x| x.is_finite()));
        assert!(s[0] > s[1]);
    }

    #[test]
    fn draws_and_free_for_alls_compare_every_pair() {
        let draw = MatchSummary {
            participants: vec![0, 1],
            scores: vec![0, 0],
            ..MatchSummary::default()
        };
        assert_eq!(comparisons(&draw).len(), 2);
        let heist = MatchSummary {
            participants: vec![0, 1, 2],
            scores: vec![500, 300, 300],
            winners: vec![0],
            ..MatchSummary::default()
        };
        let c = comparisons(&heist);
        // 0 beats 1 and 2; 1 and 2 tie (two half comparisons).
        assert_eq!(c.iter().filter(|c| c.winner == 0 && c.w == 1.0).count(), 2);
        assert_eq!(c.iter().filter(|c| c.w == 0.5).count(), 2);
        let mut void = heist.clone();
        void.void = Some("host fault".into());
        assert!(comparisons(&void).is_empty());
    }

    #[test]
    fn a_simulation_recovers_known_strengths_within_the_intervals() {
        // Five bots 150 Elo apart, 60 games per ordered pair.
        let truth = [300.0, 150.0, 0.0, -150.0, -300.0];
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut games = Vec::new();
        for a in 0..5 {
            for b in 0..5 {
                if a == b {
                    continue;
                }
                let p_a: f64 = 1.0 / (1.0 + 10f64.powf((truth[b] - truth[a]) / 400.0));
                for _ in 0..60 {
                    games.push(duel(a, b, rng.random_bool(p_a)));
                }
            }
        }
        let r = ratings(5, &games, &[0, 1, 2, 3, 4], 9);
        for (i, x) in r.iter().enumerate() {
            let t = 1500.0 + truth[i];
            assert!(
                x.low <= t && t <= x.high,
                "bot {i}: {t} not in [{}, {}]",
                x.low,
                x.high
            );
            assert!(x.low < x.rating && x.rating < x.high);
        }
        // Neighbours 150 apart are told apart with high probability.
        for x in &r[..4] {
            assert!(x.above_next.unwrap() > 0.9, "{r:?}");
        }
        assert_eq!(r[4].above_next, None);
        // Deterministic for a seed.
        assert_eq!(r, ratings(5, &games, &[0, 1, 2, 3, 4], 9));
    }

    #[test]
    fn equal_bots_are_a_coin_toss() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let games: Vec<_> = (0..400).map(|_| duel(0, 1, rng.random_bool(0.5))).collect();
        let r = ratings(2, &games, &[0, 1], 1);
        let p = r[0].above_next.unwrap();
        assert!((0.02..0.98).contains(&p), "{p}");
        assert!(r[0].low < 1500.0 && r[0].high > 1500.0);
    }
}
