//! HeistMaster: placeholder.

use koth_guest::bank_heist::{run, Answer, Args, Decision, Round};

fn decide(args: &Args) -> Decision {
    match args.round {
        Round::First => Decision::Bet(0),
        Round::Second => Answer::Keep.into(),
    }
}

fn main() {
    run(decide);
}
