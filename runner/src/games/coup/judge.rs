//! Coup's reading of one hand-typed decision: the file rule, the appended action against the
//! legal list, an Exchange's kept cards, and whether the arguments are those the rules give
//! for the history file.

use crate::games::judge::{Answered, Judgement};
use koth_rules::coup::{legal_actions, parse_cards};

/// Judge a Coup decision: `args` are the history file's name, the opponent's coins, the
/// bot's coins, its cards, and the legal actions.
pub fn judge(a: &Answered<'_>) -> Judgement {
    let mut j = Judgement::default();
    if a.args.len() < 5 {
        j.input_notes.push(format!(
            "a Coup decision has at least 5 arguments (history file, opponent's coins, own \
             coins, cards, legal actions...); these are {}",
            a.args.len()
        ));
    }
    let legal: Vec<String> = a.args.iter().skip(4).cloned().collect();
    let cards = a.args.get(3).map(String::as_str).unwrap_or("");
    let offered = parse_cards(cards);
    if offered.is_none() {
        j.input_notes.push(format!(
            "the cards argument {cards:?} holds a character that is no card"
        ));
    }
    let coins = |i: usize| a.args.get(i).and_then(|c| c.parse::<u32>().ok());
    let exchange = offered.as_ref().is_some_and(|c| c.len() > 2);
    match (a.file_before, offered.as_ref(), coins(1), coins(2)) {
        (Some(before), Some(hand), Some(opp), Some(own)) if !exchange => {
            let history = String::from_utf8_lossy(before);
            let rules = legal_actions(&history, hand, own, opp);
            if rules != legal {
                j.input_notes.push(format!(
                    "for this history, cards and coins the rules offer {rules:?}, not {legal:?}"
                ));
            }
        }
        (None, _, _, _) => j.input_notes.push(format!(
            "the folder has no history file {:?} (give it with --dir)",
            a.args.first().map(String::as_str).unwrap_or("")
        )),
        _ => {}
    }
    j.choices = Some(legal.clone());
    let before = a.file_before.unwrap_or_default();
    let appended = match a.file_after.map(|after| after.strip_prefix(before)) {
        None => {
            j.reading = "no history file after the decision".into();
            j.refused = Some("the history file was deleted, renamed or replaced".into());
            return j;
        }
        Some(None) => {
            j.reading = "the history file was rewritten".into();
            j.refused = Some("a bot may only append to the history file".into());
            return j;
        }
        Some(Some(appended)) => appended,
    };
    let Ok(text) = std::str::from_utf8(appended) else {
        j.reading = format!("appended bytes that are not text ({appended:?})");
        j.refused = Some("the appended bytes are not text".into());
        return j;
    };
    j.reading = format!("appended {text:?}");
    let count = text.chars().count();
    if !(1..=2).contains(&count) {
        j.refused = Some(if count == 0 {
            "nothing was appended".into()
        } else {
            format!("{count} characters were appended; one action is 1 or 2")
        });
        return j;
    }
    if !legal.iter().any(|l| l == text) {
        j.refused = Some(format!("an illegal move: legal are {legal:?}"));
        return j;
    }
    if exchange && text == "\n" {
        // Completing an Exchange: stdout keeps as many of the offered cards as the hand holds.
        let offered: Vec<char> = cards.chars().collect();
        let keep = offered.len() - 2;
        let out = String::from_utf8_lossy(a.stdout);
        let out = out.trim();
        let mut left = offered.clone();
        let fits = out.chars().count() == keep
            && out
                .chars()
                .all(|c| match left.iter().position(|&o| o == c) {
                    Some(i) => {
                        left.remove(i);
                        true
                    }
                    None => false,
                });
        j.reading = format!("appended \"\\n\" and kept {out:?}");
        if !fits {
            j.refused = Some(format!(
                "an illegal exchange: stdout must hold {keep} of the offered cards {cards:?}"
            ));
        }
    }
    j
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answered<'a>(
        args: &'a [String],
        before: &'a [u8],
        after: &'a [u8],
        out: &'a [u8],
    ) -> Answered<'a> {
        Answered {
            args,
            stdin: b"",
            file_before: Some(before),
            file_after: Some(after),
            stdout: out,
        }
    }

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_legal_opening_stands_and_an_illegal_one_is_refused_with_the_list() {
        let a = args(&["h.txt", "1", "1", "$^", "I\n", "F", "E", "S", "T"]);
        let j = judge(&answered(&a, b"", b"T", b""));
        assert_eq!(j.refused, None, "{j:?}");
        assert!(j.input_notes.is_empty(), "{j:?}");
        assert_eq!(j.choices.as_deref().map(<[String]>::len), Some(5));
        let j = judge(&answered(&a, b"", b"Z", b""));
        assert!(
            j.refused
                .as_deref()
                .is_some_and(|r| r.contains("illegal move")),
            "{j:?}"
        );
        let j = judge(&answered(&a, b"", b"Tq\n", b""));
        assert!(
            j.refused
                .as_deref()
                .is_some_and(|r| r.contains("3 characters")),
            "{j:?}"
        );
        let j = judge(&answered(&a, b"x", b"yT", b""));
        assert!(j.refused.is_some());
    }

    #[test]
    fn arguments_the_rules_would_not_give_are_noted() {
        // An empty history offers the fixed opening, never `A`.
        let a = args(&["h.txt", "1", "1", "$^", "I\n", "A"]);
        let j = judge(&answered(&a, b"", b"A", b""));
        assert!(
            j.input_notes.iter().any(|n| n.contains("the rules offer")),
            "{j:?}"
        );
    }

    #[test]
    fn an_exchange_keeps_as_many_offered_cards_as_the_hand_holds() {
        let a = args(&["h.txt", "1", "1", "$^*~", "\n"]);
        assert_eq!(judge(&answered(&a, b"E", b"E\n", b"*~")).refused, None);
        assert!(judge(&answered(&a, b"E", b"E\n", b"**")).refused.is_some());
        assert!(judge(&answered(&a, b"E", b"E\n", b"*")).refused.is_some());
    }
}
