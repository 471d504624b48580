//! Challenger: "trusts nobody in this game of deception. If you do something
//! challengeable, he will challenge you. Otherwise he just takes Income every turn and
//! tries to Coup you when he has the coins."
//!
//! Port of the seed's Go example bot, written from that description.

use koth_guest::coup::{run, Decision, Move, Phase, State};

/// Never claims a card, so none is worth more than another: give up the first offered.
fn give_up(state: &State) -> Move {
    state
        .give_up(&[])
        .unwrap_or_else(|| state.or_first_legal(Move::EndTurn))
}

fn decide(state: &State) -> Decision {
    // Any challenge on offer is taken: actions and blocks alike.
    if state.can(Move::Challenge) {
        return Move::Challenge.into();
    }
    let wish = match state.phase() {
        Phase::Act if state.can(Move::Coup) => Move::Coup,
        Phase::Act => Move::Income,
        // Foreign Aid cannot be challenged, and Challenger does not claim cards to block.
        Phase::Respond(_) => Move::Pass,
        // The only legal move if the card is held; otherwise a card goes.
        Phase::Challenged { card, .. } => Move::Reveal(card),
        Phase::LoseCard(_) => return give_up(state).into(),
        Phase::Blocked { .. } | Phase::EndTurn => Move::EndTurn,
        // Challenger never exchanges, but keep the hand's first cards if it ever does.
        Phase::FinishExchange { .. } => Move::EndTurn,
    };
    if state.can(wish) {
        wish.into()
    } else if matches!(wish, Move::Reveal(_)) {
        give_up(state).into()
    } else {
        state.or_first_legal(wish).into()
    }
}

fn main() {
    run(decide);
}

#[cfg(test)]
mod tests {
    use super::*;
    use koth_guest::coup::{legal_actions, Card};

    fn decide_at(history: &str, cards: &[Card], coins: u32) -> Decision {
        let mut args = vec![
            "history.txt".to_string(),
            "3".into(),
            coins.to_string(),
            koth_guest::coup::cards_to_string(cards),
        ];
        args.extend(legal_actions(history, cards, coins, 3));
        decide(&State::parse(&args, history).unwrap())
    }

    #[test]
    fn challenges_everything_challengeable() {
        for history in ["T", "E", "S", "A", "I\nSa", "I\nAs", "I\nFd"] {
            assert_eq!(
                decide_at(history, &[Card::Duke], 3),
                Move::Challenge.into(),
                "{history:?}"
            );
        }
    }

    #[test]
    fn income_then_coup() {
        assert_eq!(decide_at("I\nI\n", &[Card::Duke], 6), Move::Income.into());
        assert_eq!(decide_at("I\nI\n", &[Card::Duke], 7), Move::Coup.into());
        assert_eq!(decide_at("F", &[Card::Duke], 1), Move::Pass.into());
    }
}
