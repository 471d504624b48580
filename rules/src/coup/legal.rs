//! The original arbiter's legal-action rule (`get_legal_actions`): what the runner offers a
//! bot, and what a bot author can compute for any history to test a bot natively.

use super::card::Card;
use super::moves::Move;

/// The legal actions the arbiter passes when the history file is still empty. It is a special
/// list, not `get_legal_actions` on a newline: `['I\n'] + list("FEST")`, so the order is
/// F, E, S, T (not F, E, T, …, S) and neither Assassinate nor Coup is offered. Bots receive
/// exactly this, byte for byte.
pub const EMPTY_FILE_ACTIONS: [&str; 5] = ["I\n", "F", "E", "S", "T"];

/// The block characters (Duke against Foreign Aid, Ambassador/Captain against Steal, Contessa
/// against Assassinate).
const BLOCKS: &[u8] = b"acds";

/// The legal actions the original arbiter (`get_legal_actions`) offers the player about to
/// write, given the whole history file, that player's cards (in hand order) and both coin
/// counts: the arguments a bot gets after its cards, in the arbiter's exact order with
/// duplicates kept (two Dukes give `"0"`, `"0"`); the two-character ones include their `'\n'`.
/// With it a bot author can build a realistic invocation for any history without running
/// koth, and koth's rules offer exactly this.
///
/// Returns an empty list for a history the arbiter would reject (it ends in a character no
/// move may follow, or one whose line is too short for it).
pub fn legal_actions(history: &str, cards: &[Card], my_coins: u32, opp_coins: u32) -> Vec<String> {
    if history.is_empty() {
        // An empty file: the opening is fixed, whatever the coins.
        return EMPTY_FILE_ACTIONS.iter().map(|s| s.to_string()).collect();
    }
    // The arbiter looks only at the last line (`readlines()[-1]`), newline included.
    for_line(last_line(history).as_bytes(), cards, my_coins, opp_coins)
}

/// The last line of a non-empty history as Python's `readlines()` gives it (with its `'\n'`
/// if it has one).
pub fn last_line(history: &str) -> &str {
    let body = history.strip_suffix('\n').unwrap_or(history);
    let start = body.rfind('\n').map_or(0, |i| i + 1);
    &history[start..]
}

/// The card an action or block character claims (the arbiter's `actions_dict`).
pub(crate) fn claimed_by(c: u8) -> Option<Card> {
    Move::from_char(char::from(c)).and_then(Move::claim)
}

/// `get_legal_actions` on the last line of a non-empty history, for the mover holding `cards`
/// with `own` coins against `opponent` coins.
fn for_line(line: &[u8], cards: &[Card], own: u32, opponent: u32) -> Vec<String> {
    let lose = |suffix: &str| -> Vec<String> {
        cards
            .iter()
            .map(|card| format!("{}{suffix}", card.surrender_char()))
            .collect()
    };
    let list = |s: &str| -> Vec<String> { s.chars().map(String::from).collect() };
    let Some(&c) = line.last() else {
        return Vec::new();
    };
    let n = line.len();
    match c {
        // Our turn begins; choose an action.
        b'\n' => {
            if own >= 10 {
                return list("C");
            }
            let mut ret = vec!["I\n".to_string()];
            ret.extend(list("FET"));
            if own >= 3 {
                ret.push("A".into());
            }
            if own >= 7 {
                ret.push("C".into());
            }
            if opponent > 0 {
                ret.push("S".into());
            }
            ret
        }
        // Foreign Aid: block as a Duke or let it pass.
        b'F' => list("dp"),
        // Couped: give up a card.
        b'C' => lose(""),
        // The claimant showed the card: the challenger gives one up, with a newline if it is
        // its own turn (it challenged a block).
        b'~' | b'^' | b'*' | b'!' | b'$' => {
            // A reveal always follows a claim and its challenge; on a shorter line Python's
            // `history[-3]` would raise.
            if n < 3 {
                return Vec::new();
            }
            if BLOCKS.contains(&line[n - 3]) {
                lose("\n")
            } else {
                lose("")
            }
        }
        b'E' | b'T' => list("pq"),
        b'A' => {
            let mut ret = list("sq");
            ret.extend(lose(""));
            ret
        }
        b'S' => list("acpq"),
        // Blocked: challenge the block or accept it (ending the turn).
        b'a' | b'c' | b'd' | b's' => list("q\n"),
        // Passed, or a card was given up: the actor ends the turn.
        b'p' | b'_' | b'\'' | b'<' | b'=' | b'0' => list("\n"),
        // Challenged: show the claimed card if held, else give one up (with a newline if it is
        // one's own turn, i.e. the challenged claim was an action, not a block).
        b'q' => {
            let Some(challenged) = n.checked_sub(2).map(|i| line[i]) else {
                return Vec::new();
            };
            let Some(necessary) = claimed_by(challenged) else {
                return Vec::new();
            };
            if cards.contains(&necessary) {
                vec![necessary.reveal_char().to_string()]
            } else if BLOCKS.contains(&challenged) {
                lose("")
            } else {
                lose("\n")
            }
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Card::*;

    fn strs(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn turn_start_depends_on_coins() {
        assert_eq!(
            legal_actions("", &[Duke], 0, 0),
            ["I\n", "F", "E", "S", "T"]
        );
        assert_eq!(legal_actions("I\n", &[Duke], 1, 0), ["I\n", "F", "E", "T"]);
        assert_eq!(
            legal_actions("I\nI\n", &[Duke], 7, 1),
            ["I\n", "F", "E", "T", "A", "C", "S"]
        );
        assert_eq!(legal_actions("I\nI\n", &[Duke], 10, 1), ["C"]);
    }

    #[test]
    fn challenges() {
        assert_eq!(legal_actions("Tq", &[Duke, Captain], 1, 1), ["$"]);
        assert_eq!(legal_actions("Tq", &[Captain], 1, 1), ["<\n"]);
        assert_eq!(legal_actions("Scq", &[Duke], 1, 1), ["0"]);
        assert_eq!(legal_actions("Scq*", &[Duke, Duke], 1, 1), ["0\n", "0\n"]);
        assert_eq!(legal_actions("Tq$", &[Duke], 1, 1), ["0"]);
        assert_eq!(legal_actions("A", &[Duke], 1, 1), ["s", "q", "0"]);
    }

    #[test]
    fn only_the_last_line_counts() {
        assert_eq!(legal_actions("Fp\nT", &[Duke], 3, 1), ["p", "q"]);
        assert_eq!(last_line("Fp\nTp\n"), "Tp\n");
        assert_eq!(last_line("Fp\nT"), "T");
        assert_eq!(last_line("\n"), "\n");
    }

    #[test]
    fn histories_the_arbiter_would_reject_have_no_legal_action() {
        for history in ["x", "I\nx", "~", "q~", "Iq", "q"] {
            assert_eq!(
                legal_actions(history, &[Duke], 1, 1),
                Vec::<String>::new(),
                "{history:?}"
            );
        }
    }

    #[test]
    fn claims_are_the_arbiter_s_actions_dict() {
        let expected = [
            (b'E', Some(Ambassador)),
            (b'a', Some(Ambassador)),
            (b'A', Some(Assassin)),
            (b'S', Some(Captain)),
            (b'c', Some(Captain)),
            (b's', Some(Contessa)),
            (b'T', Some(Duke)),
            (b'd', Some(Duke)),
        ];
        for c in 0..=u8::MAX {
            let want = expected.iter().find(|(k, _)| *k == c).and_then(|(_, v)| *v);
            assert_eq!(claimed_by(c), want, "{:?}", char::from(c));
        }
    }

    #[test]
    fn legal_actions_for_every_last_character() {
        let hand = [Captain, Contessa];
        let la = |line: &str, own: u32, opp: u32| legal_actions(line, &hand, own, opp);
        assert_eq!(la("I\n", 1, 1), strs(&["I\n", "F", "E", "T", "S"]));
        assert_eq!(la("I\n", 1, 0), strs(&["I\n", "F", "E", "T"]));
        assert_eq!(la("Fp\n", 3, 1), strs(&["I\n", "F", "E", "T", "A", "S"]));
        assert_eq!(la("Fp\n", 6, 0), strs(&["I\n", "F", "E", "T", "A"]));
        assert_eq!(
            la("Fp\n", 7, 2),
            strs(&["I\n", "F", "E", "T", "A", "C", "S"])
        );
        assert_eq!(la("Fp\n", 10, 2), strs(&["C"]));
        assert_eq!(la("F", 1, 1), strs(&["d", "p"]));
        assert_eq!(la("C", 1, 1), strs(&["<", "="]));
        assert_eq!(la("E", 1, 1), strs(&["p", "q"]));
        assert_eq!(la("T", 1, 1), strs(&["p", "q"]));
        assert_eq!(la("A", 1, 1), strs(&["s", "q", "<", "="]));
        assert_eq!(la("S", 1, 1), strs(&["a", "c", "p", "q"]));
        for block in ["Fd", "Sa", "Sc", "As"] {
            assert_eq!(la(block, 1, 1), strs(&["q", "\n"]), "{block}");
        }
        for end in [
            "Fp", "Ep", "Tp", "Sp", "A_", "A'", "C<", "A=", "C0", "Fdq<", "Eq~=",
        ] {
            assert_eq!(la(end, 1, 1), strs(&["\n"]), "{end}");
        }
        // Shown cards: the challenger gives one up, with a newline only after a block.
        for line in ["Eq~", "Aq^", "Sq*", "Tq$"] {
            assert_eq!(la(line, 1, 1), strs(&["<", "="]), "{line}");
        }
        for line in ["Saq~", "Asq!", "Scq*", "Fdq$"] {
            assert_eq!(la(line, 1, 1), strs(&["<\n", "=\n"]), "{line}");
        }
        // Challenged: the necessary card is shown if held...
        assert_eq!(la("Sq", 1, 1), strs(&["*"]));
        assert_eq!(la("Scq", 1, 1), strs(&["*"]));
        assert_eq!(la("Asq", 1, 1), strs(&["!"]));
        // ...else a card is given up, with a newline for an action (own turn)...
        for line in ["Eq", "Tq", "Aq"] {
            assert_eq!(la(line, 1, 1), strs(&["<\n", "=\n"]), "{line}");
        }
        // ...and without one for a block.
        for line in ["Saq", "Fdq"] {
            assert_eq!(la(line, 1, 1), strs(&["<", "="]), "{line}");
        }
        // Characters the arbiter has no case for.
        for line in ["I", "X", "Fx", "q", "~"] {
            assert!(la(line, 1, 1).is_empty(), "{line:?}");
        }
    }

    #[test]
    fn legal_actions_keep_duplicate_cards() {
        let dukes = [Duke, Duke];
        let la = |line: &str| legal_actions(line, &dukes, 3, 1);
        assert_eq!(la("C"), strs(&["0", "0"]));
        assert_eq!(la("A"), strs(&["s", "q", "0", "0"]));
        assert_eq!(la("Sq"), strs(&["0\n", "0\n"]));
        assert_eq!(la("Scq*"), strs(&["0\n", "0\n"]));
        assert_eq!(la("Tq"), strs(&["$"]));
    }
}
