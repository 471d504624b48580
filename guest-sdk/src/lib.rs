//! Write koth bots in Rust, with std only (and `koth-rules`, koth's own copy of each game's
//! rules of play, which has no dependencies).
//!
//! koth runs King-of-the-Hill tournaments with every bot sandboxed in WebAssembly (WASI
//! preview 1). A bot built with this crate compiles both natively, so its author can unit
//! test it, and for `wasm32-wasip1`, the form koth runs:
//!
//! ```text
//! cargo build --release --target wasm32-wasip1
//! ```
//!
//! # Coup in one paragraph
//!
//! Each invocation is one decision. The bot gets
//! `argv = [name, history_file, opponent_coins, my_coins, my_cards, legal_action...]`, where
//! cards are written `~^*!$` (Ambassador, Assassin, Captain, Contessa, Duke) and each legal
//! action is the exact text to append (`I\n` and a card given up on one's own turn, like
//! `'\n`, are two characters). The history file (in the bot's own directory, the current
//! directory) holds one line per turn: the actor's capital letter (`I F C E A S T`), then
//! the players' answers alternately: blocks `dacs`, challenge `q`, pass `p`, reveals
//! `~^*!$`, cards given up `_'<=0`, and the actor's `\n`. The bot appends exactly one legal
//! action. When its Exchange goes through it is offered n + 2 cards and prints the n it
//! keeps to stdout before ending its turn. Anything else, or a non-zero exit, forfeits.
//!
//! [`coup::State`] parses all of that from the bot's seat: the [`coup::Phase`] (act,
//! respond to an action, to a block, to a challenge, give up a card, end the turn, finish
//! an Exchange), coins, cards, both players' claims, reveals and losses, and the cards it
//! has not seen. [`coup::run`] does the plumbing, so a bot is one function:
//!
//! ```no_run
//! use koth_guest::coup::{run, Action, Card, Decision, Move, Phase, State};
//!
//! /// An honest bot: taxes with a real Duke, blocks Foreign Aid with a real Duke, Coups
//! /// as soon as it can.
//! fn decide(state: &State) -> Decision {
//!     let wish = match state.phase() {
//!         Phase::FinishExchange { keep } => {
//!             // Keep Dukes, then whatever came first.
//!             let mut cards = state.cards().to_vec();
//!             cards.sort_by_key(|&card| card != Card::Duke);
//!             cards.truncate(keep);
//!             return Decision::Keep(cards);
//!         }
//!         // Coup when possible (forced at 10 coins), else Tax with a real Duke.
//!         Phase::Act if state.can(Move::Coup) => Move::Coup,
//!         Phase::Act if state.has(Card::Duke) => Move::Tax,
//!         Phase::Act => Move::Income,
//!         Phase::Respond(Action::ForeignAid) if state.has(Card::Duke) => Move::Block(Card::Duke),
//!         Phase::Respond(_) => Move::Pass,
//!         // Challenged: if we hold the card, revealing it is the only legal move.
//!         Phase::Challenged { card, .. } => Move::Reveal(card),
//!         // Accept blocks and end turns.
//!         _ => Move::EndTurn,
//!     };
//!     if state.can(wish) {
//!         return wish.into();
//!     }
//!     // Otherwise a card must go (Assassinated, Couped, caught, failed challenge).
//!     let worst_first = [Card::Ambassador, Card::Captain, Card::Contessa, Card::Assassin, Card::Duke];
//!     state.give_up(&worst_first).unwrap_or_else(|| state.or_first_legal(wish)).into()
//! }
//!
//! fn main() {
//!     run(decide);
//! }
//! ```
//!
//! The same function can be tested natively without files, with [`coup::State::parse`]:
//!
//! ```
//! use koth_guest::coup::{Action, Card, Move, Phase, Player, State};
//!
//! // The opponent took Foreign Aid; we hold a Duke and a Captain.
//! let state = State::parse(&["history.txt", "3", "1", "$*", "d", "p"], "I\nI\nF").unwrap();
//! assert_eq!(state.phase(), Phase::Respond(Action::ForeignAid));
//! assert!(state.can(Move::Block(Card::Duke)));
//! assert_eq!(state.current_turn().unwrap().actor, Player::Opponent);
//! assert_eq!(state.unseen().get(Card::Duke), 2);
//! ```
//!
//! # Bank Heist in one paragraph
//!
//! Each invocation is one decision, with 31 arguments after the bot's name and no files.
//! [`bank_heist::Args`] names and types them all (game, round, players, heisters so far,
//! credits bet so far, the bank, the bot's credits, bet, paycheck, rank, the bots' mean
//! credits, and its balance, probability and odds at each of the five [`bank_heist::Bank`]s).
//! In round 1 the bot bets an integer; in round 2 each heister gives one of the
//! [`bank_heist::Answer`]s (`back out`, `all in`, `double cross`, ...). [`bank_heist::run`]
//! does the plumbing:
//!
//! ```no_run
//! use koth_guest::bank_heist::{run, Answer, Args, Bank, Decision, Round};
//!
//! /// Bets a tenth of its credits when the bank it expects pays on average, and backs out
//! /// in round 2 when too many others have already.
//! fn decide(args: &Args) -> Decision {
//!     match args.round {
//!         Round::First => {
//!             let bank = Bank::for_heist(u64::from(args.heisters) + 1, args.total_bet);
//!             let p = args.probability_at(bank);
//!             if p * args.odds_at(bank) > 1.0 - p {
//!                 Decision::Bet(args.credits / 10)
//!             } else {
//!                 Decision::Bet(0)
//!             }
//!         }
//!         Round::Second if args.confirmed * 10 < args.decided * 9 => Answer::BackOut.into(),
//!         Round::Second => Answer::Keep.into(),
//!     }
//! }
//!
//! fn main() {
//!     run(decide);
//! }
//! ```
//!
//! Tests build a situation with [`bank_heist::Args::at`] and change what they need:
//!
//! ```
//! use koth_guest::bank_heist::{Args, Bank, Round};
//!
//! let args = Args { credits: 5000, heisters: 90, ..Args::at(100, Round::First) };
//! assert_eq!(Args::parse(&args.to_argv()).unwrap(), args);
//! assert_eq!(Bank::for_heist(90, 500_000), Bank::FederalReserve);
//! ```
//!
//! # Euchre in one paragraph
//!
//! Each decision is one invocation with the input on stdin, one item a line: the hand
//! (`js,ah,qc,ts,jc`, in the order dealt), the team's points, the team's tricks this hand,
//! the phase (`ordering`, `naming`, `discard`, `alone`, `turn`, `trick`), then the phase's
//! lines (the turned card, earlier answers, trump, the cards of the trick so far with `p`
//! for a player sitting out). The bot prints its answer (`o`/`p`, a suit, a card, `y`/`n`);
//! after every trick all four get a `trick` report and print nothing. A bot may keep one
//! file of at most 1 KiB between invocations. [`euchre::Input`] parses the input into a
//! typed [`euchre::Phase`]; [`euchre::Card`] knows bowers and effective suits,
//! [`euchre::Input::legal_plays`] the cards that follow suit, and [`euchre::Memory`] keeps
//! memory within the quota (a full quota is reported, never fatal). [`euchre::run`] and
//! [`euchre::run_with_memory`] do the plumbing:
//!
//! ```no_run
//! use koth_guest::euchre::{run, Answer, Input, Phase};
//!
//! /// Orders up with two trumps or more and plays the first legal card.
//! fn decide(input: &Input) -> Answer {
//!     match &input.phase {
//!         Phase::Ordering { turned, .. } => {
//!             let trumps = input.hand.iter().filter(|c| c.is_trump(turned.suit)).count();
//!             if trumps >= 2 { Answer::OrderUp } else { Answer::Pass }
//!         }
//!         _ => input.default_answer(),
//!     }
//! }
//!
//! fn main() {
//!     run(decide);
//! }
//! ```
//!
//! Natively, the same function takes a parsed input:
//!
//! ```
//! use koth_guest::euchre::{Card, Input, Phase, Suit};
//!
//! let input = Input::parse("jd,ah,qc,ts,9h\n2\n0\nturn\nh\ntd,kd\n").unwrap();
//! assert_eq!(input.trump(), Some(Suit::Hearts));
//! // Diamonds led, but the jack of diamonds is the left bower, a heart: void in diamonds.
//! assert_eq!(input.legal_plays().len(), 5);
//! assert!(Card::parse("jd").unwrap().is_left_bower(Suit::Hearts));
//! assert!(matches!(input.phase, Phase::Turn { .. }));
//! ```
//!
//! For randomness use [`Rng`]: seeded from the platform (under koth, deterministic per
//! tournament seed), no dependencies.

pub mod bank_heist;
pub mod coup;
pub mod euchre;
mod rng;

pub use rng::Rng;
