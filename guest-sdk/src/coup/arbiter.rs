//! The original arbiter's legal-action rule, for testing bots natively.

use super::card::Card;

/// The legal actions the original arbiter (`get_legal_actions`) offers the player about to
/// write, given the whole history file, that player's cards and both coin counts: the
/// arguments a bot gets after its cards. With it a bot author can build a realistic
/// invocation for any history without running koth.
///
/// Returns an empty list for a history the arbiter would reject (it ends in a character
/// no move may follow).
pub fn legal_actions(history: &str, cards: &[Card], my_coins: u32, opp_coins: u32) -> Vec<String> {
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let surrender = |newline: &str| {
        cards
            .iter()
            .map(|c| format!("{}{newline}", c.surrender_char()))
            .collect::<Vec<_>>()
    };
    // The arbiter looks only at the last line (`readlines()[-1]`), newline included.
    let body = history.strip_suffix('\n').unwrap_or(history);
    let line = match body.rfind('\n') {
        Some(i) => &history[i + 1..],
        None => history,
    };
    let chars: Vec<char> = line.chars().collect();
    let back = |k: usize| chars.len().checked_sub(k).map(|i| chars[i]);
    let Some(last) = back(1) else {
        // An empty file: the opening is fixed, whatever the coins.
        return strings(&["I\n", "F", "E", "S", "T"]);
    };
    match last {
        '\n' => {
            if my_coins >= 10 {
                return strings(&["C"]);
            }
            let mut r = strings(&["I\n", "F", "E", "T"]);
            if my_coins >= 3 {
                r.push("A".into());
            }
            if my_coins >= 7 {
                r.push("C".into());
            }
            if opp_coins > 0 {
                r.push("S".into());
            }
            r
        }
        'F' => strings(&["d", "p"]),
        'C' => surrender(""),
        '~' | '^' | '*' | '!' | '$' => {
            // Revealed against our challenge: we lose a card, with the newline if the
            // challenged claim was a block of our own action.
            if back(3).is_some_and(|c| "acds".contains(c)) {
                surrender("\n")
            } else {
                surrender("")
            }
        }
        'E' | 'T' => strings(&["p", "q"]),
        'A' => {
            let mut r = strings(&["s", "q"]);
            r.extend(surrender(""));
            r
        }
        'S' => strings(&["a", "c", "p", "q"]),
        'a' | 'c' | 'd' | 's' => strings(&["q", "\n"]),
        'p' | '_' | '\'' | '<' | '=' | '0' => strings(&["\n"]),
        'q' => {
            let Some(challenged) = back(2) else {
                return Vec::new();
            };
            let necessary = match challenged {
                'E' | 'a' => Card::Ambassador,
                'T' | 'd' => Card::Duke,
                'A' => Card::Assassin,
                'S' | 'c' => Card::Captain,
                's' => Card::Contessa,
                _ => return Vec::new(),
            };
            if cards.contains(&necessary) {
                vec![necessary.reveal_char().to_string()]
            } else if "acds".contains(challenged) {
                surrender("")
            } else {
                surrender("\n")
            }
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Card::*;

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
        assert_eq!(legal_actions("x", &[Duke], 1, 1), Vec::<String>::new());
    }
}
