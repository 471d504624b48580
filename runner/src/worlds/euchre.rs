//! The `euchre-bot` world: the stdin lines of the spec's table as typed values, the typed
//! answer printed as the protocol's token, and the memory kept as a file in the seat's
//! directory (under its 1 KiB quota).

use super::fault;
use crate::sandbox::{Bot, Invocation, Report, Vfs};
use koth_guest::euchre as sdk;

/// The world's Rust types, generated from `wit/euchre.wit` (the WIT file is their
/// documentation).
#[allow(missing_docs)]
mod bindings {
    wasmtime::component::bindgen!({
        path: "../wit",
        world: "euchre-bot",
    });
}

use bindings::exports::koth::bots::euchre as w;

/// The file in the seat's directory that holds the memory `decide` returns.
pub const MEMORY_FILE: &str = "memory";

/// One Euchre decision of a `euchre-bot` component.
pub fn invoke(bot: &Bot, inv: &Invocation, dir: Option<&mut Vfs>) -> Report {
    let input = match sdk::Input::parse(&String::from_utf8_lossy(&inv.stdin)) {
        Ok(i) => i,
        Err(e) => return fault(format!("the euchre-bot adapter cannot read the input: {e}")),
    };
    let memory = dir
        .as_deref()
        .and_then(|d| d.host_file(MEMORY_FILE))
        .map(<[u8]>::to_vec)
        .unwrap_or_default();
    let (mut report, answer) = bot.call_world::<(w::State, Vec<u8>), ((w::Decision, Vec<u8>),)>(
        inv,
        (to_world(&input), memory),
    );
    let Some(((decision, memory),)) = answer else {
        return report;
    };
    if let Some(d) = dir {
        // As for a file write past the quota: the bot's memory is not saved, the game goes on.
        if super::write_file(d, MEMORY_FILE, &memory, false).is_err() {
            report.stderr.extend_from_slice(
                b"koth: the returned memory does not fit in the seat's quota; not saved\n",
            );
        }
    }
    if let Some(token) = token(&input.phase, decision) {
        report.stdout = format!("{token}\n").into_bytes();
    }
    report
}

/// The protocol's token for `decision` in `phase`; `None` prints nothing (a trick report, or
/// a decision that does not fit the phase, which then gets the spec's default).
fn token(phase: &sdk::Phase, decision: w::Decision) -> Option<String> {
    use sdk::Phase as P;
    use w::Decision as D;
    Some(match (phase, decision) {
        (P::Ordering { .. }, D::Yes) => "o".into(),
        (P::Ordering { .. } | P::Naming { .. }, D::No) => "p".into(),
        (P::Naming { .. }, D::Name(s)) => from_suit(s).to_string(),
        (P::Discard { .. } | P::Turn { .. }, D::Card(c)) => from_card(c).to_string(),
        (P::Alone { .. }, D::Yes) => "y".into(),
        (P::Alone { .. }, D::No) => "n".into(),
        _ => return None,
    })
}

fn to_world(i: &sdk::Input) -> w::State {
    let cards = |v: &[Option<sdk::Card>]| v.iter().map(|c| c.map(to_card)).collect::<Vec<_>>();
    let bids = |v: &[sdk::Answer]| v.iter().filter_map(|a| to_bid(*a)).collect::<Vec<_>>();
    let phase = match &i.phase {
        sdk::Phase::Ordering { turned, previous } => w::Phase::Ordering(w::Ordering {
            turned: to_card(*turned),
            previous: bids(previous),
        }),
        sdk::Phase::Naming { previous } => w::Phase::Naming(bids(previous)),
        sdk::Phase::Discard { pickup } => w::Phase::Discard(to_card(*pickup)),
        sdk::Phase::Alone { trump, previous } => w::Phase::Alone(w::Alone {
            trump: to_suit(*trump),
            previous: previous
                .iter()
                .map(|&b| if b { w::Bid::Alone } else { w::Bid::NotAlone })
                .collect(),
        }),
        sdk::Phase::Turn { trump, played } => w::Phase::Turn(w::Trick {
            trump: to_suit(*trump),
            played: cards(played),
        }),
        sdk::Phase::Trick {
            index,
            trump,
            cards: played,
        } => w::Phase::Trick(w::TrickEnd {
            mine: *index as u32,
            trump: to_suit(*trump),
            played: cards(played),
        }),
    };
    w::State {
        hand: i.hand.iter().copied().map(to_card).collect(),
        points: i.points,
        tricks: i.tricks,
        phase,
    }
}

fn to_bid(a: sdk::Answer) -> Option<w::Bid> {
    Some(match a {
        sdk::Answer::Pass => w::Bid::Pass,
        sdk::Answer::OrderUp => w::Bid::Order,
        sdk::Answer::Name(s) => w::Bid::Name(to_suit(s)),
        sdk::Answer::Alone(true) => w::Bid::Alone,
        sdk::Answer::Alone(false) => w::Bid::NotAlone,
        _ => return None,
    })
}

fn to_suit(s: sdk::Suit) -> w::Suit {
    match s {
        sdk::Suit::Clubs => w::Suit::Clubs,
        sdk::Suit::Spades => w::Suit::Spades,
        sdk::Suit::Hearts => w::Suit::Hearts,
        sdk::Suit::Diamonds => w::Suit::Diamonds,
    }
}

fn from_suit(s: w::Suit) -> sdk::Suit {
    match s {
        w::Suit::Clubs => sdk::Suit::Clubs,
        w::Suit::Spades => sdk::Suit::Spades,
        w::Suit::Hearts => sdk::Suit::Hearts,
        w::Suit::Diamonds => sdk::Suit::Diamonds,
    }
}

fn to_card(c: sdk::Card) -> w::Card {
    w::Card {
        rank: match c.rank {
            sdk::Rank::Nine => w::Rank::Nine,
            sdk::Rank::Ten => w::Rank::Ten,
            sdk::Rank::Jack => w::Rank::Jack,
            sdk::Rank::Queen => w::Rank::Queen,
            sdk::Rank::King => w::Rank::King,
            sdk::Rank::Ace => w::Rank::Ace,
        },
        suit: to_suit(c.suit),
    }
}

fn from_card(c: w::Card) -> sdk::Card {
    let rank = match c.rank {
        w::Rank::Nine => sdk::Rank::Nine,
        w::Rank::Ten => sdk::Rank::Ten,
        w::Rank::Jack => sdk::Rank::Jack,
        w::Rank::Queen => sdk::Rank::Queen,
        w::Rank::King => sdk::Rank::King,
        w::Rank::Ace => sdk::Rank::Ace,
    };
    sdk::Card::new(rank, from_suit(c.suit))
}
