//! The five banks and which one a heist robs.

use std::fmt;

/// A bank, from the rules' table (docs/games/bank-heist.md). The probability and odds here are the starting values;
/// a bot's own (changed by guards and intel) are in [`Args`](super::Args).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bank {
    /// Bank 0: threshold 0, victory probability 0.540, odds 0.80.
    Municipal,
    /// Bank 1: threshold 20, victory probability 0.488, odds 1.10.
    City,
    /// Bank 2: threshold 40, victory probability 0.425, odds 1.30.
    State,
    /// Bank 3: threshold 60, victory probability 0.387, odds 1.65.
    National,
    /// Bank 4: threshold 80, victory probability 0.324, odds 1.95.
    FederalReserve,
}

/// How many credits bet count as one more heister in the bank index.
pub const CREDITS_PER_HEISTER: u64 = 100_000;

impl Bank {
    /// All banks, by index.
    pub const ALL: [Bank; 5] = [
        Bank::Municipal,
        Bank::City,
        Bank::State,
        Bank::National,
        Bank::FederalReserve,
    ];

    /// The bank's number, 0..=4 (argument 8, and the position in the per-bank arrays).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The bank with this number, if it is one (0..=4).
    pub const fn from_index(index: usize) -> Option<Bank> {
        if index < Bank::ALL.len() {
            Some(Bank::ALL[index])
        } else {
            None
        }
    }

    /// The least selection index that robs this bank.
    pub const fn threshold(self) -> u64 {
        [0, 20, 40, 60, 80][self as usize]
    }

    /// The starting victory probability at this bank.
    pub const fn base_probability(self) -> f64 {
        [0.540, 0.488, 0.425, 0.387, 0.324][self as usize]
    }

    /// The starting odds at this bank: a win pays the stake times these, on top of it.
    pub const fn base_odds(self) -> f64 {
        [0.80, 1.10, 1.30, 1.65, 1.95][self as usize]
    }

    /// The bank robbed at selection index `index`: the one with the highest threshold the
    /// index reaches.
    pub fn for_index(index: u64) -> Bank {
        Bank::ALL
            .into_iter()
            .rev()
            .find(|bank| index >= bank.threshold())
            .unwrap_or(Bank::Municipal)
    }

    /// The selection index of a heist: heisters plus one per whole 100 000 credits bet.
    pub const fn selection_index(heisters: u64, total_bet: u64) -> u64 {
        heisters.saturating_add(total_bet / CREDITS_PER_HEISTER)
    }

    /// The bank robbed by `heisters` heisters betting `total_bet` credits in all.
    pub fn for_heist(heisters: u64, total_bet: u64) -> Bank {
        Bank::for_index(Bank::selection_index(heisters, total_bet))
    }

    /// The bank's name as the rules write it.
    pub const fn name(self) -> &'static str {
        ["Municipal", "City", "State", "National", "Federal Reserve"][self as usize]
    }
}

impl fmt::Display for Bank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn banks_are_chosen_by_the_highest_threshold_reached() {
        assert_eq!(Bank::for_heist(0, 0), Bank::Municipal);
        assert_eq!(Bank::for_heist(19, 99_999), Bank::Municipal);
        assert_eq!(Bank::for_heist(19, 100_000).index(), 1);
        assert_eq!(Bank::for_heist(20, 0).index(), 1);
        assert_eq!(Bank::for_heist(39, 0).index(), 1);
        assert_eq!(Bank::for_heist(40, 0).index(), 2);
        assert_eq!(Bank::for_heist(1, 5_900_000).index(), 3);
        assert_eq!(Bank::for_heist(80, 0).index(), 4);
        assert_eq!(Bank::for_heist(u64::MAX, u64::MAX).index(), 4);
    }
}
