//! One Bank Heist tournament (pure): one tournament of G games between the bots and the host-side
//! rabble, as `docs/games/bank-heist.md` states them and settles what the seed leaves open.
//!
//! No I/O and no sandbox types. The driver asks [`Tournament::pending`] which bot must decide
//! next and with what [`Args`]; rabble decisions, dice and bookkeeping happen inside. The
//! driver hands the bot's decision (or the default, on any failure) to
//! [`Tournament::respond`]. Everything random comes from one generator owned by the
//! tournament, so a tournament replays exactly from its seed and the bots' answers.
//!
//! A tournament follows one [`Variant`]: the text (the default) or the original controller's
//! arithmetic, whose resolution lives in [`original`](self::original). What follows is the
//! text's.
//!
//! Decisions taken here where the spec is silent, each for a stated reason:
//!
//! - **Order of a heist's resolution**: dice; stakes lost; winnings computed (with
//!   `withdraw`); fingers, in round-2 order; the double cross; what is left of each
//!   player's winnings then goes to its credits, its account (`deposit`) or its odds
//!   (`acquire intel`). Fingers come before the double cross because an identified double
//!   crosser "no longer affects whether the double cross succeeds for the others".
//! - **All in goes alone**: an all-in player is outside the double cross: not counted among
//!   the non-double-crossers, never robbed, and not sharing a discovered conspiracy's loot.
//!   Its stake is its credits plus a 240-credit payday loan; whatever happens it receives no
//!   paycheck that game (the paycheck repays the loan).
//! - **Bribes**: each guard costs 1 credit per game. It comes out of the paycheck (so the
//!   paycheck argument is the wage minus the guards); a game without a paycheck (unemployed,
//!   backed out, all in) takes the bribes from credits. Bribes that cannot be paid cost that
//!   many guards, newest first, each taking back exactly the bonus it gave.
//! - **A guard's bonus** applies from the next heist on (it is bought during this one).
//! - **A failed finger** loses half its winnings (after any withdraw, before the double
//!   cross); half of that loss goes to the unidentified double crossers if the double cross
//!   succeeds, else to the non-double-crossers; the rest is gone.
//! - **Identified double crossers** keep their own winnings but get no share of the loot;
//!   their share of the loot goes back to the non-double-crossers.
//! - **Jobs**: a new job pays 5% more than the last wage (rounded down); being fired halves
//!   the wage first. Hiring dice are rolled at the end of every game for every unemployed
//!   player, including one who quit or was fired in that game.
//! - **Who is paid**: only a game's players (bots and that game's rabble) draw paychecks,
//!   owe bribes and roll for a job; rabble sitting a game out are not paid for it. Interest
//!   is paid on every account every game.
//! - **Rounding**: every division rounds down; the credits lost to rounding leave the game
//!   (the ledger counts them, so every credit stays accounted for).

use rand::seq::{IteratorRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::{Answer, Bank, Variant};

mod original;

/// Credits every player starts a tournament with, and the starting wage.
pub const START_CREDITS: u64 = 240;
/// Host-side rabble players in the pool.
pub const RABBLE: usize = 500;
/// The range G is drawn from when the host does not fix it.
pub const GAMES: std::ops::RangeInclusive<u32> = 1000..=1100;
/// The payday loan an all-in player adds to its stake.
pub const PAYDAY_LOAN: u64 = 240;
/// Draws a finger makes to identify double crossers.
pub const FINGER_DRAWS: usize = 8;

/// The index of the bank robbed for this many heisters and credits bet: the highest
/// threshold reached by heisters + ⌊total bet / 100000⌋.
fn bank_for(heisters: u64, total_bet: u64) -> usize {
    Bank::for_heist(heisters, total_bet).index()
}

/// The controller's mean and mean absolute deviation of the bots' credits: the mean
/// truncated, the deviation taken from it and truncated (integers held in floats).
fn integer_stats(credits: &[u64]) -> (f64, f64) {
    let n = credits.len().max(1) as u128;
    let mean = credits.iter().map(|&c| c as u128).sum::<u128>() / n;
    let mad = credits
        .iter()
        .map(|&c| (c as u128).abs_diff(mean))
        .sum::<u128>()
        / n;
    (mean as f64, mad as f64)
}

/// A guard bought at a bank, with the exact bonus it added (taken back if its bribe goes
/// unpaid).
#[derive(Debug, Clone, PartialEq)]
struct Guard {
    bank: usize,
    bonus: f64,
}

/// One player's state, bot or rabble.
#[derive(Debug, Clone, PartialEq)]
pub struct Person {
    /// Spendable credits (the score, for bots).
    pub credits: u64,
    /// Wage of the current (or last) job, before bribes.
    pub wage: u64,
    /// Whether it has a job.
    pub employed: bool,
    /// Balance of its account at each bank.
    pub balance: [u64; 5],
    /// Its victory probability at each bank.
    pub probability: [f64; 5],
    /// Its odds at each bank.
    pub odds: [f64; 5],
    guards: Vec<Guard>,
}

impl Default for Person {
    fn default() -> Self {
        Person {
            credits: START_CREDITS,
            wage: START_CREDITS,
            employed: true,
            balance: [0; 5],
            probability: Bank::ALL.map(Bank::base_probability),
            odds: Bank::ALL.map(Bank::base_odds),
            guards: Vec::new(),
        }
    }
}

impl Person {
    /// The paycheck it receives at the end of a game while employed: the wage less its bribes.
    pub fn paycheck(&self) -> u64 {
        self.wage.saturating_sub(self.guards.len() as u64)
    }

    /// Guards it currently pays.
    pub fn guards(&self) -> usize {
        self.guards.len()
    }
}

/// Who a seat in a game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    /// A bot, by index.
    Bot(usize),
    /// A rabble player, by index in the pool.
    Rabble(usize),
}

/// The round being played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Round {
    /// Bets.
    One,
    /// Answers of the heisters.
    Two,
}

impl Round {
    /// 1 or 2, as the protocol numbers it.
    pub fn number(self) -> u8 {
        match self {
            Round::One => 1,
            Round::Two => 2,
        }
    }
}

/// The 31 arguments a bot gets (after its name), as values; the driver formats them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Args {
    /// 1. Game number, from 0.
    pub game: u32,
    /// 2. Round.
    pub round: Round,
    /// 3. Players in this game, rabble included.
    pub players: u64,
    /// 4. Players who already decided this round.
    pub decided: u64,
    /// 5. Heisters so far (round 2: all round-1 heisters).
    pub heisters: u64,
    /// 6. Credits bet so far (round 2: the round-1 total).
    pub total_bet: u64,
    /// 7. Heisters who confirmed in round 2 so far (0 in round 1).
    pub confirmed: u64,
    /// 8. Index of the bank that would be robbed.
    pub bank: usize,
    /// 9. Its credits.
    pub credits: u64,
    /// 10. Its round-1 bet (0 in round 1).
    pub bet: u64,
    /// 11. Its paycheck.
    pub paycheck: u64,
    /// 12. Whether it is employed.
    pub employed: bool,
    /// 13. Its rank among bots after the previous game.
    pub rank: u64,
    /// 14. Mean credits of the bots.
    pub mean: f64,
    /// 15. Mean absolute deviation of the bots' credits.
    pub mad: f64,
    /// 16. The most credits any bot holds.
    pub max: u64,
    /// 17–21. Its balances at banks 0–4.
    pub balance: [u64; 5],
    /// 22–26. Its victory probabilities at banks 0–4.
    pub probability: [f64; 5],
    /// 27–31. Its odds at banks 0–4.
    pub odds: [f64; 5],
    /// The rules it is given under (`Original` prints arguments 14 and 15 as integers).
    pub variant: Variant,
}

impl Args {
    /// The 31 arguments after the bot's name, exactly as the spec lists them: integers, and
    /// decimals (arguments 14, 15 and 22–31) as [`decimal`] writes them; under
    /// [`Variant::Original`] arguments 14 and 15 are integers too, as its controller gave them.
    pub fn to_argv(&self) -> Vec<String> {
        let stat = |x: f64| match self.variant {
            Variant::Text => decimal(x),
            // Already truncated by the rules: an integer held in a float.
            Variant::Original => format!("{x:.0}"),
        };
        let mut v = vec![
            self.game.to_string(),
            self.round.number().to_string(),
            self.players.to_string(),
            self.decided.to_string(),
            self.heisters.to_string(),
            self.total_bet.to_string(),
            self.confirmed.to_string(),
            self.bank.to_string(),
            self.credits.to_string(),
            self.bet.to_string(),
            self.paycheck.to_string(),
            u8::from(self.employed).to_string(),
            self.rank.to_string(),
            stat(self.mean),
            stat(self.mad),
            self.max.to_string(),
        ];
        v.extend(self.balance.iter().map(u64::to_string));
        v.extend(self.probability.iter().map(|&p| decimal(p)));
        v.extend(self.odds.iter().map(|&o| decimal(o)));
        v
    }
}

/// A decimal as the spec settles it: plain, at most 6 digits after the point, no exponent,
/// trailing zeros dropped but one digit kept after the point (`0.54`, `1.95`, `240.0`).
pub fn decimal(x: f64) -> String {
    if !x.is_finite() {
        // Not reachable from the rules; a bot must never see `NaN` or `inf`.
        return "0.0".into();
    }
    let mut s = format!("{x:.6}");
    while s.ends_with('0') && !s.ends_with(".0") {
        s.pop();
    }
    if s == "-0.0" {
        s = "0.0".into();
    }
    s
}

/// A decision the tournament is waiting for.
#[derive(Debug, Clone, PartialEq)]
pub struct Ask {
    /// The bot that must decide.
    pub bot: usize,
    /// What it is told.
    pub args: Args,
}

/// A bot's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Response {
    /// Round 1: the bet (above its credits counts as all its credits).
    Bet(u64),
    /// Round 2: the answer.
    Answer(Answer),
}

/// What happened, for the human log and the structured results. Bots are named by index;
/// rabble never appear by name.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A game starts with this many players, rabble included.
    GameStart {
        /// Game number.
        game: u32,
        /// Players, rabble included.
        players: u64,
    },
    /// A bot's bet.
    Bet {
        /// The bot.
        bot: usize,
        /// Its bet.
        amount: u64,
    },
    /// Round 2 starts (at least one heister).
    RoundTwo {
        /// The bank robbed.
        bank: usize,
    },
    /// A bot's round-2 answer.
    Decided {
        /// The bot.
        bot: usize,
        /// Its answer.
        answer: Answer,
    },
    /// The heist is resolved.
    Results,
    /// A bot's heist: failed, or won this much before anyone else's actions.
    Heist {
        /// The bot.
        bot: usize,
        /// `None` if it failed, else its winnings.
        gain: Option<u64>,
    },
    /// The game ends: every bot's credits.
    Standings {
        /// Credits, by bot.
        credits: Vec<u64>,
    },
}

/// Where a game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// About to start game `game` (or the tournament is over).
    Start,
    /// Asking `order[pos]` of round 1 or 2.
    Round(Round),
    /// Over.
    Over,
}

/// One game in progress.
#[derive(Debug, Clone, Default)]
struct Current {
    /// Seats: bots and this game's rabble.
    seats: Vec<Who>,
    /// Seat indices in the order they are asked this round.
    order: Vec<usize>,
    /// Every seat in round-1 order, once round 2 has begun (the original rules resolve and
    /// pay in it).
    round_one: Vec<usize>,
    /// Next position in `order`.
    pos: usize,
    /// Round-1 bet per seat.
    bets: Vec<u64>,
    /// Round-2 answer per seat (heisters only).
    answers: Vec<Option<Answer>>,
    heisters: u64,
    total_bet: u64,
    backed_out: u64,
    confirmed: u64,
    bank: usize,
    /// Rank, mean, MAD and max of the bots at the start of the game.
    rank: Vec<u64>,
    mean: f64,
    mad: f64,
    max: u64,
}

/// Credits that entered or left the game, so every credit is accounted for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Ledger {
    /// Paychecks, heist winnings and interest paid in.
    pub paid_in: u128,
    /// Stakes lost, bribes, intel bought, rounding and penalties paid out.
    pub paid_out: u128,
}

/// One Bank Heist tournament: G games, every bot in every game, state carried over.
#[derive(Debug, Clone)]
pub struct Tournament {
    bots: Vec<Person>,
    rabble: Vec<Person>,
    games: u32,
    game: u32,
    stage: Stage,
    cur: Current,
    rng: ChaCha8Rng,
    events: Vec<Event>,
    ledger: Ledger,
    variant: Variant,
}

impl Tournament {
    /// A tournament of `games` games between `bots` bots, with everything random drawn from
    /// `seed`.
    pub fn new(bots: usize, games: u32, seed: u64) -> Tournament {
        Tournament::with_rabble(bots, games, seed, RABBLE)
    }

    /// The same with a rabble pool of `rabble` players instead of 500 (0 for games between
    /// bots alone, as in hand-built tests).
    pub fn with_rabble(bots: usize, games: u32, seed: u64, rabble: usize) -> Tournament {
        Tournament {
            bots: vec![Person::default(); bots],
            rabble: vec![Person::default(); rabble],
            games,
            game: 0,
            stage: Stage::Start,
            cur: Current::default(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            events: Vec::new(),
            ledger: Ledger::default(),
            variant: Variant::Text,
        }
    }

    /// The same tournament under `variant`'s rules (the text's unless this is called). Call
    /// it before the first [`Tournament::pending`].
    pub fn with_variant(mut self, variant: Variant) -> Tournament {
        self.variant = variant;
        self
    }

    /// The rules it follows.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// G for a tournament seeded with `seed`, drawn uniformly from 1000..=1100.
    pub fn draw_games(seed: u64) -> u32 {
        ChaCha8Rng::seed_from_u64(seed).random_range(GAMES)
    }

    /// Games in the tournament.
    pub fn games(&self) -> u32 {
        self.games
    }

    /// The game being played (equal to [`Tournament::games`] once over).
    pub fn game(&self) -> u32 {
        self.game
    }

    /// Whether every game has been played.
    pub fn is_over(&self) -> bool {
        self.stage == Stage::Over
    }

    /// The bots' states.
    pub fn bots(&self) -> &[Person] {
        &self.bots
    }

    /// The rabble's states.
    pub fn rabble(&self) -> &[Person] {
        &self.rabble
    }

    /// A bot's state, to build situations by hand (tests, what-if tools).
    pub fn bot_mut(&mut self, bot: usize) -> &mut Person {
        &mut self.bots[bot]
    }

    /// Each bot's credits (its score).
    pub fn credits(&self) -> Vec<u64> {
        self.bots.iter().map(|p| p.credits).collect()
    }

    /// Credits paid in and out so far.
    pub fn ledger(&self) -> Ledger {
        self.ledger
    }

    /// Events since the last call.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// The next decision a bot must take, playing every rabble decision and resolving every
    /// heist up to it; `None` when the tournament is over.
    pub fn pending(&mut self) -> Option<Ask> {
        loop {
            match self.stage {
                Stage::Over => return None,
                Stage::Start => self.start_game(),
                Stage::Round(round) => {
                    let Some(&seat) = self.cur.order.get(self.cur.pos) else {
                        self.end_round(round);
                        continue;
                    };
                    match self.cur.seats[seat] {
                        Who::Bot(bot) => {
                            return Some(Ask {
                                bot,
                                args: self.args(seat, bot, round),
                            })
                        }
                        Who::Rabble(r) => {
                            let response = self.rabble_decision(r, round);
                            self.apply(seat, response);
                        }
                    }
                }
            }
        }
    }

    /// The decision of the bot [`Tournament::pending`] returned. A response of the wrong
    /// kind for the round counts as the default (bet 0, keep the bet).
    pub fn respond(&mut self, response: Response) {
        let Stage::Round(round) = self.stage else {
            return;
        };
        let Some(&seat) = self.cur.order.get(self.cur.pos) else {
            return;
        };
        let response = match (round, response) {
            (Round::One, Response::Bet(_)) | (Round::Two, Response::Answer(_)) => response,
            (Round::One, _) => Response::Bet(0),
            (Round::Two, _) => Response::Answer(Answer::Keep),
        };
        self.apply(seat, response);
    }

    fn start_game(&mut self) {
        if self.game >= self.games {
            self.stage = Stage::Over;
            return;
        }
        // The controller's way: a count uniform in 0..=500, then that many distinct rabble.
        let pool = self.rabble.len();
        let count = self.rng.random_range(0..=pool);
        let mut chosen = (0..pool).choose_multiple(&mut self.rng, count);
        chosen.sort_unstable();
        let mut seats: Vec<Who> = (0..self.bots.len()).map(Who::Bot).collect();
        seats.extend(chosen.into_iter().map(Who::Rabble));
        let mut order: Vec<usize> = (0..seats.len()).collect();
        order.shuffle(&mut self.rng);
        let credits: Vec<u64> = self.credits();
        let (mean, mad) = match self.variant {
            Variant::Text => {
                let n = credits.len().max(1) as f64;
                let mean = credits.iter().map(|&c| c as f64).sum::<f64>() / n;
                let mad = credits
                    .iter()
                    .map(|&c| (c as f64 - mean).abs())
                    .sum::<f64>()
                    / n;
                (mean, mad)
            }
            Variant::Original => integer_stats(&credits),
        };
        let rank = credits
            .iter()
            .map(|&c| 1 + credits.iter().filter(|&&o| o > c).count() as u64)
            .collect();
        self.events.push(Event::GameStart {
            game: self.game,
            players: seats.len() as u64,
        });
        self.cur = Current {
            bets: vec![0; seats.len()],
            answers: vec![None; seats.len()],
            seats,
            order,
            rank,
            mean,
            mad,
            max: credits.iter().copied().max().unwrap_or(0),
            ..Current::default()
        };
        self.stage = Stage::Round(Round::One);
    }

    fn person(&self, who: Who) -> &Person {
        match who {
            Who::Bot(i) => &self.bots[i],
            Who::Rabble(i) => &self.rabble[i],
        }
    }

    fn person_mut(&mut self, who: Who) -> &mut Person {
        match who {
            Who::Bot(i) => &mut self.bots[i],
            Who::Rabble(i) => &mut self.rabble[i],
        }
    }

    fn args(&self, seat: usize, bot: usize, round: Round) -> Args {
        let me = &self.bots[bot];
        let c = &self.cur;
        let (bank, bet) = match round {
            Round::One => (bank_for(c.heisters, c.total_bet), 0),
            Round::Two => (c.bank, c.bets[seat]),
        };
        let original = self.variant == Variant::Original;
        Args {
            game: self.game,
            round,
            // The controller passed the round-1 heisters in round 2.
            players: if original && round == Round::Two {
                c.heisters
            } else {
                c.seats.len() as u64
            },
            decided: c.pos as u64,
            heisters: c.heisters,
            total_bet: c.total_bet,
            confirmed: c.confirmed,
            bank,
            credits: me.credits,
            bet,
            // The controller's paycheck is the wage; its bribes are paid apart.
            paycheck: if original { me.wage } else { me.paycheck() },
            employed: me.employed,
            rank: c.rank.get(bot).copied().unwrap_or(1),
            mean: c.mean,
            mad: c.mad,
            max: c.max,
            balance: me.balance,
            probability: me.probability,
            odds: me.odds,
            variant: self.variant,
        }
    }

    /// The rabble's strategy from the seed (its sizes and chances as [`Variant`] has them).
    fn rabble_decision(&mut self, r: usize, round: Round) -> Response {
        let v = self.variant;
        match round {
            Round::One => {
                let p = Bank::for_heist(self.cur.heisters, self.cur.total_bet).base_probability();
                let bets = match v {
                    Variant::Text => self.rng.random_bool(p),
                    // The controller's `random.random() > p` stays out.
                    Variant::Original => self.rng.random::<f64>() <= p,
                };
                Response::Bet(if bets {
                    v.rabble_bet(self.rabble[r].credits)
                } else {
                    0
                })
            }
            Round::Two => {
                let chance = v.rabble_back_out_chance(self.cur.pos as u64, self.cur.backed_out);
                let backs_out = match v {
                    Variant::Text => self.rng.random_bool(chance),
                    // No draw for the first heister, who never backs out.
                    Variant::Original => chance > 0.0 && self.rng.random::<f64>() < chance,
                };
                Response::Answer(if backs_out {
                    Answer::BackOut
                } else {
                    Answer::Keep
                })
            }
        }
    }

    fn apply(&mut self, seat: usize, response: Response) {
        let who = self.cur.seats[seat];
        match response {
            Response::Bet(amount) => {
                let amount = amount.min(self.person(who).credits);
                self.cur.bets[seat] = amount;
                if amount > 0 {
                    self.cur.heisters += 1;
                    self.cur.total_bet += amount;
                }
                if let Who::Bot(bot) = who {
                    self.events.push(Event::Bet { bot, amount });
                }
            }
            Response::Answer(answer) => {
                self.cur.answers[seat] = Some(answer);
                if answer == Answer::BackOut {
                    self.cur.backed_out += 1;
                } else {
                    self.cur.confirmed += 1;
                }
                if let Who::Bot(bot) = who {
                    self.events.push(Event::Decided { bot, answer });
                }
            }
        }
        self.cur.pos += 1;
    }

    fn end_round(&mut self, round: Round) {
        match round {
            Round::One => {
                self.cur.bank = bank_for(self.cur.heisters, self.cur.total_bet);
                let mut heisters: Vec<usize> = (0..self.cur.seats.len())
                    .filter(|&s| self.cur.bets[s] > 0)
                    .collect();
                if heisters.is_empty() {
                    self.cur.round_one = std::mem::take(&mut self.cur.order);
                    self.finish_game(&[]);
                    return;
                }
                // Round 2 asks the heisters in a fresh random order.
                heisters.shuffle(&mut self.rng);
                self.events.push(Event::RoundTwo {
                    bank: self.cur.bank,
                });
                self.cur.round_one = std::mem::replace(&mut self.cur.order, heisters);
                self.cur.pos = 0;
                self.stage = Stage::Round(Round::Two);
            }
            Round::Two => {
                let order = std::mem::take(&mut self.cur.order);
                self.finish_game(&order);
            }
        }
    }

    fn pay_in(&mut self, who: Who, amount: u64) {
        self.person_mut(who).credits += amount;
        self.ledger.paid_in += amount as u128;
    }

    fn pay_out(&mut self, who: Who, amount: u64) {
        let p = self.person_mut(who);
        debug_assert!(amount <= p.credits, "paying out more than held");
        let amount = amount.min(p.credits);
        p.credits -= amount;
        self.ledger.paid_out += amount as u128;
    }

    /// Move credits between players (no ledger entry: they stay in the game).
    fn transfer(&mut self, from: Who, to: Who, amount: u64) {
        let p = self.person_mut(from);
        let amount = amount.min(p.credits);
        p.credits -= amount;
        self.person_mut(to).credits += amount;
    }

    /// Share `pot` (credits already counted in the game) equally among `among`, rounded
    /// down; the remainder leaves the game.
    fn share(&mut self, pot: u64, among: &[Who]) {
        if among.is_empty() {
            self.ledger.paid_out += pot as u128;
            return;
        }
        let each = pot / among.len() as u64;
        for &w in among {
            self.person_mut(w).credits += each;
        }
        self.ledger.paid_out += (pot - each * among.len() as u64) as u128;
    }

    /// Resolve the heist of the seats in `heisters` (round-2 order), then pay everyone.
    fn finish_game(&mut self, heisters: &[usize]) {
        if self.variant == Variant::Original {
            let round_one = std::mem::take(&mut self.cur.round_one);
            self.finish_original(&round_one, heisters);
            self.close_game();
            return;
        }
        let bank = self.cur.bank;
        let seats = self.cur.seats.clone();
        let answer = |s: usize| self.cur.answers[s].unwrap_or(Answer::Keep);
        let answers: Vec<Answer> = (0..seats.len()).map(answer).collect();
        let in_heist: Vec<usize> = heisters
            .iter()
            .copied()
            .filter(|&s| answers[s] != Answer::BackOut)
            .collect();
        let total = heisters.len() as f64;
        let stayed = if total > 0.0 {
            in_heist.len() as f64 / total
        } else {
            1.0
        };
        if !heisters.is_empty() {
            self.events.push(Event::Results);
        }

        // Dice, stakes, winnings (money "on the table" until the double cross settles).
        let mut success = vec![false; seats.len()];
        let mut winnings = vec![0u64; seats.len()];
        for &s in &in_heist {
            let who = seats[s];
            let all_in = answers[s] == Answer::AllIn;
            let p = self.person(who);
            let probability = if all_in {
                p.probability[bank]
            } else {
                p.probability[bank] * stayed
            };
            let odds = p.odds[bank];
            let stake = if all_in {
                p.credits + PAYDAY_LOAN
            } else {
                self.cur.bets[s]
            };
            let won = self.rng.random_bool(probability.clamp(0.0, 1.0));
            success[s] = won;
            if won {
                let gain = (stake as f64 * odds).floor() as u64;
                if all_in {
                    // The loan is part of the stake and comes back with it; the paycheck
                    // that would repay it is withheld below.
                    self.pay_in(who, PAYDAY_LOAN + gain);
                } else {
                    winnings[s] = gain;
                    self.ledger.paid_in += gain as u128;
                }
                if let Who::Bot(bot) = who {
                    self.events.push(Event::Heist {
                        bot,
                        gain: Some(gain),
                    });
                }
            } else {
                let lose = if all_in {
                    self.person(who).credits
                } else {
                    stake
                };
                self.pay_out(who, lose);
                if let Who::Bot(bot) = who {
                    self.events.push(Event::Heist { bot, gain: None });
                }
            }
        }
        // Withdraw: the account joins the winnings (and can be stolen).
        for &s in &in_heist {
            if success[s] && answers[s] == Answer::Withdraw {
                let p = self.person_mut(seats[s]);
                winnings[s] += std::mem::take(&mut p.balance[bank]);
            }
        }

        let double_crossers: Vec<usize> = in_heist
            .iter()
            .copied()
            .filter(|&s| answers[s] == Answer::DoubleCross)
            .collect();
        // Non-double-crossers that stayed in, rabble included; all-in players go alone.
        let honest: Vec<usize> = in_heist
            .iter()
            .copied()
            .filter(|&s| !matches!(answers[s], Answer::DoubleCross | Answer::AllIn))
            .collect();
        let mut identified = vec![false; seats.len()];
        let mut failed_finger_loss = 0u64;
        let mut failed_fingers = Vec::new();
        for &s in &in_heist {
            if !(success[s] && answers[s] == Answer::Finger) {
                continue;
            }
            let mut found = false;
            for _ in 0..FINGER_DRAWS {
                let drawn = in_heist[self.rng.random_range(0..in_heist.len())];
                if answers[drawn] == Answer::DoubleCross && !identified[drawn] {
                    identified[drawn] = true;
                    found = true;
                    let culprit = seats[drawn];
                    let fine = self.person(culprit).credits / 4;
                    self.transfer(culprit, seats[s], fine);
                    let c = self.person_mut(culprit);
                    c.employed = false;
                    c.wage /= 2;
                    c.probability[bank] *= 0.95;
                }
            }
            if !found {
                failed_fingers.push(seats[s]);
                let lost = winnings[s] / 2;
                winnings[s] -= lost;
                failed_finger_loss += lost / 2;
                self.ledger.paid_out += (lost - lost / 2) as u128;
                let f = self.person_mut(seats[s]);
                f.wage = f.wage * 95 / 100;
                f.odds[bank] *= 0.95;
            }
        }

        let unidentified: Vec<usize> = double_crossers
            .iter()
            .copied()
            .filter(|&s| !identified[s])
            .collect();
        let n = honest.len() as u64;
        let threshold = if n < 10 { 1 } else { n / 10 };
        let honest_who: Vec<Who> = honest.iter().map(|&s| seats[s]).collect();
        // A failed finger pays the others; it gets none of its own loss back.
        let compensated: Vec<Who> = honest_who
            .iter()
            .copied()
            .filter(|w| !failed_fingers.contains(w))
            .collect();
        if !unidentified.is_empty() {
            if unidentified.len() as u64 <= threshold {
                // The double cross works: the honest heisters' winnings are the loot, shared
                // by every double crosser; identified ones' shares go back to the honest.
                let loot: u64 = honest
                    .iter()
                    .map(|&s| std::mem::take(&mut winnings[s]))
                    .sum();
                let each = loot / double_crossers.len() as u64;
                for &s in &unidentified {
                    winnings[s] += each;
                }
                let back = loot - each * unidentified.len() as u64;
                self.share(back, &honest_who);
                let to: Vec<Who> = unidentified.iter().map(|&s| seats[s]).collect();
                self.share(failed_finger_loss, &to);
            } else {
                // Discovered: the conspirators lose their winnings to the honest, half their
                // wage and their jobs.
                let loot: u64 = unidentified
                    .iter()
                    .map(|&s| std::mem::take(&mut winnings[s]))
                    .sum();
                self.share(loot, &honest_who);
                self.share(failed_finger_loss, &compensated);
                for &s in &unidentified {
                    let c = self.person_mut(seats[s]);
                    c.employed = false;
                    c.wage /= 2;
                }
            }
        } else {
            self.share(failed_finger_loss, &compensated);
        }

        // What is left of each one's winnings, and the answers' lasting effects.
        for &s in heisters {
            let who = seats[s];
            let w = winnings[s];
            match answers[s] {
                Answer::AcquireIntel => {
                    self.person_mut(who).odds[bank] += 0.00001 * w as f64;
                    self.ledger.paid_out += w as u128;
                }
                Answer::Deposit => self.person_mut(who).balance[bank] += w,
                _ => self.person_mut(who).credits += w,
            }
            match answers[s] {
                Answer::ChangeJobs => self.person_mut(who).employed = false,
                Answer::BuyGuard => {
                    let p = self.person_mut(who);
                    let bonus = 0.01 * (1.0 - p.probability[bank]);
                    p.probability[bank] += bonus;
                    p.guards.push(Guard { bank, bonus });
                }
                _ => {}
            }
        }

        // Hiring, paychecks and bribes for this game's players; interest on every account.
        for (s, &who) in seats.iter().enumerate() {
            if !self.person(who).employed && self.rng.random_bool(0.05) {
                let p = self.person_mut(who);
                p.wage = p.wage * 105 / 100;
                p.employed = true;
            }
            let paid =
                self.person(who).employed && !matches!(answers[s], Answer::BackOut | Answer::AllIn);
            self.payday(who, paid);
        }
        for who in (0..self.bots.len())
            .map(Who::Bot)
            .chain((0..self.rabble.len()).map(Who::Rabble))
        {
            let p = self.person_mut(who);
            let mut interest = 0;
            for b in p.balance.iter_mut() {
                let i = *b * 14 / 10_000;
                *b += i;
                interest += i;
            }
            self.ledger.paid_in += interest as u128;
        }
        self.close_game();
    }

    /// The game's standings, and on to the next.
    fn close_game(&mut self) {
        self.events.push(Event::Standings {
            credits: self.credits(),
        });
        self.game += 1;
        self.stage = Stage::Start;
    }

    /// Pay the wage (if `paid`) and collect the bribes; unpaid bribes cost guards.
    fn payday(&mut self, who: Who, paid: bool) {
        let p = self.person(who);
        let mut owed = p.guards.len() as u64;
        if paid {
            let covered = owed.min(p.wage);
            owed -= covered;
            // The bribes covered by the wage never reach the player: only the rest is paid.
            let net = p.wage - covered;
            self.pay_in(who, net);
        }
        let from_credits = owed.min(self.person(who).credits);
        self.pay_out(who, from_credits);
        let unpaid = owed - from_credits;
        let p = self.person_mut(who);
        for _ in 0..unpaid {
            if let Some(g) = p.guards.pop() {
                p.probability[g.bank] -= g.bonus;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays the current game to its end with `decide` answering for the bots.
    pub(super) fn play_game(t: &mut Tournament, mut decide: impl FnMut(&Ask) -> Response) {
        let game = t.game();
        while t.game() == game {
            let Some(ask) = t.pending() else { return };
            if t.game() != game {
                // `pending` started the next game: this one is done.
                return;
            }
            let r = decide(&ask);
            t.respond(r);
        }
    }

    /// Bots alone (no rabble), one game per call to `play_game`.
    fn bots_only(bots: usize, seed: u64) -> Tournament {
        Tournament::with_rabble(bots, 100, seed, 0)
    }

    /// Bet `bets[bot]` in round 1 and answer `answers[bot]` in round 2.
    pub(super) fn scripted(bets: Vec<u64>, answers: Vec<Answer>) -> impl FnMut(&Ask) -> Response {
        move |ask| match ask.args.round {
            Round::One => Response::Bet(bets[ask.bot]),
            Round::Two => Response::Answer(answers[ask.bot]),
        }
    }

    /// Sure win (p = 1) or sure loss (p = 0) at every bank.
    pub(super) fn fix_dice(t: &mut Tournament, bot: usize, win: bool) {
        t.bot_mut(bot).probability = [if win { 1.0 } else { 0.0 }; 5];
    }

    fn total_credits(t: &Tournament) -> u128 {
        t.bots()
            .iter()
            .chain(t.rabble())
            .map(|p| p.credits as u128 + p.balance.iter().map(|&b| b as u128).sum::<u128>())
            .sum()
    }

    /// Credits held (and in accounts) less what the ledger says entered the game: constant
    /// through a tournament, whatever happens.
    fn unaccounted(t: &Tournament) -> i128 {
        let l = t.ledger();
        total_credits(t) as i128 + l.paid_out as i128 - l.paid_in as i128
    }

    fn assert_accounted(t: &Tournament) {
        let start = START_CREDITS as i128 * (t.bots().len() + t.rabble().len()) as i128;
        assert_eq!(unaccounted(t), start, "credits not accounted for");
    }

    #[test]
    fn decimals_are_plain_with_at_most_six_digits() {
        assert_eq!(decimal(0.54), "0.54");
        assert_eq!(decimal(1.95), "1.95");
        assert_eq!(decimal(1234.5), "1234.5");
        assert_eq!(decimal(240.0), "240.0");
        assert_eq!(decimal(0.0), "0.0");
        assert_eq!(decimal(1.0 / 3.0), "0.333333");
        assert_eq!(decimal(0.324 * 0.95), "0.3078");
        assert_eq!(decimal(1e-9), "0.0");
        assert_eq!(decimal(12_345_678_901.25), "12345678901.25");
        assert_eq!(decimal(f64::NAN), "0.0");
    }

    #[test]
    fn the_arguments_are_the_spec_s_31_in_order() {
        let mut t = Tournament::with_rabble(2, 5, 1, 0);
        let ask = t.pending().unwrap();
        let v = ask.args.to_argv();
        assert_eq!(v.len(), 31);
        assert_eq!(
            v,
            [
                "0", "1", "2", "0", "0", "0", "0", "0", "240", "0", "240", "1", "1", "240.0",
                "0.0", "240", "0", "0", "0", "0", "0", "0.54", "0.488", "0.425", "0.387", "0.324",
                "0.8", "1.1", "1.3", "1.65", "1.95"
            ]
        );
    }

    #[test]
    fn a_bot_that_never_bets_ends_with_240_times_g_plus_1() {
        for seed in [1, 2] {
            let games = Tournament::draw_games(seed);
            assert!(GAMES.contains(&games));
            let mut t = Tournament::new(1, games, seed);
            while t.pending().is_some() {
                t.respond(Response::Bet(0));
            }
            assert_eq!(t.credits(), vec![240 * (games as u64 + 1)]);
            assert_accounted(&t);
        }
    }

    #[test]
    fn the_arguments_describe_the_round() {
        let mut t = Tournament::with_rabble(3, 10, 4, 0);
        t.bot_mut(2).credits = 1000;
        let mut seen = Vec::new();
        play_game(&mut t, |ask| {
            seen.push(ask.clone());
            match ask.args.round {
                Round::One => Response::Bet(100),
                Round::Two => Response::Answer(Answer::Keep),
            }
        });
        assert_eq!(seen.len(), 6);
        for (i, ask) in seen[..3].iter().enumerate() {
            let a = &ask.args;
            assert_eq!((a.round, a.players, a.decided), (Round::One, 3, i as u64));
            assert_eq!(
                (a.heisters, a.total_bet, a.confirmed),
                (i as u64, 100 * i as u64, 0)
            );
            assert_eq!((a.bet, a.paycheck, a.employed), (0, 240, true));
            // Before the first game every bot has rank 1 only if tied: bot 2 leads.
            assert_eq!(a.rank, if ask.bot == 2 { 1 } else { 2 });
            assert_eq!(a.max, 1000);
            assert!((a.mean - 1480.0 / 3.0).abs() < 1e-9);
            assert!(
                (a.mad - (2.0 * (1480.0 / 3.0 - 240.0) + (1000.0 - 1480.0 / 3.0)) / 3.0).abs()
                    < 1e-9
            );
            assert_eq!(a.probability, Bank::ALL.map(Bank::base_probability));
        }
        for (i, ask) in seen[3..].iter().enumerate() {
            let a = &ask.args;
            assert_eq!(
                (a.round, a.decided, a.heisters, a.total_bet),
                (Round::Two, i as u64, 3, 300)
            );
            assert_eq!((a.confirmed, a.bet), (i as u64, 100));
        }
    }

    #[test]
    fn a_win_pays_the_stake_times_the_odds_and_a_loss_costs_the_stake() {
        let mut t = bots_only(2, 1);
        fix_dice(&mut t, 0, true);
        fix_dice(&mut t, 1, false);
        play_game(&mut t, scripted(vec![100, 100], vec![Answer::Keep; 2]));
        // Bank 0: odds 0.8. Winner: 240 + 80 + 240 paycheck. Loser: 140 + 240.
        assert_eq!(t.credits(), vec![560, 380]);
        assert_accounted(&t);
    }

    #[test]
    fn backing_out_returns_the_wager_costs_the_paycheck_and_weakens_the_others() {
        // Two heisters, one backs out: the other's probability is halved. With p = 1 for the
        // one who stays, p becomes 0.5: over many seeds it must both win and lose.
        let (mut wins, mut losses) = (0, 0);
        for seed in 0..40 {
            let mut t = bots_only(2, seed);
            fix_dice(&mut t, 1, true);
            play_game(
                &mut t,
                scripted(vec![100, 100], vec![Answer::BackOut, Answer::Keep]),
            );
            assert_eq!(t.credits()[0], 240, "wager back, no paycheck");
            match t.credits()[1] {
                560 => wins += 1,
                380 => losses += 1,
                other => panic!("unexpected {other}"),
            }
            assert_accounted(&t);
        }
        assert!(wins > 5 && losses > 5, "{wins} wins, {losses} losses");
    }

    #[test]
    fn all_in_with_a_win_and_with_a_loss() {
        let mut t = bots_only(3, 2);
        fix_dice(&mut t, 0, true);
        fix_dice(&mut t, 1, false);
        // A back out does not weaken an all-in player.
        play_game(
            &mut t,
            scripted(
                vec![10, 10, 10],
                vec![Answer::AllIn, Answer::AllIn, Answer::BackOut],
            ),
        );
        // Winner: stake 240 + 240 loan, gain floor(480 * 0.8) = 384; no paycheck (it repaid
        // the loan): 240 + 240 + 384. Loser: 0, no paycheck.
        assert_eq!(t.credits(), vec![864, 0, 240]);
        assert_accounted(&t);
    }

    #[test]
    fn change_jobs_quits_and_a_new_job_pays_five_percent_more() {
        let mut t = bots_only(1, 3);
        fix_dice(&mut t, 0, false);
        play_game(&mut t, scripted(vec![10], vec![Answer::ChangeJobs]));
        let mut games = 1;
        // Unemployed until the 5% dice hire it (this seed hires within a few hundred games).
        while !t.bots()[0].employed {
            assert_eq!(t.bots()[0].wage, 240);
            play_game(&mut t, scripted(vec![0], vec![Answer::Keep]));
            games += 1;
            assert!(games < 500, "never hired");
        }
        assert_eq!(t.bots()[0].wage, 252);
        assert_eq!(t.bots()[0].paycheck(), 252);
        // Paid at once in the game it was hired, and never before.
        assert_eq!(t.credits()[0], 230 + 252);
        assert_accounted(&t);
    }

    #[test]
    fn intel_turns_the_winnings_into_odds() {
        let mut t = bots_only(1, 4);
        fix_dice(&mut t, 0, true);
        t.bot_mut(0).credits = 100_000;
        let base = unaccounted(&t);
        play_game(&mut t, scripted(vec![100_000], vec![Answer::AcquireIntel]));
        // Index 1 + 1 = 2: bank 0. Gain 80000 spent: odds + 0.8.
        assert!((t.bots()[0].odds[0] - 1.6).abs() < 1e-9);
        assert_eq!(t.credits()[0], 100_000 + 240);
        assert_eq!(unaccounted(&t), base);
    }

    #[test]
    fn a_guard_raises_the_probability_costs_a_credit_a_game_and_goes_when_unpaid() {
        let mut t = bots_only(1, 5);
        fix_dice(&mut t, 0, false);
        play_game(&mut t, scripted(vec![40], vec![Answer::BuyGuard]));
        assert_eq!(t.bots()[0].guards(), 1);
        // 1% of (1 - 0), from the next heist on: this one was lost.
        assert!((t.bots()[0].probability[0] - 0.01).abs() < 1e-12);
        // Lost 40, paid 239.
        assert_eq!(t.credits()[0], 240 - 40 + 239);
        assert_eq!(t.bots()[0].paycheck(), 239);
        // Broke and without a wage: the bribe cannot be paid and the guard is gone.
        t.bot_mut(0).credits = 0;
        t.bot_mut(0).wage = 0;
        play_game(&mut t, scripted(vec![0], vec![Answer::Keep]));
        assert_eq!(t.bots()[0].guards(), 0);
        assert_eq!(t.bots()[0].probability[0], 0.0);
    }

    #[test]
    fn unpaid_bribes_come_out_of_credits_first() {
        let mut t = bots_only(1, 6);
        fix_dice(&mut t, 0, false);
        play_game(&mut t, scripted(vec![1], vec![Answer::BuyGuard]));
        play_game(&mut t, scripted(vec![1], vec![Answer::BuyGuard]));
        assert_eq!(t.bots()[0].guards(), 2);
        let before = t.credits()[0];
        // Backing out forfeits the paycheck; the two bribes are paid from credits.
        play_game(&mut t, scripted(vec![1], vec![Answer::BackOut]));
        assert_eq!(t.credits()[0], before - 2);
        assert_eq!(t.bots()[0].guards(), 2);
        assert_accounted(&t);
    }

    #[test]
    fn deposit_withdraw_and_interest_over_several_games() {
        let mut t = bots_only(1, 7);
        fix_dice(&mut t, 0, true);
        t.bot_mut(0).credits = 1_000_000;
        let base = unaccounted(&t);
        play_game(&mut t, scripted(vec![1_000_000], vec![Answer::Deposit]));
        // Index 1 + 10 = 11: bank 0, gain 800000 deposited, then 0.14% interest.
        assert_eq!(t.bots()[0].balance[0], 800_000 + 1_120);
        assert_eq!(t.credits()[0], 1_000_240);
        play_game(&mut t, scripted(vec![0], vec![Answer::Keep]));
        assert_eq!(t.bots()[0].balance[0], 801_120 + 1_121);
        play_game(&mut t, scripted(vec![0], vec![Answer::Keep]));
        assert_eq!(t.bots()[0].balance[0], 802_241 + 1_123);
        // A successful withdraw adds the whole balance to the winnings.
        play_game(&mut t, scripted(vec![100], vec![Answer::Withdraw]));
        assert_eq!(t.bots()[0].balance[0], 0);
        assert_eq!(t.credits()[0], 1_000_720 + 803_364 + 80 + 240);
        assert_eq!(unaccounted(&t), base);
    }

    #[test]
    fn a_failed_heist_withdraws_nothing() {
        let mut t = bots_only(1, 8);
        fix_dice(&mut t, 0, false);
        t.bot_mut(0).balance[0] = 10_000;
        play_game(&mut t, scripted(vec![100], vec![Answer::Withdraw]));
        assert_eq!(t.bots()[0].balance[0], 10_014);
        assert_eq!(t.credits()[0], 140 + 240);
    }

    /// `honest` winners betting 100 each and `crossers` double crossers, all sure to win.
    fn double_cross(honest: usize, crossers: usize) -> Tournament {
        let n = honest + crossers;
        let mut t = bots_only(n, 9);
        for b in 0..n {
            fix_dice(&mut t, b, true);
        }
        let mut answers = vec![Answer::Keep; honest];
        answers.extend(vec![Answer::DoubleCross; crossers]);
        play_game(&mut t, scripted(vec![100; n], answers));
        assert_accounted(&t);
        t
    }

    #[test]
    fn the_double_cross_threshold_on_both_sides() {
        // 20 honest heisters: up to 2 double crossers succeed. Bank: index 22 -> City, odds
        // 1.1: each wins 110; the loot 20 * 110 is split between the two.
        let t = double_cross(20, 2);
        assert!(t.credits()[..20].iter().all(|&c| c == 480));
        assert!(t.credits()[20..]
            .iter()
            .all(|&c| c == 240 + 110 + 1100 + 240));
        // 19 honest: the threshold is 1, so 2 are discovered: they lose their winnings to the
        // honest (220 / 19 = 11 each), half their wage and their jobs.
        let t = double_cross(19, 2);
        assert!(t.credits()[..19].iter().all(|&c| c == 240 + 110 + 11 + 240));
        for b in &t.bots()[19..] {
            assert_eq!(b.wage, if b.employed { 126 } else { 120 });
        }
        // Fewer than 10 honest: exactly one double crosser succeeds, two do not.
        let t = double_cross(3, 1);
        assert_eq!(t.credits(), vec![480, 480, 480, 240 + 80 + 240 + 240]);
        let t = double_cross(3, 2);
        assert_eq!(t.credits()[..3], [240 + 80 + 53 + 240; 3]);
    }

    #[test]
    fn a_finger_that_identifies_a_double_crosser() {
        let mut t = bots_only(2, 10);
        fix_dice(&mut t, 0, true);
        fix_dice(&mut t, 1, true);
        t.bot_mut(1).credits = 1000;
        let base = unaccounted(&t);
        play_game(
            &mut t,
            scripted(vec![100, 100], vec![Answer::Finger, Answer::DoubleCross]),
        );
        let [finger, rat] = [&t.bots()[0], &t.bots()[1]];
        // The rat paid 25% of the 1000 it held to the finger, was fired with its wage halved
        // (unless rehired at once) and lost 5% of its probability; both kept their own
        // winnings (80 each): an identified double crosser steals nothing.
        assert_eq!(finger.credits, 240 + 80 + 250 + 240);
        assert_eq!(rat.wage, if rat.employed { 126 } else { 120 });
        assert_eq!(
            rat.credits,
            1000 - 250 + 80 + if rat.employed { 126 } else { 0 }
        );
        assert!((rat.probability[0] - 0.95).abs() < 1e-12);
        assert_eq!(unaccounted(&t), base);
    }

    #[test]
    fn a_finger_that_identifies_nobody_pays_for_it() {
        let mut t = bots_only(2, 11);
        fix_dice(&mut t, 0, true);
        fix_dice(&mut t, 1, true);
        play_game(
            &mut t,
            scripted(vec![200, 100], vec![Answer::Finger, Answer::Keep]),
        );
        let [finger, honest] = [&t.bots()[0], &t.bots()[1]];
        // Won 160, loses 80: half of it (40) goes to the non-double-crosser.
        assert_eq!(finger.wage, 228);
        assert!((finger.odds[0] - 0.76).abs() < 1e-12);
        assert_eq!(finger.credits, 240 + 80 + 228);
        assert_eq!(honest.credits, 240 + 80 + 40 + 240);
        assert_accounted(&t);
    }

    #[test]
    fn responses_of_the_wrong_kind_are_the_defaults() {
        let mut t = bots_only(1, 12);
        let ask = t.pending().unwrap();
        assert_eq!(ask.args.round, Round::One);
        t.respond(Response::Answer(Answer::AllIn));
        // Bet 0: nobody heisted, so the next ask is the next game's round 1.
        let ask = t.pending().unwrap();
        assert_eq!((ask.args.game, ask.args.round), (1, Round::One));
        assert_eq!(t.credits(), vec![480]);
    }

    #[test]
    fn random_playouts_keep_every_credit_accounted_for() {
        use rand::Rng;
        for seed in 0..6 {
            let mut chooser = ChaCha8Rng::seed_from_u64(1000 + seed);
            let bots = 1 + seed as usize * 2;
            let mut t = Tournament::new(bots, 60, seed);
            let mut last_game = 0;
            while let Some(ask) = t.pending() {
                if ask.args.game != last_game {
                    assert_accounted(&t);
                    last_game = ask.args.game;
                }
                let a = &ask.args;
                assert!(a.probability.iter().all(|p| (0.0..=1.0).contains(p)));
                assert!(a.rank >= 1 && a.rank <= bots as u64);
                let r = match a.round {
                    Round::One => Response::Bet(match chooser.random_range(0..4) {
                        0 => 0,
                        1 => a.credits,
                        2 => a.credits.saturating_add(1_000_000),
                        _ => chooser.random_range(0..=a.credits),
                    }),
                    Round::Two => Response::Answer(if chooser.random_bool(0.1) {
                        Answer::Keep
                    } else {
                        Answer::NAMED[chooser.random_range(0..Answer::NAMED.len())]
                    }),
                };
                t.respond(r);
            }
            assert!(t.is_over());
            assert_eq!(t.game(), 60);
            assert_accounted(&t);
        }
    }

    #[test]
    fn the_same_seed_and_answers_replay_the_same_tournament() {
        let run = |seed| {
            let mut t = Tournament::new(3, 30, seed);
            let mut events = Vec::new();
            while let Some(ask) = t.pending() {
                events.extend(t.take_events());
                t.respond(match ask.args.round {
                    Round::One => Response::Bet(ask.args.credits / 3),
                    Round::Two => Response::Answer(Answer::Keep),
                });
            }
            events.extend(t.take_events());
            (t.credits(), events)
        };
        assert_eq!(run(5), run(5));
        assert_ne!(run(5).0, run(6).0);
    }
}
