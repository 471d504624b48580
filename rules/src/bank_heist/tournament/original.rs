//! A game's heist resolved and paid as the contest author's controller did it
//! ([`Variant::Original`](crate::bank_heist::Variant::Original)), step by step as
//! `docs/games/bank-heist.md` lists it under "The original controller's rules".
//!
//! The controller's amounts can go below zero in the middle of a game (a finger takes a
//! sixth of a double crosser's credits before the double crosser's own stake leaves them;
//! odds lowered by failed fingers can fall below −1, which makes winnings negative), so
//! credits, winnings and the pot are signed here, with Python's arithmetic: `int()` of a
//! float truncates toward zero, integer division rounds toward −∞. Every player ends the game
//! at 0 or more, as in the controller (a negative balance costs guards and becomes 0).
//!
//! Two choices where the controller is not reachable exactly:
//!
//! - Its draws come from Python's global generator; here they come from the tournament's
//!   own, one draw per decision the controller makes by chance (dice, hiring, the finger's
//!   draws, lost guards), so a tournament reproduces the controller's distributions, not its
//!   exact games.
//! - A deposit of negative winnings (odds below −1 at that bank and a won heist) would make
//!   the controller's account negative; here the account stops at 0.

use super::{Answer, Guard, Tournament, Who, FINGER_DRAWS, PAYDAY_LOAN};
use crate::bank_heist::Event;
use rand::seq::SliceRandom;
use rand::Rng;

/// Python's `int(x)` for a float: toward zero, saturating at the ends of i64.
fn trunc(x: f64) -> i64 {
    x as i64
}

/// Python's `a // b`: rounds toward −∞. `b` is never 0 where the rules divide.
fn floor_div(a: i128, b: i128) -> i64 {
    let q = a.div_euclid(b);
    // div_euclid rounds toward −∞ for b > 0; for b < 0 Python's floor is the other side when
    // there is a remainder.
    let q = if b < 0 && a.rem_euclid(b) != 0 {
        q + 1
    } else {
        q
    };
    i64::try_from(q).unwrap_or(if q < 0 { i64::MIN } else { i64::MAX })
}

impl Tournament {
    /// A uniform draw below `p` (Python's `random.random() < p`): any `p` is allowed, as the
    /// controller's probabilities may leave 0..=1 (a finger's penalty can make one negative).
    fn below(&mut self, p: f64) -> bool {
        self.rng.random::<f64>() < p
    }

    /// Resolve the game's heist and pay every player of the game, the original way.
    /// `round_one` is every seat in round-1 order (the controller resolves and pays in it);
    /// `round_two` the heisters in round-2 order.
    pub(super) fn finish_original(&mut self, round_one: &[usize], round_two: &[usize]) {
        let bank = self.cur.bank;
        let seats = self.cur.seats.clone();
        let n = seats.len();
        let answers: Vec<Answer> = (0..n)
            .map(|s| self.cur.answers[s].unwrap_or(Answer::Keep))
            .collect();
        let stayed = round_two
            .iter()
            .filter(|&&s| answers[s] != Answer::BackOut)
            .count();
        // s // h: 1 when nobody backed out, else 0.
        let multiplier = if !round_two.is_empty() && stayed == round_two.len() {
            1.0
        } else {
            0.0
        };
        // The bots that stayed in: the finger's draws and the double cross's threshold.
        let real: Vec<usize> = round_two
            .iter()
            .copied()
            .filter(|&s| matches!(seats[s], Who::Bot(_)) && answers[s] != Answer::BackOut)
            .collect();
        let crossers: Vec<usize> = real
            .iter()
            .copied()
            .filter(|&s| answers[s] == Answer::DoubleCross)
            .collect();
        let dc_success = crossers.len() == 1 || (1..=real.len() / 10).contains(&crossers.len());
        if !round_two.is_empty() {
            self.events.push(Event::Results);
        }

        let before: i128 = seats.iter().map(|&w| self.worth(w)).sum();
        let mut credits: Vec<i64> = seats
            .iter()
            .map(|&w| i64::try_from(self.person(w).credits).unwrap_or(i64::MAX))
            .collect();
        let mut winnings = vec![0i64; n];
        let mut fingered = vec![false; n];
        let mut found = vec![false; n];
        let mut pot: i64 = 0;

        // The heist, every player in round-1 order.
        for &s in round_one {
            let who = seats[s];
            let answer = answers[s];
            let heister = self.cur.bets[s] > 0 && answer != Answer::BackOut;
            let p = self.person(who).probability[bank];
            let odds = self.person(who).odds[bank];
            if heister && answer == Answer::AllIn {
                // Alone, with its own probability, no stake taken: it ends with its odds
                // times its credits and the loan, or nothing.
                let won = self.below(p);
                credits[s] = if won {
                    trunc(odds * (credits[s] as f64 + PAYDAY_LOAN as f64))
                } else {
                    0
                };
                self.heist_event(who, won.then_some(0));
            } else if heister {
                let bet = i64::try_from(self.cur.bets[s]).unwrap_or(i64::MAX);
                credits[s] -= bet;
                let won = self.below(multiplier * p);
                if won {
                    // The stake included.
                    winnings[s] = trunc((odds + 1.0) * bet as f64);
                    let person = self.person_mut(who);
                    match answer {
                        Answer::AcquireIntel => {
                            person.odds[bank] += 0.00001 * winnings[s] as f64;
                            winnings[s] = 0;
                        }
                        Answer::Deposit => {
                            let b = &mut person.balance[bank];
                            *b = b.saturating_add_signed(std::mem::take(&mut winnings[s]));
                        }
                        Answer::Withdraw => {
                            let balance = std::mem::take(&mut person.balance[bank]);
                            winnings[s] += i64::try_from(balance).unwrap_or(i64::MAX);
                        }
                        _ => {}
                    }
                    if answer == Answer::Finger {
                        for _ in 0..FINGER_DRAWS {
                            // The finger is a bot that stayed in, so `real` is not empty.
                            let drawn = real[self.rng.random_range(0..real.len())];
                            if answers[drawn] == Answer::DoubleCross && !fingered[drawn] {
                                fingered[drawn] = true;
                                found[s] = true;
                                let fine = floor_div(credits[drawn].into(), 6);
                                credits[drawn] -= fine;
                                credits[s] += fine;
                                self.person_mut(seats[drawn]).probability[bank] -= 0.05;
                            }
                        }
                        if !found[s] {
                            let f = self.person_mut(who);
                            f.odds[bank] -= 0.05;
                            f.wage -= f.wage / 20;
                        }
                    }
                    self.heist_event(who, Some(winnings[s]));
                } else {
                    self.heist_event(who, None);
                }
                let person = self.person_mut(who);
                match answer {
                    Answer::BuyGuard => {
                        let bonus = 0.01 * (1.0 - person.probability[bank]);
                        person.probability[bank] += bonus;
                        person.guards.push(Guard { bank, bonus });
                    }
                    Answer::ChangeJobs => person.employed = false,
                    _ => {}
                }
            }
            // What the heister puts in the pot.
            pot += if answer == Answer::Finger && !found[s] {
                floor_div(winnings[s].into(), 2)
            } else if (dc_success && !matches!(answer, Answer::AllIn | Answer::BackOut))
                || answer == Answer::DoubleCross
            {
                winnings[s]
            } else {
                0
            };
        }
        // Interest on every account of the game's players (only bots ever hold one).
        for &who in &seats {
            for b in self.person_mut(who).balance.iter_mut() {
                *b += *b * 14 / 1000;
            }
        }

        let unidentified = crossers.iter().filter(|&&s| !fingered[s]).count();
        let dc = if dc_success {
            floor_div(unidentified as i128 * pot as i128, crossers.len() as i128)
        } else {
            0
        };
        let straight = pot - dc;

        // Payment, every player in round-1 order.
        for &s in round_one {
            let who = seats[s];
            let answer = answers[s];
            let crosser = answer == Answer::DoubleCross;
            if crosser && (!dc_success || fingered[s]) {
                let p = self.person_mut(who);
                p.wage /= 2;
                p.employed = false;
                winnings[s] = 0;
            }
            if !self.person(who).employed && self.rng.random_range(1..=20) == 20 {
                let p = self.person_mut(who);
                p.wage += p.wage / 20;
                p.employed = true;
            }
            let p = self.person(who);
            if p.employed && !matches!(answer, Answer::BackOut | Answer::AllIn) {
                credits[s] += i64::try_from(p.wage).unwrap_or(i64::MAX);
            }
            if crosser && dc_success && !fingered[s] {
                credits[s] += winnings[s] + floor_div(dc.into(), unidentified as i128);
            } else if answer == Answer::Finger && !dc_success && found[s] {
                credits[s] += floor_div(winnings[s].into(), 2);
            } else if !dc_success {
                credits[s] += winnings[s];
            }
            if !matches!(
                answer,
                Answer::BackOut | Answer::AllIn | Answer::DoubleCross
            ) && (found[s] || answer != Answer::Finger)
                && straight != 0
            {
                credits[s] += floor_div(
                    winnings[s] as i128 * straight as i128,
                    (dc + straight) as i128,
                );
            }
            credits[s] -= self.person(who).guards.len() as i64;
            if credits[s] < 0 {
                // Bribes it cannot pay: that many guards, drawn at random, are gone.
                let mut guards = std::mem::take(&mut self.person_mut(who).guards);
                guards.shuffle(&mut self.rng);
                let lost = guards.len().min(credits[s].unsigned_abs() as usize);
                let p = self.person_mut(who);
                for g in guards.drain(guards.len() - lost..).rev() {
                    p.probability[g.bank] = (p.probability[g.bank] - 0.01) / 0.99;
                }
                p.guards = guards;
                credits[s] = 0;
            }
            self.person_mut(who).credits = credits[s].unsigned_abs();
        }
        // The controller creates and destroys credits (a failed finger's half, shares of the
        // pot paid on top of winnings): the ledger records the game's net effect.
        let after: i128 = seats.iter().map(|&w| self.worth(w)).sum();
        if after >= before {
            self.ledger.paid_in += (after - before) as u128;
        } else {
            self.ledger.paid_out += (before - after) as u128;
        }
    }

    /// Credits and accounts a player holds.
    fn worth(&self, who: Who) -> i128 {
        let p = self.person(who);
        p.credits as i128 + p.balance.iter().map(|&b| b as i128).sum::<i128>()
    }

    /// A bot's heist in the log: failed, or what it may gain.
    fn heist_event(&mut self, who: Who, gain: Option<i64>) {
        if let Who::Bot(bot) = who {
            self.events.push(Event::Heist {
                bot,
                gain: gain.map(|g| g.max(0).unsigned_abs()),
            });
        }
    }
}

#[cfg(test)]
mod tests;
