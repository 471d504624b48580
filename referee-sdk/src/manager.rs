//! The game manager: what a turn-based referee does around its rules, written once.
//!
//! It asks a seat for a decision and reads the answer with the game's own parser. Where the
//! bot fails (a crash, a limit, an answer the rules refuse) it takes the game's default move,
//! tells koth the failure (counted on the leaderboard, explained in the replay), counts it,
//! and takes the seat out of the game past a limit of failures, if the game sets one.
//! [`Manager::ask_all`] plays simultaneous moves: every active seat decides before any move
//! is applied.

use crate::{Abort, DecisionRequest, Failure, Host, Verdict};

/// One decision as the manager read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision<T> {
    /// The seat that decided.
    pub seat: u32,
    /// The move taken: the bot's, or the game's default where the bot failed.
    pub value: T,
    /// The bot's answer as the game read it (for the replay); empty where it failed.
    pub answer: String,
    /// Why the bot's own move was not taken; `None` when it was.
    pub failure: Option<Failure>,
    /// Whether this failure took the seat out of the game.
    pub deactivated: bool,
}

impl<T> Decision<T> {
    /// The verdict koth records for this decision: the answer, the failure, and the
    /// manager's own events (the failure, the seat leaving the game) before `events`.
    pub fn verdict(&self, events: Vec<String>) -> Verdict {
        let mut all = Vec::new();
        if let Some(f) = &self.failure {
            all.push(format!(
                "seat {} fails ({}: {})",
                self.seat, f.kind, f.detail
            ));
        }
        if self.deactivated {
            all.push(format!("seat {} is out of the game", self.seat));
        }
        all.extend(events);
        Verdict {
            answer: self.answer.clone(),
            failure: self.failure.clone(),
            events: all,
        }
    }
}

/// A match's seats: their failures so far and who is still in the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manager {
    failures: Vec<u32>,
    active: Vec<bool>,
    limit: Option<u32>,
    default_note: String,
}

impl Manager {
    /// A match of `seats` seats, every one in the game, with no limit on failures.
    pub fn new(seats: usize) -> Manager {
        Manager {
            failures: vec![0; seats],
            active: vec![true; seats],
            limit: None,
            default_note: "the game's default move is taken".into(),
        }
    }

    /// Take a seat out of the game at its `limit`-th failure (at least 1).
    pub fn deactivate_after(mut self, limit: u32) -> Manager {
        self.limit = Some(limit.max(1));
        self
    }

    /// What a failure's detail says happens instead (`it defects this turn`).
    pub fn default_note(mut self, note: impl Into<String>) -> Manager {
        self.default_note = note.into();
        self
    }

    /// Whether `seat` is still in the game (a seat that does not exist is not).
    pub fn is_active(&self, seat: u32) -> bool {
        self.active.get(seat as usize).copied().unwrap_or(false)
    }

    /// The seats still in the game, in order.
    pub fn active_seats(&self) -> Vec<u32> {
        (0..self.active.len() as u32)
            .filter(|&s| self.is_active(s))
            .collect()
    }

    /// Take `seat` out of the game (the rules' own reason: it lost, it folded).
    pub fn deactivate(&mut self, seat: u32) {
        if let Some(a) = self.active.get_mut(seat as usize) {
            *a = false;
        }
    }

    /// The failures of `seat` so far.
    pub fn failures(&self, seat: u32) -> u32 {
        self.failures.get(seat as usize).copied().unwrap_or(0)
    }

    /// One decision of `request.seat`, not yet judged: the caller adds what the move made
    /// happen and judges it with [`Decision::verdict`]. `read` turns the bot's stdout into
    /// its move and the answer to record, or says why the rules refuse it; where the bot
    /// failed, the move is `default`.
    pub fn ask<T>(
        &mut self,
        host: &mut dyn Host,
        request: DecisionRequest,
        read: impl FnOnce(&[u8]) -> Result<(T, String), String>,
        default: T,
    ) -> Result<Decision<T>, Abort> {
        let seat = request.seat;
        let report = host.decide(request)?;
        let read = if report.outcome.is_ok() {
            read(&report.stdout).map_err(|why| ("bad answer".to_string(), why))
        } else {
            Err((
                report.outcome.kind().to_string(),
                report.outcome.to_string(),
            ))
        };
        Ok(match read {
            Ok((value, answer)) => Decision {
                seat,
                value,
                answer,
                failure: None,
                deactivated: false,
            },
            Err((kind, why)) => {
                let deactivated = self.fail(seat);
                Decision {
                    seat,
                    value: default,
                    answer: String::new(),
                    failure: Some(Failure {
                        kind,
                        detail: format!("{why}; {}", self.default_note),
                    }),
                    deactivated,
                }
            }
        })
    }

    /// Count a failure of `seat`; true when it takes the seat out of the game.
    fn fail(&mut self, seat: u32) -> bool {
        let Some(n) = self.failures.get_mut(seat as usize) else {
            return false;
        };
        *n += 1;
        if self.limit.is_some_and(|l| *n >= l) && self.is_active(seat) {
            self.deactivate(seat);
            return true;
        }
        false
    }

    /// Simultaneous moves: every seat in the game decides on its own `request(seat)`, in
    /// seat order, before any move is applied; each decision is judged as it is read, and
    /// `resolve` (given the host and every seat's move, to apply them) returns the events
    /// the last decision's verdict carries. A seat out of the game is not asked: its move is
    /// `default(seat)`. Returns each seat's move, by seat.
    pub fn ask_all<T>(
        &mut self,
        host: &mut dyn Host,
        mut request: impl FnMut(u32) -> DecisionRequest,
        mut read: impl FnMut(u32, &[u8]) -> Result<(T, String), String>,
        mut default: impl FnMut(u32) -> T,
        resolve: impl FnOnce(&mut dyn Host, &mut [T]) -> Result<Vec<String>, Abort>,
    ) -> Result<Vec<T>, Abort> {
        let mut moves = Vec::with_capacity(self.active.len());
        let mut last: Option<Decision<()>> = None;
        for seat in 0..self.active.len() as u32 {
            if !self.is_active(seat) {
                moves.push(default(seat));
                continue;
            }
            if let Some(d) = last.take() {
                host.judge(d.verdict(Vec::new()))?;
            }
            let mut req = request(seat);
            req.seat = seat;
            let d = self.ask(host, req, |out| read(seat, out), default(seat))?;
            moves.push(d.value);
            last = Some(Decision {
                seat: d.seat,
                value: (),
                answer: d.answer,
                failure: d.failure,
                deactivated: d.deactivated,
            });
        }
        let events = resolve(host, &mut moves)?;
        match last {
            Some(d) => host.judge(d.verdict(events))?,
            // Nobody was asked: the events go to the log, in one call.
            None => {
                let mut lines = crate::LogLines::default();
                for e in &events {
                    lines.push(e);
                }
                lines.flush(host)?;
            }
        }
        Ok(moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DecisionReport, Outcome};
    use std::collections::VecDeque;

    /// A host that answers each decision from a script and records what the referee did.
    #[derive(Default)]
    struct Script {
        answers: VecDeque<(Outcome, &'static str)>,
        asked: Vec<u32>,
        verdicts: Vec<Verdict>,
        log: Vec<String>,
    }

    impl Host for Script {
        fn decide(&mut self, request: DecisionRequest) -> Result<DecisionReport, Abort> {
            self.asked.push(request.seat);
            let (outcome, out) = self
                .answers
                .pop_front()
                .ok_or_else(|| Abort::new("the script ran out"))?;
            Ok(DecisionReport {
                outcome,
                stdout: out.as_bytes().to_vec(),
                stderr_tail: String::new(),
                fuel: 1,
            })
        }
        fn judge(&mut self, verdict: Verdict) -> Result<(), Abort> {
            // koth refuses a verdict for a decision already judged or never asked.
            if self.verdicts.len() >= self.asked.len() {
                return Err(Abort::new("judged twice"));
            }
            self.verdicts.push(verdict);
            Ok(())
        }
        fn log(&mut self, line: &str) -> Result<(), Abort> {
            self.log.push(line.into());
            Ok(())
        }
        fn read_file(&mut self, _: u32, _: &str) -> Result<Option<Vec<u8>>, Abort> {
            Ok(None)
        }
        fn write_file(&mut self, _: u32, _: &str, _: &[u8]) -> Result<(), Abort> {
            Ok(())
        }
        fn remove_file(&mut self, _: u32, _: &str) -> Result<bool, Abort> {
            Ok(false)
        }
        fn list_files(&mut self, _: u32) -> Result<Vec<(String, u64)>, Abort> {
            Ok(Vec::new())
        }
        fn random(&mut self, len: u32) -> Result<Vec<u8>, Abort> {
            Ok(vec![0; len as usize])
        }
    }

    /// A move is a digit.
    fn digit(out: &[u8]) -> Result<(u8, String), String> {
        match out {
            [d @ b'0'..=b'9', ..] => Ok((d - b'0', (*d as char).to_string())),
            _ => Err(format!("{:?} is no digit", String::from_utf8_lossy(out))),
        }
    }

    fn req(seat: u32) -> DecisionRequest {
        DecisionRequest {
            seat,
            ..DecisionRequest::default()
        }
    }

    #[test]
    fn a_failed_decision_takes_the_default_and_is_counted_until_the_seat_is_out() {
        let mut host = Script {
            answers: [
                (Outcome::Ok, "7"),
                (Outcome::Ok, "x"),
                (Outcome::OutOfFuel, ""),
            ]
            .into(),
            ..Script::default()
        };
        let mut m = Manager::new(2)
            .deactivate_after(2)
            .default_note("it plays 0");
        let d = m.ask(&mut host, req(1), digit, 0).unwrap();
        assert_eq!((d.value, d.answer.as_str(), d.failure), (7, "7", None));
        let d = m.ask(&mut host, req(1), digit, 0).unwrap();
        assert_eq!(d.value, 0);
        let f = d.failure.clone().unwrap();
        assert_eq!(f.kind, "bad answer");
        assert_eq!(f.detail, "\"x\" is no digit; it plays 0");
        assert!(!d.deactivated && m.is_active(1));
        let d = m.ask(&mut host, req(1), digit, 0).unwrap();
        assert_eq!(d.failure.as_ref().unwrap().kind, "fuel");
        assert!(d.deactivated && !m.is_active(1));
        assert_eq!((m.failures(1), m.failures(0)), (2, 0));
        assert_eq!(m.active_seats(), vec![0]);
        let v = d.verdict(vec!["then".into()]);
        assert_eq!(v.events.len(), 3, "{v:?}");
        assert!(v.events[0].starts_with("seat 1 fails (fuel: out of fuel; it plays 0)"));
        assert_eq!(v.events[1], "seat 1 is out of the game");
    }

    #[test]
    fn simultaneous_moves_ask_every_active_seat_then_resolve_once() {
        let mut host = Script {
            answers: [(Outcome::Ok, "3"), (Outcome::Trap("x".into()), "")].into(),
            ..Script::default()
        };
        let mut m = Manager::new(3);
        m.deactivate(1);
        let moves = m
            .ask_all(
                &mut host,
                req,
                |_, out| digit(out),
                |seat| 10 + seat as u8,
                |_, moves| {
                    moves[0] += 1;
                    Ok(vec![format!("moves {moves:?}")])
                },
            )
            .unwrap();
        // Seat 1 was out: not asked, its default; seat 2 trapped: its default.
        assert_eq!(host.asked, vec![0, 2]);
        assert_eq!(moves, vec![4, 11, 12]);
        assert_eq!(host.verdicts.len(), 2, "each decision judged once");
        assert_eq!(host.verdicts[0].answer, "3");
        assert!(host.verdicts[0].events.is_empty());
        let last = &host.verdicts[1];
        assert_eq!(last.failure.as_ref().unwrap().kind, "trap");
        assert_eq!(last.events.last().unwrap(), "moves [4, 11, 12]");
        // Nobody in the game: nobody asked, the events logged.
        m.deactivate(0);
        m.deactivate(2);
        let moves = m
            .ask_all(
                &mut host,
                req,
                |_, out| digit(out),
                |_| 0,
                |_, _| Ok(vec!["nobody moved".into(), "the round ends".into()]),
            )
            .unwrap();
        assert_eq!(moves, vec![0, 0, 0]);
        assert_eq!(host.log, ["nobody moved\nthe round ends"]);
    }

    /// Lines gathered for the log go in one call per flush, and a flush with none in none;
    /// an empty line is still a line.
    #[test]
    fn log_lines_go_to_the_host_in_one_call_per_flush() {
        let mut host = Script::default();
        let mut log = crate::LogLines::default();
        log.flush(&mut host).unwrap();
        assert!(host.log.is_empty());
        log.push("first");
        log.line(|l| l.push_str("second"));
        log.push("");
        log.flush(&mut host).unwrap();
        log.flush(&mut host).unwrap();
        log.push("third");
        log.flush(&mut host).unwrap();
        assert_eq!(host.log, ["first\nsecond\n", "third"]);
    }
}
