//! The 31 arguments of an invocation, typed and named.

use super::error::Error;
use super::Bank;
use std::str::FromStr;

/// How many arguments follow the bot's name.
pub const ARG_COUNT: usize = 31;

/// The arguments' names, in order: `ARG_NAMES[i]` names argument `i + 1`. Errors use them.
pub const ARG_NAMES: [&str; ARG_COUNT] = [
    "game",
    "round",
    "players",
    "decided",
    "heisters",
    "total bet",
    "confirmed",
    "bank",
    "credits",
    "my bet",
    "paycheck",
    "employed",
    "rank",
    "mean credits",
    "mean absolute deviation",
    "max credits",
    "balance at bank 0",
    "balance at bank 1",
    "balance at bank 2",
    "balance at bank 3",
    "balance at bank 4",
    "probability at bank 0",
    "probability at bank 1",
    "probability at bank 2",
    "probability at bank 3",
    "probability at bank 4",
    "odds at bank 0",
    "odds at bank 1",
    "odds at bank 2",
    "odds at bank 3",
    "odds at bank 4",
];

/// The round of a game a bot is asked about (argument 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Round {
    /// Round 1: every player bets; the answer is an integer.
    First,
    /// Round 2: every heister answers one of the [`Answer`](super::Answer)s.
    Second,
}

impl Round {
    /// 1 or 2, as argv writes it.
    pub const fn number(self) -> u8 {
        match self {
            Round::First => 1,
            Round::Second => 2,
        }
    }
}

/// One invocation's arguments, by name. Fields are public so a test can change what it
/// needs of [`Args::at`]: `Args { credits: 5000, ..Args::at(10, Round::First) }`.
///
/// "So far" means among the players asked before this one in this round; players are
/// asked in a random order, rabble included.
#[derive(Debug, Clone, PartialEq)]
pub struct Args {
    /// 1: the game number, from 0.
    pub game: u32,
    /// 2: the round.
    pub round: Round,
    /// 3: the players in this game, rabble included (under `koth bank-heist --rules
    /// original`, in round 2: the round-1 heisters, as the contest's controller gave it).
    pub players: u32,
    /// 4: the players who already decided this round (round 2: heisters who answered).
    pub decided: u32,
    /// 5: heisters so far (round 2: all round-1 heisters).
    pub heisters: u32,
    /// 6: credits bet so far (round 2: the round-1 total).
    pub total_bet: u64,
    /// 7: heisters who confirmed (did not back out) in round 2 so far; 0 in round 1.
    pub confirmed: u32,
    /// 8: the bank that would be robbed (round 1: if nobody else bet).
    pub bank: Bank,
    /// 9: the bot's credits.
    pub credits: u64,
    /// 10: the bot's round-1 bet (0 in round 1).
    pub my_bet: u64,
    /// 11: the bot's paycheck. Signed: bribes lower it, and the protocol does not promise
    /// it stays positive. (Under `--rules original` it is the wage, and bribes are paid
    /// apart.)
    pub paycheck: i64,
    /// 12: whether the bot has a job (argv: 1 or 0).
    pub employed: bool,
    /// 13: the bot's rank among the bots (not rabble) after the previous game, from 1:
    /// 1 + the number of bots with strictly more credits.
    pub rank: u32,
    /// 14: the mean credits of the bots (an integer under `--rules original`, which
    /// truncates it).
    pub mean: f64,
    /// 15: the mean absolute deviation of the bots' credits (an integer under `--rules
    /// original`, taken from the truncated mean and truncated).
    pub mad: f64,
    /// 16: the most credits any bot holds.
    pub max_credits: u64,
    /// 17–21: the bot's account balance at banks 0–4.
    pub balances: [u64; 5],
    /// 22–26: the bot's victory probability at banks 0–4.
    pub probabilities: [f64; 5],
    /// 27–31: the bot's odds at banks 0–4.
    pub odds: [f64; 5],
}

/// Parses argument `i` (from 0 in `args`, so argument `i + 1`).
fn field<T: FromStr, S: AsRef<str>>(
    args: &[S],
    i: usize,
    expected: &'static str,
) -> Result<T, Error> {
    let text = args.get(i).map_or("", |a| a.as_ref());
    text.parse().map_err(|_| invalid(i, text, expected))
}

fn invalid(i: usize, text: &str, expected: &'static str) -> Error {
    Error::Invalid {
        argument: i + 1,
        name: ARG_NAMES.get(i).copied().unwrap_or("?"),
        value: text.to_string(),
        expected,
    }
}

const UINT: &str = "a non-negative integer";

/// A finite decimal (`0.54`, `1234.5`); Rust would also take `inf` and `NaN`, which no
/// argument may be.
fn decimal<S: AsRef<str>>(args: &[S], i: usize) -> Result<f64, Error> {
    const EXPECTED: &str = "a finite decimal number";
    let x: f64 = field(args, i, EXPECTED)?;
    if x.is_finite() {
        Ok(x)
    } else {
        Err(invalid(i, args[i].as_ref(), EXPECTED))
    }
}

/// Five per-bank values starting at argument `first + 1`.
fn per_bank<T, S, F>(args: &[S], first: usize, parse: F) -> Result<[T; 5], Error>
where
    T: Copy + Default,
    S: AsRef<str>,
    F: Fn(&[S], usize) -> Result<T, Error>,
{
    let mut out = [T::default(); 5];
    for (k, slot) in out.iter_mut().enumerate() {
        *slot = parse(args, first + k)?;
    }
    Ok(out)
}

impl Args {
    /// Reads the process's argv (skipping the bot's name).
    pub fn from_env() -> Result<Args, Error> {
        let args = std::env::args_os()
            .skip(1)
            .enumerate()
            .map(|(i, a)| {
                a.into_string()
                    .map_err(|_| Error::NotUtf8 { argument: i + 1 })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Args::parse(&args)
    }

    /// Parses argv without `argv[0]`: exactly 31 arguments. The error names the first bad
    /// argument.
    pub fn parse<S: AsRef<str>>(args: &[S]) -> Result<Args, Error> {
        if args.len() != ARG_COUNT {
            return Err(Error::Count { found: args.len() });
        }
        let round = match args[1].as_ref() {
            "1" => Round::First,
            "2" => Round::Second,
            other => return Err(invalid(1, other, "1 or 2")),
        };
        let bank_number: usize = field(args, 7, "a bank number, 0 to 4")?;
        let bank = Bank::from_index(bank_number)
            .ok_or_else(|| invalid(7, args[7].as_ref(), "a bank number, 0 to 4"))?;
        let employed = match args[11].as_ref() {
            "1" => true,
            "0" => false,
            other => return Err(invalid(11, other, "1 or 0")),
        };
        Ok(Args {
            game: field(args, 0, UINT)?,
            round,
            players: field(args, 2, UINT)?,
            decided: field(args, 3, UINT)?,
            heisters: field(args, 4, UINT)?,
            total_bet: field(args, 5, UINT)?,
            confirmed: field(args, 6, UINT)?,
            bank,
            credits: field(args, 8, UINT)?,
            my_bet: field(args, 9, UINT)?,
            paycheck: field(args, 10, "an integer")?,
            employed,
            rank: field(args, 12, UINT)?,
            mean: decimal(args, 13)?,
            mad: decimal(args, 14)?,
            max_credits: field(args, 15, UINT)?,
            balances: per_bank(args, 16, |a, i| field(a, i, UINT))?,
            probabilities: per_bank(args, 21, decimal)?,
            odds: per_bank(args, 26, decimal)?,
        })
    }

    /// The 31 arguments as the host would pass them; [`Args::parse`] reads them back
    /// unchanged. For tests that run a bot as a process.
    pub fn to_argv(&self) -> Vec<String> {
        let mut argv = vec![
            self.game.to_string(),
            self.round.number().to_string(),
            self.players.to_string(),
            self.decided.to_string(),
            self.heisters.to_string(),
            self.total_bet.to_string(),
            self.confirmed.to_string(),
            self.bank.index().to_string(),
            self.credits.to_string(),
            self.my_bet.to_string(),
            self.paycheck.to_string(),
            u8::from(self.employed).to_string(),
            self.rank.to_string(),
            // Display of f64 never uses an exponent and round-trips exactly.
            self.mean.to_string(),
            self.mad.to_string(),
            self.max_credits.to_string(),
        ];
        argv.extend(self.balances.iter().map(u64::to_string));
        argv.extend(self.probabilities.iter().map(f64::to_string));
        argv.extend(self.odds.iter().map(f64::to_string));
        argv
    }

    /// A plausible situation for tests: `round` of game `game`, with one bot among 13
    /// players at the start of a tournament (240 credits, paycheck 240, employed, rank 1,
    /// everyone level, empty accounts, the banks' starting probabilities and odds), nobody
    /// asked yet and the Municipal bank. In round 2 the bot has bet 1 and is the only
    /// heister so far. Change the public fields for anything else.
    pub fn at(game: u32, round: Round) -> Args {
        let second = round == Round::Second;
        Args {
            game,
            round,
            players: 13,
            decided: 0,
            heisters: u32::from(second),
            total_bet: u64::from(second),
            confirmed: 0,
            bank: Bank::Municipal,
            credits: 240,
            my_bet: u64::from(second),
            paycheck: 240,
            employed: true,
            rank: 1,
            mean: 240.0,
            mad: 0.0,
            max_credits: 240,
            balances: [0; 5],
            probabilities: Bank::ALL.map(Bank::base_probability),
            odds: Bank::ALL.map(Bank::base_odds),
        }
    }

    /// True in round 1 (bet), false in round 2 (answer).
    pub fn is_first_round(&self) -> bool {
        self.round == Round::First
    }

    /// The bot's victory probability at `bank`.
    pub fn probability_at(&self, bank: Bank) -> f64 {
        self.probabilities[bank.index()]
    }

    /// The bot's odds at `bank`.
    pub fn odds_at(&self, bank: Bank) -> f64 {
        self.odds[bank.index()]
    }

    /// The bot's account balance at `bank`.
    pub fn balance_at(&self, bank: Bank) -> u64 {
        self.balances[bank.index()]
    }
}
