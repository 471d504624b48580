//! Euchre's reading of one hand-typed decision, from its stdin alone: the phase and the
//! lines the spec gives it (hand, points, tricks, phase, then the phase's own lines). The
//! answer is read as the referee reads it (ASCII whitespace trimmed, one token) and checked
//! against the answers the input allows; a bad one gets the spec's default.

use super::rules::{legal_plays, Card, Suit};
use crate::games::judge::{Answered, Judgement};

/// Judge a Euchre decision from its stdin and stdout.
pub fn judge(a: &Answered<'_>) -> Judgement {
    let mut j = Judgement::default();
    let input = String::from_utf8_lossy(a.stdin);
    let lines: Vec<&str> = input.lines().collect();
    let line = |i: usize| lines.get(i).copied().unwrap_or("").trim();
    let cards = |text: &str| -> Option<Vec<Card>> {
        text.split(',')
            .filter(|t| !t.is_empty())
            .map(|t| Card::parse(t.trim()))
            .collect()
    };
    let hand = cards(line(0)).unwrap_or_else(|| {
        j.input_notes.push(format!(
            "the hand line {:?} is not cards such as 9c,jh",
            line(0)
        ));
        Vec::new()
    });
    let phase = line(3);
    let suit = |i: usize| {
        let text = line(i);
        let mut chars = text.chars();
        match (chars.next().and_then(Suit::from_letter), chars.next()) {
            (Some(s), None) => Some(s),
            _ => None,
        }
    };
    // The legal answers and the default, by phase.
    let (choices, default): (Vec<String>, String) = match phase {
        "ordering" => (vec!["o".into(), "p".into()], "p".into()),
        "naming" => {
            j.input_notes.push(
                "naming: the suit of the card turned down is not in the input, and naming it is \
                 refused; the list below holds all four"
                    .into(),
            );
            let mut c = vec!["p".to_string()];
            c.extend(Suit::ALL.iter().map(|s| s.letter().to_string()));
            (c, "p".into())
        }
        "discard" => {
            // The five in hand and the card picked up (its own line).
            let mut c: Vec<String> = hand.iter().map(Card::to_string).collect();
            match Card::parse(line(4)) {
                Some(up) => c.push(up.to_string()),
                None => j.input_notes.push(format!(
                    "the picked-up card line {:?} is not a card",
                    line(4)
                )),
            }
            let first = c.first().cloned().unwrap_or_default();
            (c, first)
        }
        "alone" => (vec!["y".into(), "n".into()], "n".into()),
        "turn" => {
            let Some(trump) = suit(4) else {
                j.input_notes
                    .push(format!("the trump line {:?} is not a suit letter", line(4)));
                return j;
            };
            let played: Vec<&str> = line(5).split(',').filter(|t| !t.is_empty()).collect();
            let led = played
                .iter()
                .find(|t| t.trim() != "p")
                .and_then(|t| Card::parse(t.trim()));
            let c: Vec<String> = legal_plays(&hand, led, trump)
                .iter()
                .map(Card::to_string)
                .collect();
            let first = c.first().cloned().unwrap_or_default();
            (c, first)
        }
        "trick" => {
            j.reading = "nothing: a trick report's output is ignored".into();
            return j;
        }
        other => {
            j.input_notes.push(format!(
                "the phase line (4th) is {other:?}, not ordering, naming, discard, alone, turn or trick"
            ));
            return j;
        }
    };
    j.choices = Some(choices.clone());
    let Ok(out) = std::str::from_utf8(a.stdout) else {
        j.reading = format!("{default} (the default)");
        j.refused = Some("the output is not UTF-8 text".into());
        return j;
    };
    let text = out.trim_matches(|c: char| c.is_ascii_whitespace());
    // Cards are read as the referee reads them (`Card::parse`), tokens exactly.
    let token = match phase {
        "discard" | "turn" => Card::parse(text).map(|c| c.to_string()),
        _ => Some(text.to_string()),
    };
    match token.filter(|t| choices.contains(t)) {
        Some(t) => j.reading = t,
        None => {
            j.reading = format!("{default} (the default)");
            j.refused = Some(if text.is_empty() {
                "no answer (empty output)".into()
            } else {
                format!("{text:?} is not a legal answer to the {phase} phase")
            });
        }
    }
    j
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(stdin: &str, out: &str) -> Judgement {
        judge(&Answered {
            args: &[],
            stdin: stdin.as_bytes(),
            file_before: None,
            file_after: None,
            stdout: out.as_bytes(),
        })
    }

    #[test]
    fn each_phase_lists_its_answers_and_a_bad_one_gets_the_default() {
        let order = "kc,qs,ks,9c,qd\n0\n0\nordering\nkd\np\n";
        assert_eq!(run(order, "o\n").refused, None);
        let j = run(order, "maybe");
        assert_eq!(j.reading, "p (the default)");
        assert!(j.refused.is_some());
        // Following suit: a club was led, and the hand holds one.
        let turn = "kc,qs,ks,9c,qd\n0\n0\nturn\nh\nac\n";
        let j = run(turn, "9c");
        assert_eq!(j.refused, None, "{j:?}");
        assert_eq!(j.choices, Some(vec!["kc".to_string(), "9c".to_string()]));
        let j = run(turn, "qs");
        assert_eq!(j.reading, "kc (the default)");
        // Leading: any card.
        assert_eq!(run("kc,qs\n0\n0\nturn\nh\n\n", "qs").refused, None);
        assert_eq!(run("\n0\n0\ntrick\n0\nh\nac,kc,qc,jc\n", "").refused, None);
        assert!(!run("kc\n0\n0\nbidding\n", "o").input_notes.is_empty());
        // A discard is one of the five in hand or the card picked up.
        let discard = "js,qh,9h,qs,jd\n5\n0\ndiscard\n9d\n";
        assert_eq!(run(discard, "9d").refused, None);
        assert_eq!(run(discard, "ah").reading, "js (the default)");
    }
}
