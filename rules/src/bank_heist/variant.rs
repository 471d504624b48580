//! Whose arithmetic a tournament follows: the contest's text, or its author's controller.
//!
//! `docs/games/bank-heist.md` restates the contest's text and settles what it leaves open
//! ([`Variant::Text`], the default). The published standings came from the author's Python 2
//! controller, whose integer division and choices of its own differ from the text; the spec
//! lists every difference in "The original controller's arithmetic", and
//! [`Variant::Original`] applies them all.

use std::fmt;

/// A rabble player's possible bets (which one, [`Variant::rabble_bet`] says).
pub const RABBLE_BETS: [u64; 4] = [69, 420, 6969, 80085];

/// The arithmetic a tournament follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Variant {
    /// The contest's text, as the spec restates and settles it.
    #[default]
    Text,
    /// The contest author's controller, as the spec's "original controller" section lists
    /// its differences.
    Original,
}

impl Variant {
    /// Both, the default first.
    pub const ALL: [Variant; 2] = [Variant::Text, Variant::Original];

    /// Its name on the command line and in manifests: `text` or `original`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Text => "text",
            Variant::Original => "original",
        }
    }

    /// The variant a name stands for.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    /// True for the default, [`Variant::Text`] (which manifests leave unsaid, so that they
    /// read as they did before the variants existed).
    pub fn is_text(&self) -> bool {
        *self == Variant::Text
    }

    /// The round-1 bet a bot's output means, or `None` when the output is not a bet at all
    /// (which counts as 0 and is logged as a failure).
    ///
    /// - `Text`: an unsigned integer after trimming surrounding whitespace; more than the
    ///   credits counts as all of them ([`parse_bet`](super::parse_bet)).
    /// - `Original`: anything Python's `int()` reads (a sign, then digits, surrounding
    ///   whitespace trimmed), clamped to `0..=credits`: `-5` bets 0 and `+3` bets 3.
    pub fn read_bet(self, output: &str, credits: u64) -> Option<u64> {
        let text = output.trim();
        match self {
            Variant::Text => {
                let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
                digits.then(|| super::parse_bet(text, credits))
            }
            Variant::Original => {
                let (negative, digits) = match text.as_bytes().first() {
                    Some(b'-') => (true, &text[1..]),
                    Some(b'+') => (false, &text[1..]),
                    _ => (false, text),
                };
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                if negative {
                    return Some(0);
                }
                // Python's integers have no bound: a number too large for u64 is above any
                // credits.
                Some(digits.parse::<u64>().map_or(credits, |n| n.min(credits)))
            }
        }
    }

    /// What a rabble player with `credits` bets when it decides to bet.
    ///
    /// - `Text`: the largest of 69, 420, 6969, 80085 that does not exceed its credits
    ///   (nothing below 69).
    /// - `Original`: 80085 if its credits are above 80085, else 6969 if above 6969, else 420 if
    ///   above 420, else 69; capped at its credits.
    pub fn rabble_bet(self, credits: u64) -> u64 {
        match self {
            Variant::Text => RABBLE_BETS
                .iter()
                .rev()
                .copied()
                .find(|&b| b <= credits)
                .unwrap_or(0),
            Variant::Original => {
                let bet = RABBLE_BETS[1..]
                    .iter()
                    .rev()
                    .copied()
                    .find(|&b| credits > b)
                    .unwrap_or(RABBLE_BETS[0]);
                bet.min(credits)
            }
        }
    }

    /// The probability that a rabble heister backs out in round 2, after `asked` heisters
    /// were asked before it, `backed_out` of whom backed out.
    ///
    /// - `Text`: 5% plus 50% of the fraction of those asked who backed out.
    /// - `Original`: never for the first heister asked; else 5% while nobody has backed out,
    ///   55% once anybody has (the controller's `0.55 - 0.5 * (numready / alreadyplayed)` in
    ///   integer division).
    pub fn rabble_back_out_chance(self, asked: u64, backed_out: u64) -> f64 {
        match self {
            Variant::Text => {
                let asked = asked as f64;
                let fraction = if asked > 0.0 {
                    backed_out as f64 / asked
                } else {
                    0.0
                };
                (0.05 + 0.5 * fraction).min(1.0)
            }
            Variant::Original if asked == 0 => 0.0,
            Variant::Original if backed_out == 0 => 0.05,
            Variant::Original => 0.55,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_text_is_the_default() {
        for v in Variant::ALL {
            assert_eq!(Variant::from_name(v.name()), Some(v));
            assert_eq!(v.to_string(), v.name());
        }
        assert_eq!(Variant::from_name("Original"), None);
        assert_eq!(Variant::default(), Variant::Text);
        assert!(Variant::Text.is_text() && !Variant::Original.is_text());
    }

    /// (output, credits, text's bet, the original's bet); `None` is "not a bet".
    #[test]
    fn bets_as_each_variant_reads_them() {
        let table: [(&str, u64, Option<u64>, Option<u64>); 14] = [
            ("69\n", 240, Some(69), Some(69)),
            ("  0 ", 240, Some(0), Some(0)),
            ("1000", 240, Some(240), Some(240)),
            ("99999999999999999999999", 240, Some(240), Some(240)),
            ("007", 240, Some(7), Some(7)),
            ("-5", 240, None, Some(0)),
            ("+3", 240, None, Some(3)),
            ("-99999999999999999999999", 240, None, Some(0)),
            ("-0", 240, None, Some(0)),
            ("", 240, None, None),
            ("-", 240, None, None),
            ("1.5", 240, None, None),
            ("12 13", 240, None, None),
            ("0x10", 240, None, None),
        ];
        for (output, credits, text, original) in table {
            assert_eq!(Variant::Text.read_bet(output, credits), text, "{output:?}");
            assert_eq!(
                Variant::Original.read_bet(output, credits),
                original,
                "{output:?}"
            );
        }
        assert_eq!(Variant::Original.read_bet("+-3", 240), None);
        assert_eq!(Variant::Original.read_bet("- 3", 240), None);
    }

    /// (credits, text's bet, the original's bet).
    #[test]
    fn rabble_bets_as_each_variant_sizes_them() {
        let table: [(u64, u64, u64); 12] = [
            (0, 0, 0),
            (50, 0, 50),
            (68, 0, 68),
            (69, 69, 69),
            (240, 69, 69),
            (420, 420, 69),
            (421, 420, 420),
            (6969, 6969, 420),
            (6970, 6969, 6969),
            (80085, 80085, 6969),
            (80086, 80085, 80085),
            (10_000_000, 80085, 80085),
        ];
        for (credits, text, original) in table {
            assert_eq!(Variant::Text.rabble_bet(credits), text, "{credits}");
            assert_eq!(Variant::Original.rabble_bet(credits), original, "{credits}");
        }
    }

    /// (asked before, backed out of those, text's chance, the original's chance).
    #[test]
    fn rabble_back_out_chances() {
        let table: [(u64, u64, f64, f64); 7] = [
            (0, 0, 0.05, 0.0),
            (1, 0, 0.05, 0.05),
            (10, 0, 0.05, 0.05),
            (1, 1, 0.55, 0.55),
            (4, 1, 0.175, 0.55),
            (10, 9, 0.5, 0.55),
            (200, 2, 0.055, 0.55),
        ];
        for (asked, backed_out, text, original) in table {
            let t = Variant::Text.rabble_back_out_chance(asked, backed_out);
            let o = Variant::Original.rabble_back_out_chance(asked, backed_out);
            assert!((t - text).abs() < 1e-12, "{asked} {backed_out}: {t}");
            assert_eq!(o, original, "{asked} {backed_out}");
        }
    }
}
