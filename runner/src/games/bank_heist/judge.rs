//! Bank Heist's reading of one hand-typed decision: the round and the credits come from the
//! arguments (2nd and 9th); the answer is read as the referee reads it, by the contest
//! text's rules.

use crate::games::judge::{Answered, Judgement};
use koth_referee_bank_heist::{decision, read};
use koth_rules::bank_heist::{Answer, Round, Variant};

/// Judge a Bank Heist decision from its 31 arguments and its stdout.
pub fn judge(a: &Answered<'_>) -> Judgement {
    let mut j = Judgement::default();
    if a.args.len() != 31 {
        j.input_notes.push(format!(
            "a Bank Heist decision has 31 arguments; these are {}",
            a.args.len()
        ));
    }
    let round = match a.args.get(1).map(String::as_str) {
        Some("1") => Round::One,
        Some("2") => Round::Two,
        other => {
            j.input_notes.push(format!(
                "the 2nd argument (the round) is {other:?}, not 1 or 2: read as round 1"
            ));
            Round::One
        }
    };
    let credits = match a.args.get(8).and_then(|c| c.parse::<u64>().ok()) {
        Some(c) => c,
        None => {
            j.input_notes
                .push("the 9th argument (its credits) is not a number: read as 0".into());
            0
        }
    };
    let stdout = String::from_utf8_lossy(a.stdout);
    let (response, failure) = read(Variant::Text, round, &stdout, credits);
    j.reading = decision(response);
    match (round, failure) {
        (_, Some(f)) => j.refused = Some(format!("{}: counted as {}", f.detail, j.reading)),
        (Round::One, None) => {
            let asked = stdout.trim();
            if asked.parse::<u64>().is_ok_and(|n| n > credits) {
                j.reading.push_str(&format!(
                    " (it printed {asked}, above its {credits} credits)"
                ));
            }
        }
        (Round::Two, None) => {
            if Answer::parse(&stdout) == Answer::Keep && stdout.trim() != Answer::Keep.as_str() {
                j.refused = Some(format!(
                    "printed {:?}, not one of the answers: it keeps its bet",
                    stdout.trim()
                ));
            }
        }
    }
    j.choices = Some(match round {
        Round::One => vec![format!("an integer from 0 to {credits}")],
        Round::Two => Answer::ALL.iter().map(|x| x.as_str().to_string()).collect(),
    });
    j
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(round: &str, credits: &str) -> Vec<String> {
        let mut v: Vec<String> = (0..31).map(|_| "0".to_string()).collect();
        v[1] = round.into();
        v[8] = credits.into();
        v
    }

    fn run(args: &[String], out: &[u8]) -> Judgement {
        judge(&Answered {
            args,
            stdin: b"",
            file_before: None,
            file_after: None,
            stdout: out,
        })
    }

    #[test]
    fn bets_and_answers_are_read_as_a_tournament_reads_them() {
        let one = args("1", "240");
        assert_eq!(run(&one, b"40\n").reading, "bet 40");
        let j = run(&one, b"900");
        assert_eq!(j.reading, "bet 240 (it printed 900, above its 240 credits)");
        assert_eq!(j.refused, None);
        let j = run(&one, b"lots");
        assert_eq!(j.reading, "bet 0");
        assert!(j.refused.is_some());
        let two = args("2", "240");
        assert_eq!(run(&two, b"double cross\n").reading, "double cross");
        assert_eq!(run(&two, b"double cross\n").refused, None);
        let j = run(&two, b"run away");
        assert_eq!(j.reading, "!guncheck");
        assert!(j.refused.is_some_and(|r| r.contains("keeps its bet")));
        assert_eq!(j.choices.map(|c| c.len()), Some(10));
        assert!(run(&args("3", "x"), b"1").input_notes.len() == 2);
    }
}
