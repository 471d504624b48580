//! Runs every Bank Heist bot natively, as a process per decision the way the host invokes
//! it (31 arguments after its name, no directory, nothing kept between runs): over hand-built
//! situations and situations drawn from several seeds, each answer must be valid protocol
//! (round 1: a non-negative integer; round 2: one of the answers' exact texts), with exit
//! status 0 and nothing on stderr. Then a few situations per bot pin down its logic.

use koth_guest::bank_heist::{Answer, Args, Bank, Round};
use koth_guest::Rng;
use std::path::PathBuf;
use std::process::Command;

/// Every Bank Heist bot binary, by name.
fn bots() -> Vec<(&'static str, PathBuf)> {
    vec![
        ("lurker", env!("CARGO_BIN_EXE_lurker").into()),
        ("passive_panga", env!("CARGO_BIN_EXE_passive_panga").into()),
        (
            "kaylorr_criterion",
            env!("CARGO_BIN_EXE_kaylorr_criterion").into(),
        ),
        ("gun_heck", env!("CARGO_BIN_EXE_gun_heck").into()),
        (
            "monis_addiction",
            env!("CARGO_BIN_EXE_monis_addiction").into(),
        ),
        ("heckusumer", env!("CARGO_BIN_EXE_heckusumer").into()),
        (
            "oc_random_tpyos",
            env!("CARGO_BIN_EXE_oc_random_tpyos").into(),
        ),
        ("hard_hat_umar", env!("CARGO_BIN_EXE_hard_hat_umar").into()),
        (
            "limeade_sneaktar",
            env!("CARGO_BIN_EXE_limeade_sneaktar").into(),
        ),
        ("snitcher_king", env!("CARGO_BIN_EXE_snitcher_king").into()),
        ("rays_five01k", env!("CARGO_BIN_EXE_rays_five01k").into()),
        ("lonely_john", env!("CARGO_BIN_EXE_lonely_john").into()),
        ("heist_master", env!("CARGO_BIN_EXE_heist_master").into()),
    ]
}

fn exe(name: &str) -> PathBuf {
    bots()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, exe)| exe)
        .unwrap_or_else(|| panic!("no bot {name}"))
}

/// What a bot said, as the host reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Said {
    Bet(u64),
    Answer(Answer),
}

/// Runs `name` on `args` and checks the answer is valid protocol for the round.
fn ask(name: &str, args: &Args) -> Said {
    let output = Command::new(exe(name))
        .args(args.to_argv())
        .env_clear()
        .output()
        .unwrap_or_else(|e| panic!("{name}: spawn: {e}"));
    let context = format!("{name} on {args:?}");
    assert!(output.status.success(), "{context}: {:?}", output.status);
    assert!(
        output.stderr.is_empty(),
        "{context}: stderr {:?}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).expect("stdout is UTF-8");
    let text = stdout.trim();
    match args.round {
        Round::First => {
            // The host takes any run of digits (above the credits counts as all of them).
            assert!(
                !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()),
                "{context}: bet {stdout:?}"
            );
            Said::Bet(text.parse().unwrap_or(u64::MAX))
        }
        Round::Second => {
            let answer = Answer::parse(text);
            assert_eq!(answer.as_str(), text, "{context}: answer {stdout:?}");
            Said::Answer(answer)
        }
    }
}

/// Hand-built situations: the edges of every argument a port looks at.
fn hand_built() -> Vec<Args> {
    let mut out = Vec::new();
    for round in [Round::First, Round::Second] {
        for game in [0, 499, 500, 799, 800, 899, 900, 1099] {
            out.push(Args::at(game, round));
        }
        let base = Args::at(50, round);
        out.push(Args {
            credits: 0,
            paycheck: 0,
            employed: false,
            ..base.clone()
        });
        out.push(Args {
            credits: 1,
            rank: 13,
            ..base.clone()
        });
        out.push(Args {
            credits: u64::MAX / 4,
            max_credits: u64::MAX / 4,
            ..base.clone()
        });
        out.push(Args {
            players: 513,
            decided: 512,
            heisters: 300,
            total_bet: 20_000_000,
            confirmed: if round == Round::Second { 1 } else { 0 },
            bank: Bank::FederalReserve,
            probabilities: [0.99; 5],
            odds: [0.0; 5],
            balances: [7; 5],
            ..base.clone()
        });
    }
    out
}

/// A situation drawn at random: consistent counts, any bank, credits from 0 to millions.
fn drawn(rng: &mut Rng) -> Args {
    let round = if rng.chance(1, 2) {
        Round::First
    } else {
        Round::Second
    };
    let players = 13 + rng.below(501) as u32;
    let decided = rng.below(u64::from(players)) as u32;
    let mut args = Args::at(rng.below(1100) as u32, round);
    args.players = players;
    let credits = [0, 1, 69, 70, 240, 5_000, 123_456, 40_000_000];
    args.credits = credits[rng.index(credits.len())];
    args.employed = rng.chance(1, 2);
    args.paycheck = rng.below(300) as i64;
    args.rank = 1 + rng.below(13) as u32;
    args.max_credits = args.credits.max(rng.below(10_000_000));
    args.mean = rng.below(1_000_000) as f64 / 4.0;
    args.mad = rng.below(1_000_000) as f64 / 8.0;
    args.balances = [0; 5].map(|_| {
        if rng.chance(1, 3) {
            rng.below(100_000)
        } else {
            0
        }
    });
    args.probabilities =
        Bank::ALL.map(|b| b.base_probability() + rng.unit() * (1.0 - b.base_probability()));
    args.odds = Bank::ALL.map(|b| b.base_odds() * (0.5 + rng.unit()));
    match round {
        Round::First => {
            args.decided = decided;
            args.heisters = rng.below(u64::from(decided) + 1) as u32;
            args.total_bet = u64::from(args.heisters) * rng.below(80_086);
            args.bank = Bank::for_heist(u64::from(args.heisters), args.total_bet);
        }
        Round::Second => {
            args.heisters = 1 + decided;
            args.decided = rng.below(u64::from(args.heisters)) as u32;
            args.confirmed = rng.below(u64::from(args.decided) + 1) as u32;
            args.total_bet = u64::from(args.heisters) * (1 + rng.below(80_085));
            args.bank = Bank::for_heist(u64::from(args.heisters), args.total_bet);
            args.my_bet = 1 + rng.below(args.credits.max(1));
        }
    }
    args
}

#[test]
fn every_bot_answers_validly_everywhere() {
    let mut situations = hand_built();
    for seed in 0..4 {
        let mut rng = Rng::from_seed(seed);
        situations.extend((0..15).map(|_| drawn(&mut rng)));
    }
    let handles: Vec<_> = bots()
        .into_iter()
        .map(|(name, _)| {
            let situations = situations.clone();
            std::thread::spawn(move || {
                for args in &situations {
                    ask(name, args);
                }
                situations.len()
            })
        })
        .collect();
    let checked: usize = handles.into_iter().map(|h| h.join().unwrap()).sum();
    assert_eq!(checked, 13 * situations.len());
    assert!(situations.len() > 80, "{}", situations.len());
}

#[test]
fn bots_fail_cleanly_on_bad_argv() {
    let mut bad = Args::at(3, Round::First).to_argv();
    bad[8] = "lots".into();
    for (name, exe) in bots() {
        for argv in [vec![], vec!["1".to_string()], bad.clone()] {
            let output = Command::new(&exe).args(&argv).env_clear().output().unwrap();
            assert_eq!(output.status.code(), Some(1), "{name} on {argv:?}");
            assert!(output.stdout.is_empty(), "{name} printed on {argv:?}");
        }
    }
}

fn r1(game: u32) -> Args {
    Args::at(game, Round::First)
}

fn r2(game: u32) -> Args {
    Args::at(game, Round::Second)
}

#[test]
fn lurker_never_bets() {
    for args in hand_built().iter().filter(|a| a.round == Round::First) {
        assert_eq!(ask("lurker", args), Said::Bet(0));
    }
}

#[test]
fn passive_panga_and_heckusumer_bet_their_constants() {
    let with = |credits| Args { credits, ..r1(5) };
    assert_eq!(ask("passive_panga", &with(70)), Said::Bet(69));
    assert_eq!(ask("passive_panga", &with(69)), Said::Bet(0));
    assert_eq!(ask("passive_panga", &r2(5)), Said::Answer(Answer::Keep));
    assert_eq!(ask("heckusumer", &with(1859)), Said::Bet(185));
    assert_eq!(ask("heckusumer", &with(9)), Said::Bet(0));
}

#[test]
fn kelly_bots_wait_bet_and_back_out() {
    let early = Args {
        players: 100,
        decided: 36,
        heisters: 10,
        total_bet: 690,
        ..r1(5)
    };
    let one_bettor = Args {
        players: 20,
        decided: 20,
        heisters: 1,
        total_bet: 69,
        credits: 1000,
        ..r1(5)
    };
    let kelly = ((0.488 * 2.1 - 1.0) / 1.1 * 1000.0) as u64;
    for bot in ["kaylorr_criterion", "gun_heck"] {
        assert_eq!(ask(bot, &early), Said::Bet(0));
        assert_eq!(ask(bot, &one_bettor), Said::Bet(kelly));
    }
    let losing = Args {
        heisters: 100,
        total_bet: 10_000,
        decided: 50,
        confirmed: 50,
        credits: 100_000,
        bank: Bank::FederalReserve,
        ..r2(5)
    };
    assert_eq!(
        ask("kaylorr_criterion", &losing),
        Said::Answer(Answer::BackOut)
    );
    assert_eq!(ask("gun_heck", &losing), Said::Answer(Answer::Keep));
}

#[test]
fn monis_addiction_goes_all_in_unless_first() {
    for _ in 0..10 {
        let bet = ask("monis_addiction", &r1(5));
        assert!(matches!(bet, Said::Bet(1 | 69)), "{bet:?}");
    }
    let at = |rank, my_bet| Args {
        rank,
        my_bet,
        ..r2(5)
    };
    assert_eq!(
        ask("monis_addiction", &at(2, 69)),
        Said::Answer(Answer::AllIn)
    );
    assert_eq!(
        ask("monis_addiction", &at(1, 1)),
        Said::Answer(Answer::BackOut)
    );
    assert_eq!(
        ask("monis_addiction", &at(1, 69)),
        Said::Answer(Answer::Keep)
    );
}

#[test]
fn oc_random_tpyos_invests_then_goes_all_in() {
    let bot = "oc_random_tpyos";
    assert_eq!(ask(bot, &r2(10)), Said::Answer(Answer::ChangeJobs));
    let jobless = Args {
        employed: false,
        ..r2(10)
    };
    let said = ask(bot, &jobless);
    assert!(
        matches!(said, Said::Answer(Answer::AcquireIntel | Answer::BuyGuard)),
        "{said:?}"
    );
    assert_eq!(
        ask(bot, &Args { rank: 4, ..r2(900) }),
        Said::Answer(Answer::AllIn)
    );
    assert_eq!(
        ask(
            bot,
            &Args {
                credits: 1001,
                ..r1(800)
            }
        ),
        Said::Bet(250)
    );
    assert_eq!(ask(bot, &Args { rank: 4, ..r1(800) }), Said::Bet(1));
}

#[test]
fn job_changers_and_double_crosser() {
    assert_eq!(ask("hard_hat_umar", &r1(899)), Said::Bet(1));
    assert_eq!(ask("hard_hat_umar", &r1(900)), Said::Bet(0));
    assert_eq!(
        ask("hard_hat_umar", &r2(950)),
        Said::Answer(Answer::ChangeJobs)
    );
    assert_eq!(ask("limeade_sneaktar", &r1(950)), Said::Bet(1));
    assert_eq!(
        ask("limeade_sneaktar", &r2(10)),
        Said::Answer(Answer::ChangeJobs)
    );
    assert_eq!(
        ask("limeade_sneaktar", &r2(950)),
        Said::Answer(Answer::DoubleCross)
    );
    let jobless = Args {
        employed: false,
        ..r2(10)
    };
    assert_eq!(
        ask("limeade_sneaktar", &jobless),
        Said::Answer(Answer::DoubleCross)
    );
}

#[test]
fn snitcher_king_fingers() {
    assert_eq!(ask("snitcher_king", &r1(0)), Said::Bet(1));
    assert_eq!(ask("snitcher_king", &r2(0)), Said::Answer(Answer::Finger));
}

#[test]
fn rays_five01k_deposits_then_withdraws() {
    let bot = "rays_five01k";
    assert_eq!(
        ask(
            bot,
            &Args {
                credits: 259,
                ..r1(10)
            }
        ),
        Said::Bet(25)
    );
    assert_eq!(ask(bot, &r1(900)), Said::Bet(1));
    assert_eq!(ask(bot, &r2(600)), Said::Answer(Answer::Deposit));
    let mut late = Args {
        players: 100,
        bank: Bank::State,
        ..r2(950)
    };
    late.balances[Bank::State.index()] = 10;
    assert_eq!(ask(bot, &late), Said::Answer(Answer::Withdraw));
    late.balances = [0; 5];
    late.decided = 49;
    assert_eq!(ask(bot, &late), Said::Answer(Answer::Finger));
    late.decided = 50;
    assert_eq!(ask(bot, &late), Said::Answer(Answer::BackOut));
}

#[test]
fn lonely_john_guards_then_goes_all_in() {
    let bot = "lonely_john";
    assert_eq!(
        ask(
            bot,
            &Args {
                credits: 241,
                ..r1(10)
            }
        ),
        Said::Bet(120)
    );
    let mut args = Args {
        bank: Bank::City,
        ..r2(10)
    };
    assert_eq!(ask(bot, &args), Said::Answer(Answer::BuyGuard));
    args.probabilities[Bank::City.index()] = 0.61;
    assert_eq!(ask(bot, &args), Said::Answer(Answer::AllIn));
}

#[test]
fn heist_master_guards_then_fingers() {
    let bot = "heist_master";
    assert_eq!(ask(bot, &r1(0)), Said::Bet(1));
    let fed = Args {
        bank: Bank::FederalReserve,
        max_credits: 1_000_000,
        ..r2(100)
    };
    assert_eq!(ask(bot, &fed), Said::Answer(Answer::BuyGuard));
    assert_eq!(
        ask(
            bot,
            &Args {
                game: 400,
                ..fed.clone()
            }
        ),
        Said::Answer(Answer::Finger)
    );
    assert_eq!(
        ask(
            bot,
            &Args {
                bank: Bank::City,
                ..fed
            }
        ),
        Said::Answer(Answer::Finger)
    );
    // Nobody got rich: nobody double crosses, stay out.
    let quiet = Args {
        credits: 2_000,
        max_credits: 3_000,
        ..r1(20)
    };
    assert_eq!(ask(bot, &quiet), Said::Bet(0));
}
