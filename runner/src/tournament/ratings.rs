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
//! - **The fit** is the maximum likelihood of Bradley–Terry, found by Newton's method. A weak
//!   prior, one virtual draw of every bot against a reference of average strength, keeps a
//!   bot that won (or lost) everything at a finite rating.
//! - **The scale** is Elo's: 400 × log10 of the strength, centred so the bots average 1500. A
//!   difference of 400 means 10:1 odds.
//! - **The bootstrap** resamples the matches with replacement from a generator seeded by the
//!   caller (the run's seed), so the intervals are the same for the same run.
//! - **No interval below [`MIN_MATCHES`] independent matches.** A bootstrap can only show the
//!   variation between the matches it resamples: over one match every resample is that match,
//!   so the interval has zero width and P>next is 0% or 100%, a certainty the data does not
//!   have. Below the minimum the rating is the fit alone and the interval and P>next are
//!   `None`; at and above it they are computed exactly as they always were.

use super::results::MatchSummary;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use serde::{Deserialize, Serialize};

/// Bootstrap resamples.
pub const RESAMPLES: usize = 200;

/// The fewest independent matches (non-void, with at least two different bots compared) for
/// which the bootstrap's interval and P>next are shown.
///
/// Why 5. Over n matches a resample repeats a single match n times with probability
/// n^(1-n): for n = 2 half the resamples, for n = 3 one in nine, more than the 5% the two
/// tails of a 95% interval hold, so both ends of the "interval" are single matches refitted
/// (the range of the matches, not a 95% interval); for n = 4 one in 64, for n = 5 one in 625.
/// And in simulated runs with known strengths (the test
/// `the_minimum_is_where_the_interval_starts_to_hold_the_truth` prints them) the interval
/// holds the true rating in no run over 1 match, in 44–53% over 2 and 55–77% over 3, and in
/// 81–94% over 5, improving only slowly after that (90–93% over 10).
pub const MIN_MATCHES: usize = 5;

/// Log-strengths closer than this are the same rating: the fit is exact to far less, and a
/// real difference is far more (1e-9 is a millionth of an Elo point).
const SAME: f64 = 1e-9;

/// One bot's rating.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// Elo-scale rating from the fit on all matches.
    pub rating: f64,
    /// 2.5th percentile over the bootstrap; `None` (null in `results.json`) below
    /// [`MIN_MATCHES`] independent matches.
    pub low: Option<f64>,
    /// 97.5th percentile over the bootstrap; `None` below [`MIN_MATCHES`].
    pub high: Option<f64>,
    /// Fraction of resamples in which this bot is rated above the next one on the
    /// leaderboard (`None` for the last, and for every bot below [`MIN_MATCHES`]).
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
///
/// The maximum of the (concave) log-likelihood, found by Newton's method: a handful of steps,
/// each solving the `n × n` system of the curvature, with a backtracking line search while
/// far from the maximum. Hunter's minorise–maximise iteration, which koth used first, stops
/// thousands of steps later still about 1e-8 away (its slowest direction, the bots' common
/// scale, is held only by the weak prior); this is the maximum to rounding, in a fraction of
/// the time. Without the prior (`prior` 0, for the tests) the log-strengths' mean is held
/// at 0.
fn fit(n: usize, per_match: &[Vec<Comparison>], matches: &[usize], prior: f64) -> Vec<f64> {
    fit_with(n, per_match, matches, prior, n <= DENSE_MAX)
}

/// [`fit`], solving each Newton step densely or sparsely as `dense` says.
fn fit_with(
    n: usize,
    per_match: &[Vec<Comparison>],
    matches: &[usize],
    prior: f64,
    dense: bool,
) -> Vec<f64> {
    // wins[i], and the comparisons between each two bots that met (weights summed).
    let mut wins = vec![0.0; n];
    let mut pairs: Vec<(usize, usize, f64)> = Vec::new();
    if dense {
        let mut games = vec![0.0; n * n];
        for &m in matches {
            for c in &per_match[m] {
                wins[c.winner] += c.w;
                let (a, b) = (c.winner.min(c.loser), c.winner.max(c.loser));
                games[a * n + b] += c.w;
            }
        }
        pairs = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .map(|(i, j)| (i, j, games[i * n + j]))
            .collect();
    } else {
        // Each pair's weights summed in match order (a stable sort keeps it), pairs in (i, j)
        // order: the sums an n × n table gives, without the table a large ladder cannot hold.
        let mut met: Vec<(usize, usize, f64)> = Vec::new();
        for &m in matches {
            for c in &per_match[m] {
                wins[c.winner] += c.w;
                met.push((c.winner.min(c.loser), c.winner.max(c.loser), c.w));
            }
        }
        met.sort_by_key(|&(a, b, _)| (a, b));
        for (a, b, w) in met {
            match pairs.last_mut() {
                Some(last) if (last.0, last.1) == (a, b) => last.2 += w,
                _ => pairs.push((a, b, w)),
            }
        }
    }
    pairs.retain(|&(_, _, g)| g > 0.0);
    // The log-likelihood: each bot's wins, less each pair's log(e^θi + e^θj) per comparison,
    // and the prior's draw against the reference (strength 1, θ = 0).
    let loglik = |theta: &[f64]| -> f64 {
        let mut l = 0.0;
        for i in 0..n {
            l += wins[i] * theta[i] + prior * (theta[i] - 2.0 * log_add_exp(theta[i], 0.0));
        }
        for &(i, j, g) in &pairs {
            l -= g * log_add_exp(theta[i], theta[j]);
        }
        l
    };
    let mut theta = vec![0.0f64; n];
    let mut grad = vec![0.0f64; n];
    let mut curv = vec![0.0f64; if dense { n * n } else { 0 }];
    let mut diag = vec![0.0f64; n];
    let mut weights = vec![0.0f64; pairs.len()];
    let hold = if prior == 0.0 { 1.0 / n as f64 } else { 0.0 };
    for _ in 0..200 {
        // The gradient, and the curvature (the Hessian's negative: positive definite with
        // the prior, or once the mean is held).
        for i in 0..n {
            let s = logistic(theta[i]);
            grad[i] = wins[i] + prior * (1.0 - 2.0 * s);
        }
        let step = if dense {
            curv.fill(hold);
            for i in 0..n {
                let s = logistic(theta[i]);
                curv[i * n + i] += 2.0 * prior * s * (1.0 - s);
            }
            for &(i, j, g) in &pairs {
                let s = logistic(theta[i] - theta[j]);
                grad[i] -= g * s;
                grad[j] -= g * (1.0 - s);
                let h = g * s * (1.0 - s);
                curv[i * n + i] += h;
                curv[j * n + j] += h;
                curv[i * n + j] -= h;
                curv[j * n + i] -= h;
            }
            solve(n, &mut curv, &grad)
        } else {
            for i in 0..n {
                let s = logistic(theta[i]);
                diag[i] = 2.0 * prior * s * (1.0 - s);
            }
            for (p, &(i, j, g)) in pairs.iter().enumerate() {
                let s = logistic(theta[i] - theta[j]);
                grad[i] -= g * s;
                grad[j] -= g * (1.0 - s);
                weights[p] = g * s * (1.0 - s);
            }
            solve_sparse(&diag, hold, &pairs, &weights, &grad)
        };
        let Some(step) = step else {
            break;
        };
        let largest = step.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        // Near the maximum Newton's step is the step (a line search there would only see
        // rounding); farther, it is halved until the likelihood rises enough.
        let mut t = 1.0;
        if largest > 1e-6 {
            let now = loglik(&theta);
            let rise: f64 = grad.iter().zip(&step).map(|(g, d)| g * d).sum();
            loop {
                let tried: Vec<f64> = theta.iter().zip(&step).map(|(x, d)| x + t * d).collect();
                if loglik(&tried) >= now + 1e-4 * t * rise || t < 1e-10 {
                    break;
                }
                t *= 0.5;
            }
        }
        for (x, d) in theta.iter_mut().zip(&step) {
            *x += t * d;
        }
        if t * largest < 1e-12 {
            break;
        }
    }
    let mean = theta.iter().sum::<f64>() / n.max(1) as f64;
    theta.iter().map(|x| x - mean).collect()
}

/// 1 / (1 + e^-x), without overflow.
fn logistic(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// ln(e^a + e^b), without overflow.
fn log_add_exp(a: f64, b: f64) -> f64 {
    a.max(b) + (-(a - b).abs()).exp().ln_1p()
}

/// Solve `a x = b` for a symmetric positive definite `n × n` matrix `a` (row-major, overwritten
/// by its Cholesky factor); `None` if it is not positive definite.
fn solve(n: usize, a: &mut [f64], b: &[f64]) -> Option<Vec<f64>> {
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        if d.is_nan() || d <= 0.0 {
            return None;
        }
        let d = d.sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut v = a[i * n + j];
            for k in 0..j {
                v -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = v / d;
        }
    }
    // L y = b, then Lᵀ x = y.
    let mut x = b.to_vec();
    for i in 0..n {
        for k in 0..i {
            x[i] -= a[i * n + k] * x[k];
        }
        x[i] /= a[i * n + i];
    }
    for i in (0..n).rev() {
        for k in i + 1..n {
            x[i] -= a[k * n + i] * x[k];
        }
        x[i] /= a[i * n + i];
    }
    Some(x)
}

/// Above this many bots the curvature is solved by conjugate gradients on its sparse form
/// (one term per pair that met) instead of a dense Cholesky factor: n³/6 per Newton step, 201
/// fits per run, is seconds at a few hundred bots and minutes at a thousand. Up to it the fit
/// is the dense one, to the bit, as before sparse solving existed.
const DENSE_MAX: usize = 200;

/// Solve `A x = b` where `A = diag + hold·11ᵀ + Σ w (e_i − e_j)(e_i − e_j)ᵀ` over the pairs
/// `(i, j)`: symmetric positive definite when the curvature is. Conjugate gradients with the
/// diagonal as preconditioner, to a residual of 1e-13 of `b` (Newton's outer steps make up
/// for what an inexact step leaves); `None` if the matrix shows it is not positive definite.
fn solve_sparse(
    diag: &[f64],
    hold: f64,
    pairs: &[(usize, usize, f64)],
    w: &[f64],
    b: &[f64],
) -> Option<Vec<f64>> {
    let n = b.len();
    let apply = |x: &[f64], y: &mut [f64]| {
        let sum: f64 = x.iter().sum();
        for i in 0..n {
            y[i] = diag[i] * x[i] + hold * sum;
        }
        for (p, &(i, j, _)) in pairs.iter().enumerate() {
            let d = w[p] * (x[i] - x[j]);
            y[i] += d;
            y[j] -= d;
        }
    };
    let mut pre: Vec<f64> = (0..n).map(|i| diag[i] + hold).collect();
    for (p, &(i, j, _)) in pairs.iter().enumerate() {
        pre[i] += w[p];
        pre[j] += w[p];
    }
    if pre.iter().any(|&d| d.is_nan() || d <= 0.0) {
        return None;
    }
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let mut x = vec![0.0; n];
    let mut r = b.to_vec();
    let mut z: Vec<f64> = r.iter().zip(&pre).map(|(r, d)| r / d).collect();
    let mut p = z.clone();
    let mut q = vec![0.0; n];
    let mut rz = dot(&r, &z);
    let target = 1e-13 * dot(b, b).sqrt();
    for _ in 0..10 * n.max(10) {
        if dot(&r, &r).sqrt() <= target {
            break;
        }
        apply(&p, &mut q);
        let pq = dot(&p, &q);
        if pq.is_nan() || pq <= 0.0 {
            return None;
        }
        let alpha = rz / pq;
        for i in 0..n {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
        }
        for i in 0..n {
            z[i] = r[i] / pre[i];
        }
        let next = dot(&r, &z);
        let beta = next / rz;
        rz = next;
        for i in 0..n {
            p[i] = z[i] + beta * p[i];
        }
    }
    Some(x)
}

/// Elo scale from log-strengths: 400 log10, centred at 1500.
fn elo(log_strength: f64) -> f64 {
    ELO_CENTRE + 400.0 * log_strength / std::f64::consts::LN_10
}

/// The matches that compare at least two different bots (void ones compare nobody): what a
/// bootstrap over matches has to resample.
pub fn independent_matches(summaries: &[MatchSummary]) -> usize {
    summaries
        .iter()
        .filter(|m| !comparisons(m).is_empty())
        .count()
}

/// What a leaderboard is ranked by, and so what its rating is fitted on: the two always agree
/// (the rows are in the order of the ratings, and P>next is about that order).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// Matches won (Coup, Euchre, a referee without a named score): the Bradley–Terry rating
    /// fitted on who beat whom, on Elo's scale. In a round robin where every bot plays every
    /// other equally often it orders the bots as their wins do; where they do not (void
    /// matches, a sampled ladder) it weighs whom each bot met and how often.
    #[default]
    Wins,
    /// The game's named score (Bank Heist's credits, a referee's points): the mean score per
    /// match the bot played. Where every bot plays as many matches, that is the order of the
    /// totals, which is what such a game ranks by; a pairwise fit would not be (a bot that
    /// wins every duel on points can make the fewest points overall).
    Score,
}

impl Basis {
    /// The rating column's heading in `score`'s words (`rating`, `mean credits`).
    pub fn heading(self, score: Option<&str>) -> String {
        match (self, score) {
            (Basis::Score, Some(name)) => format!("mean {name}"),
            (Basis::Score, None) => "mean score".into(),
            (Basis::Wins, _) => "rating".into(),
        }
    }

    /// Decimals a rating is shown with: whole Elo points, a mean score to one decimal.
    pub fn digits(self) -> usize {
        match self {
            Basis::Wins => 0,
            Basis::Score => 1,
        }
    }

    /// The rating of an average bot, which the interval bars mark: [`ELO_CENTRE`] on Elo's
    /// scale; none for a mean score.
    pub fn centre(self) -> Option<f64> {
        (self == Basis::Wins).then_some(ELO_CENTRE)
    }
}

/// The bots' average rating on Elo's scale.
pub const ELO_CENTRE: f64 = 1500.0;

/// Each bot's score in each match, for [`Basis::Score`]: the first position a bot holds in a
/// match counts, once (as the standings count it); void matches hold nobody.
fn scores_of(m: &MatchSummary) -> Vec<(usize, f64)> {
    if m.void.is_some() {
        return Vec::new();
    }
    let mut out: Vec<(usize, f64)> = Vec::with_capacity(m.participants.len());
    for (pos, &bot) in m.participants.iter().enumerate() {
        if out.iter().all(|&(b, _)| b != bot) {
            out.push((bot, m.scores.get(pos).copied().unwrap_or(0) as f64));
        }
    }
    out
}

/// Each bot's mean score over `matches` (indices into `per_match`); NaN for a bot in none.
fn means(n: usize, per_match: &[Vec<(usize, f64)>], matches: &[usize]) -> Vec<f64> {
    let mut sum = vec![0.0; n];
    let mut count = vec![0u64; n];
    for &m in matches {
        for &(bot, score) in &per_match[m] {
            sum[bot] += score;
            count[bot] += 1;
        }
    }
    sum.iter()
        .zip(&count)
        .map(|(&s, &c)| if c == 0 { f64::NAN } else { s / c as f64 })
        .collect()
}

/// One bootstrap resample's value for each bot, from the matches it picked.
type Resample = Box<dyn Fn(&[usize]) -> Vec<f64> + Sync>;

/// The virtual draws of every bot against an average reference in the Bradley–Terry fit.
const PRIOR: f64 = 1.0;

/// Bradley–Terry ratings of `n` bots from `summaries` ([`Basis::Wins`]); see [`Rater`].
pub fn ratings(n: usize, summaries: &[MatchSummary], order: &[usize], seed: u64) -> Vec<Rating> {
    Rater::new(n, summaries, Basis::Wins).ratings(order, seed)
}

/// A run's matches made ready to rate on a basis: what each match says (its comparisons or
/// its scores), the rating on every match, and how a bootstrap resample is rated. The
/// leaderboard is sorted by [`Rater::point`] before [`Rater::ratings`] draws the intervals,
/// from the same fit.
pub struct Rater {
    n: usize,
    matches: usize,
    independent: usize,
    /// The rating on every match before `scale`: log-strengths (Wins) or means (Score, 0 for
    /// a bot in none).
    point: Vec<f64>,
    /// One resample's values per bot (Score: NaN for a bot the resample does not hold).
    resample: Resample,
    /// How a value reads on the rating's scale.
    scale: fn(f64) -> f64,
}

impl Rater {
    /// Rate `n` bots on `basis` from `summaries`.
    pub fn new(n: usize, summaries: &[MatchSummary], basis: Basis) -> Rater {
        let all: Vec<usize> = (0..summaries.len()).collect();
        let (point, resample, scale): (Vec<f64>, Resample, fn(f64) -> f64) = match basis {
            Basis::Wins => {
                let per_match: Vec<Vec<Comparison>> = summaries.iter().map(comparisons).collect();
                let point = fit(n, &per_match, &all, PRIOR);
                (
                    point,
                    Box::new(move |pick: &[usize]| fit(n, &per_match, pick, PRIOR)),
                    elo,
                )
            }
            Basis::Score => {
                let per_match: Vec<Vec<(usize, f64)>> = summaries.iter().map(scores_of).collect();
                let point = means(n, &per_match, &all)
                    .into_iter()
                    .map(|m| if m.is_nan() { 0.0 } else { m })
                    .collect();
                (
                    point,
                    Box::new(move |pick: &[usize]| means(n, &per_match, pick)),
                    |x| x,
                )
            }
        };
        Rater {
            n,
            matches: summaries.len(),
            independent: independent_matches(summaries),
            point,
            resample,
            scale,
        }
    }

    /// Each bot's rating from every match, without an interval, by bot index: on Elo's
    /// scale for [`Basis::Wins`], the mean score per match for [`Basis::Score`].
    pub fn point(&self) -> Vec<f64> {
        self.point.iter().map(|&x| (self.scale)(x)).collect()
    }

    /// The ratings, with bootstrap intervals drawn from `seed` when there are at least
    /// [`MIN_MATCHES`] independent matches; `order` is the leaderboard's order of bots (for
    /// "above the next one"). One rating per bot, by bot index.
    pub fn ratings(&self, order: &[usize], seed: u64) -> Vec<Rating> {
        let Rater {
            n,
            matches,
            independent,
            ref point,
            ref resample,
            scale,
        } = *self;
        if independent < MIN_MATCHES {
            return point
                .iter()
                .map(|&x| Rating {
                    rating: scale(x),
                    low: None,
                    high: None,
                    above_next: None,
                })
                .collect();
        }
        // Unchanged from before the minimum existed (archives above it stay byte-identical): the
        // resamples draw from every match, void ones included.
        let mut rng =
            ChaCha8Rng::seed_from_u64(crate::seed::derive_u64(seed, "ratings/bootstrap", &[]));
        let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(RESAMPLES); n];
        let mut above = vec![0usize; n];
        // The resamples are drawn in order from the one generator, then fitted on every core:
        // each fit depends only on its resample, so the figures are the same at any core count.
        let picks: Vec<Vec<usize>> = (0..RESAMPLES)
            .map(|_| (0..matches).map(|_| rng.random_range(0..matches)).collect())
            .collect();
        let fits: Vec<Vec<f64>> = {
            use rayon::prelude::*;
            picks.par_iter().map(|pick| resample(pick)).collect()
        };
        for s in fits {
            for (i, v) in s.iter().enumerate() {
                // A bot the resample does not hold has no value in it (Score only).
                if !v.is_nan() {
                    samples[i].push(*v);
                }
            }
            for w in order.windows(2) {
                // Rated the same (two bots the resample shows alike: the same opponents, the same
                // results) is not above, whatever the last bits of the fit say; nor is a bot the
                // resample does not hold (NaN compares false).
                if s[w[0]] > s[w[1]] + SAME {
                    above[w[0]] += 1;
                }
            }
        }
        // Each bot's resampled ratings, sorted once for both percentiles.
        for v in &mut samples {
            v.sort_by(|a, b| a.total_cmp(b));
        }
        let percentile = |v: &[f64], q: f64, at: f64| {
            if v.is_empty() {
                return at;
            }
            let idx = ((v.len() as f64 - 1.0) * q).round() as usize;
            v.get(idx).copied().unwrap_or(at)
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
                rating: scale(point[i]),
                low: Some(scale(percentile(&samples[i], 0.025, point[i]))),
                high: Some(scale(percentile(&samples[i], 0.975, point[i]))),
                above_next: has_next[i].then(|| above[i] as f64 / RESAMPLES as f64),
            })
            .collect()
    }
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

    /// Hunter's minorise–maximise iteration, as koth first fitted the ratings, run here to a
    /// tolerance far tighter than it ever was: the reference [`fit`] must agree with.
    fn fit_reference(
        n: usize,
        per_match: &[Vec<Comparison>],
        matches: &[usize],
        prior: f64,
    ) -> Vec<f64> {
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
        let mut next = vec![0.0; n];
        for _ in 0..2_000_000 {
            for i in 0..n {
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
                let log_mean = next.iter().map(|x| x.ln()).sum::<f64>() / n.max(1) as f64;
                for x in next.iter_mut() {
                    *x = (x.ln() - log_mean).exp();
                }
            }
            let change = p
                .iter()
                .zip(&next)
                .fold(0.0f64, |c, (a, b)| c.max((b.ln() - a.ln()).abs()));
            std::mem::swap(&mut p, &mut next);
            if change < 1e-15 {
                break;
            }
        }
        let ln_p: Vec<f64> = p.iter().map(|x| x.ln()).collect();
        let mean = ln_p.iter().sum::<f64>() / n.max(1) as f64;
        ln_p.iter().map(|x| x - mean).collect()
    }

    #[test]
    fn the_fit_is_the_maximum_the_first_iteration_tends_to() {
        // Property, over random match sets (duels, draws, free-for-alls, void matches, bots
        // that never met, one bot winning everything it plays) and bootstrap-like resamples:
        // Newton's fit is where the minorise–maximise iteration ends when run to the end.
        for case in 0..150u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(7_000 + case);
            let bots = rng.random_range(1..=14);
            // A lone bot compares with nobody.
            let informative = if bots > 1 {
                rng.random_range(0..=40)
            } else {
                0
            };
            let mut matches = random_matches(&mut rng, bots, informative);
            if case % 5 == 0 {
                for m in &mut matches {
                    if let Some(pos) = m.participants.iter().position(|&b| b == 0) {
                        m.winners = vec![pos];
                        m.scores = (0..m.participants.len())
                            .map(|q| u64::from(q == pos) * 9)
                            .collect();
                    }
                }
            }
            let per: Vec<_> = matches.iter().map(comparisons).collect();
            let all: Vec<usize> = (0..matches.len()).collect();
            let pick: Vec<usize> = (0..matches.len())
                .map(|_| rng.random_range(0..matches.len().max(1)))
                .filter(|&m| m < matches.len())
                .collect();
            for sel in [&all, &pick] {
                let fast = fit(bots, &per, sel, 1.0);
                let slow = fit_reference(bots, &per, sel, 1.0);
                for (a, b) in fast.iter().zip(&slow) {
                    assert!((a - b).abs() < 1e-9, "case {case}: {fast:?} vs {slow:?}");
                }
            }
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
            let (low, high) = (x.low.unwrap(), x.high.unwrap());
            assert!(low <= t && t <= high, "bot {i}: {t} not in [{low}, {high}]");
            assert!(low < x.rating && x.rating < high);
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
    fn bots_the_resamples_show_alike_are_never_above_each_other() {
        // In every match bots 0 and 1 tie and beat bot 2 (or both lose to it): every resample
        // rates them the same, so neither is ever above the other, however the fit's last
        // bits fall.
        let games: Vec<MatchSummary> = (0..8)
            .map(|g| MatchSummary {
                participants: vec![0, 1, 2],
                scores: if g % 3 == 0 {
                    vec![0, 0, 1]
                } else {
                    vec![1, 1, 0]
                },
                ..MatchSummary::default()
            })
            .collect();
        for order in [[0, 1, 2], [1, 0, 2]] {
            let r = ratings(3, &games, &order, 5);
            assert_eq!(r[order[0]].above_next, Some(0.0), "{r:?}");
            assert_eq!(r[0].rating, r[1].rating);
        }
    }

    #[test]
    fn equal_bots_are_a_coin_toss() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let games: Vec<_> = (0..400).map(|_| duel(0, 1, rng.random_bool(0.5))).collect();
        let r = ratings(2, &games, &[0, 1], 1);
        let p = r[0].above_next.unwrap();
        assert!((0.02..0.98).contains(&p), "{p}");
        assert!(r[0].low.unwrap() < 1500.0 && r[0].high.unwrap() > 1500.0);
    }

    /// A random match set of `bots` bots: `informative` matches that compare at least two
    /// different bots (duels, draws, free-for-alls with ties, a bot on both sides beside
    /// others), mixed with matches that compare nobody (void, or one bot against itself).
    fn random_matches(rng: &mut ChaCha8Rng, bots: usize, informative: usize) -> Vec<MatchSummary> {
        let mut out = Vec::new();
        let mut made = 0;
        while made < informative {
            let size = if rng.random_bool(0.5) {
                2
            } else {
                rng.random_range(2..=bots.max(2) + 1)
            };
            let mut participants: Vec<usize> =
                (0..size).map(|_| rng.random_range(0..bots)).collect();
            let scores: Vec<u64> = (0..size).map(|_| rng.random_range(0..4)).collect();
            let best = scores.iter().copied().max().unwrap_or(0);
            let winners = (0..size).filter(|&p| scores[p] == best).collect();
            let void = rng.random_bool(0.1).then(|| "host fault".to_string());
            if participants.iter().all(|&b| b == participants[0]) && bots > 1 && void.is_none() {
                participants[0] = (participants[0] + 1) % bots;
            }
            let m = MatchSummary {
                participants,
                scores,
                winners,
                void,
                ..MatchSummary::default()
            };
            made += usize::from(!comparisons(&m).is_empty());
            out.push(m);
        }
        // Matches of one bot against itself compare nobody either.
        for _ in 0..rng.random_range(0..3) {
            let b = rng.random_range(0..bots);
            out.insert(
                rng.random_range(0..=out.len()),
                MatchSummary {
                    participants: vec![b, b],
                    scores: vec![1, 0],
                    winners: vec![0],
                    ..MatchSummary::default()
                },
            );
        }
        out
    }

    /// A random leaderboard order of `bots` bots.
    fn random_order(rng: &mut ChaCha8Rng, bots: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..bots).collect();
        for i in (1..bots).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        order
    }

    /// The ratings as computed before the minimum existed, kept verbatim as the reference
    /// that runs at and above the minimum must still match: (rating, low, high, above_next).
    fn before(
        n: usize,
        summaries: &[MatchSummary],
        order: &[usize],
        seed: u64,
    ) -> Vec<(f64, f64, f64, Option<f64>)> {
        const PRIOR: f64 = 1.0;
        let per_match: Vec<Vec<Comparison>> = summaries.iter().map(comparisons).collect();
        let all: Vec<usize> = (0..summaries.len()).collect();
        let point = fit(n, &per_match, &all, PRIOR);
        if all.is_empty() {
            return point
                .iter()
                .map(|&x| (elo(x), elo(x), elo(x), None))
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
                if s[w[0]] > s[w[1]] + SAME {
                    above[w[0]] += 1;
                }
            }
        }
        for v in &mut samples {
            v.sort_by(|a, b| a.total_cmp(b));
        }
        let percentile = |v: &[f64], q: f64| {
            let idx = ((v.len() as f64 - 1.0) * q).round() as usize;
            v.get(idx).copied().unwrap_or(0.0)
        };
        let mut has_next = vec![false; n];
        for w in order.windows(2) {
            has_next[w[0]] = true;
        }
        (0..n)
            .map(|i| {
                (
                    elo(point[i]),
                    elo(percentile(&samples[i], 0.025)),
                    elo(percentile(&samples[i], 0.975)),
                    has_next[i].then(|| above[i] as f64 / RESAMPLES as f64),
                )
            })
            .collect()
    }

    #[test]
    fn a_bootstrap_over_one_independent_match_never_yields_an_interval() {
        // Property, over 2,000 random runs: whatever the match (a duel, a draw, a free for
        // all with ties), the number of bots, the seed, and however many matches that compare
        // nobody lie around it, no bot gets an interval or a P>next, and the rating is the
        // fit's, as before.
        for case in 0..2000u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(case);
            let bots = rng.random_range(1..=12);
            let matches = random_matches(&mut rng, bots, usize::from(bots > 1));
            let order = random_order(&mut rng, bots);
            let seed = rng.random();
            let r = ratings(bots, &matches, &order, seed);
            assert_eq!(r.len(), bots);
            let per: Vec<_> = matches.iter().map(comparisons).collect();
            let point = fit(bots, &per, &(0..matches.len()).collect::<Vec<_>>(), 1.0);
            for (x, p) in r.iter().zip(&point) {
                assert!(
                    x.low.is_none() && x.high.is_none() && x.above_next.is_none(),
                    "case {case}: {x:?} from {matches:?}"
                );
                assert!(x.rating.is_finite() && x.rating == elo(*p), "case {case}");
            }
        }
    }

    #[test]
    fn intervals_come_from_the_minimum_on_exactly_as_before() {
        // Property, over random runs on both sides of the minimum: below it no interval; from
        // it on, every bot's interval and P>next are the ones the bootstrap always gave
        // (`before`), bit for bit, so archives of such runs do not change.
        for case in 0..240u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(1_000_000 + case);
            let bots = rng.random_range(2..=6);
            let informative = rng.random_range(0..=2 * MIN_MATCHES);
            let matches = random_matches(&mut rng, bots, informative);
            assert_eq!(independent_matches(&matches), informative);
            let order = random_order(&mut rng, bots);
            let seed = rng.random();
            let r = ratings(bots, &matches, &order, seed);
            let old = before(bots, &matches, &order, seed);
            for (i, (x, o)) in r.iter().zip(&old).enumerate() {
                assert_eq!(x.rating, o.0, "case {case}");
                if informative < MIN_MATCHES {
                    assert_eq!(
                        (x.low, x.high, x.above_next),
                        (None, None, None),
                        "case {case}"
                    );
                } else {
                    assert_eq!((x.low, x.high), (Some(o.1), Some(o.2)), "case {case}");
                    assert_eq!(x.above_next, o.3, "case {case}");
                    assert_eq!(
                        x.above_next.is_some(),
                        order.last() != Some(&i),
                        "case {case}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_minimum_counts_matches_not_comparisons() {
        // One free-for-all of twelve bots is 66 comparisons, still one match: no interval.
        let heist = MatchSummary {
            participants: (0..12).collect(),
            scores: (0..12).map(|s| s * 100).collect(),
            winners: vec![11],
            ..MatchSummary::default()
        };
        let order: Vec<usize> = (0..12).rev().collect();
        let one = ratings(12, std::slice::from_ref(&heist), &order, 1);
        assert!(one
            .iter()
            .all(|x| x.low.is_none() && x.above_next.is_none()));
        // The fit still orders them by score.
        assert!(one.windows(2).all(|w| w[0].rating < w[1].rating));
        let enough = vec![heist; MIN_MATCHES];
        let r = ratings(12, &enough, &order, 1);
        assert!(r.iter().all(|x| x.low.is_some() && x.high.is_some()));
    }

    /// A free-for-all of bots with Elo strengths `truth`: a Plackett–Luce ranking (Gumbel
    /// noise on each log-strength), scored by rank.
    fn free_for_all(truth: &[f64], rng: &mut ChaCha8Rng) -> MatchSummary {
        let keys: Vec<f64> = truth
            .iter()
            .map(|t| {
                let u: f64 = rng.random_range(1e-12..1.0);
                t * std::f64::consts::LN_10 / 400.0 - (-u.ln()).ln()
            })
            .collect();
        let mut by_key: Vec<usize> = (0..truth.len()).collect();
        by_key.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]));
        let mut scores = vec![0; truth.len()];
        for (rank, &b) in by_key.iter().enumerate() {
            scores[b] = rank as u64;
        }
        MatchSummary {
            participants: (0..truth.len()).collect(),
            winners: by_key.last().copied().into_iter().collect(),
            scores,
            ..MatchSummary::default()
        }
    }

    /// Plays match `g` of a simulated run between bots of Elo strengths `truth`.
    type Play = dyn Fn(&[f64], usize, &mut ChaCha8Rng) -> MatchSummary;

    /// How often the bootstrap's 95% interval, computed whatever the number of matches,
    /// holds a bot's true rating, over `runs` simulated runs of `n` matches each.
    fn coverage(truth: &[f64], n: usize, runs: u64, play: &Play) -> f64 {
        let mean = truth.iter().sum::<f64>() / truth.len() as f64;
        let order: Vec<usize> = (0..truth.len()).collect();
        let (mut hit, mut all) = (0, 0);
        for run in 0..runs {
            let mut rng = ChaCha8Rng::seed_from_u64(run * 1000 + n as u64);
            let matches: Vec<_> = (0..n).map(|g| play(truth, g, &mut rng)).collect();
            for (i, (_, low, high, _)) in before(truth.len(), &matches, &order, run)
                .into_iter()
                .enumerate()
            {
                let t = 1500.0 + truth[i] - mean;
                hit += usize::from(low <= t && t <= high);
                all += 1;
            }
        }
        hit as f64 / all as f64
    }

    #[test]
    fn the_minimum_is_where_the_interval_starts_to_hold_the_truth() {
        // Simulated runs with known strengths, the interval computed as it always was: over 1
        // match it never holds the truth (zero width), over 2 about half the time, over 3
        // less often than over MIN_MATCHES, from which on it does in most runs (still short
        // of the 95% it claims: a percentile bootstrap over few matches is too narrow).
        // `--nocapture` prints the table the documentation quotes.
        let duel = |t: &[f64], g: usize, rng: &mut ChaCha8Rng| {
            let (a, b) = if g.is_multiple_of(2) { (0, 1) } else { (1, 0) };
            let won = rng.random_bool(1.0 / (1.0 + 10f64.powf((t[b] - t[a]) / 400.0)));
            MatchSummary {
                participants: vec![a, b],
                scores: vec![u64::from(won), u64::from(!won)],
                winners: vec![if won { 0 } else { 1 }],
                ..MatchSummary::default()
            }
        };
        let ffa = |t: &[f64], _: usize, rng: &mut ChaCha8Rng| free_for_all(t, rng);
        let cases: [(&str, &[f64], &Play); 3] = [
            ("2 equal bots, games", &[0.0, 0.0], &duel),
            ("2 bots 100 apart, games", &[50.0, -50.0], &duel),
            (
                "4 bots 100 apart, free-for-alls",
                &[150.0, 50.0, -50.0, -150.0],
                &ffa,
            ),
        ];
        for (name, truth, play) in cases {
            let row: Vec<(usize, f64)> = [1, 2, 3, MIN_MATCHES, 10]
                .into_iter()
                .map(|n| (n, coverage(truth, n, 100, play)))
                .collect();
            eprintln!("{name}: {row:.2?}");
            let at = |n: usize| row.iter().find(|r| r.0 == n).map_or(f64::NAN, |r| r.1);
            assert_eq!(at(1), 0.0, "{name}");
            assert!(at(2) < 0.6 && at(3) < at(MIN_MATCHES), "{name}: {row:?}");
            assert!(at(MIN_MATCHES) >= 0.75, "{name}: {row:?}");
        }
    }

    #[test]
    fn the_sparse_solver_finds_the_dense_fit() {
        // A sampled ladder's shape: 150 bots, each meeting a few neighbours, uneven results.
        let n = 150;
        let mut summaries = Vec::new();
        for round in 0..4usize {
            for a in 0..n {
                for d in 1..=3 {
                    let b = (a + d * (round + 1)) % n;
                    let a_wins = (a * 7 + b * 3 + round) % 5 < 2 + usize::from(a < b);
                    summaries.push(duel(a, b, a_wins));
                }
            }
        }
        let per_match: Vec<Vec<Comparison>> = summaries.iter().map(comparisons).collect();
        let all: Vec<usize> = (0..summaries.len()).collect();
        for prior in [1.0, 0.0] {
            let dense = fit_with(n, &per_match, &all, prior, true);
            let sparse = fit_with(n, &per_match, &all, prior, false);
            for (d, s) in dense.iter().zip(&sparse) {
                assert!((d - s).abs() < 1e-9, "prior {prior}: dense {d}, sparse {s}");
            }
        }
    }
}
