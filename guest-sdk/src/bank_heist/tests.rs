//! Parsing argv (round trips and every kind of error), bank selection, answers and
//! printing decisions.

use super::*;

/// A round-2 situation with every field away from its default.
fn busy() -> Args {
    Args {
        game: 812,
        players: 273,
        decided: 40,
        heisters: 97,
        total_bet: 1_234_567,
        confirmed: 37,
        bank: Bank::FederalReserve,
        credits: 98_765,
        my_bet: 69,
        paycheck: -3,
        employed: false,
        rank: 4,
        mean: 1234.5,
        mad: 0.333333,
        max_credits: 123_456_789,
        balances: [0, 1, 22, 333, 4444],
        probabilities: [0.54, 0.5, 0.425, 0.39, 0.987654],
        odds: [0.8, 1.1, 1.3, 1.65, 2.00001],
        ..Args::at(0, Round::Second)
    }
}

#[test]
fn parse_round_trips() {
    for args in [
        Args::at(0, Round::First),
        Args::at(3, Round::Second),
        busy(),
    ] {
        let argv = args.to_argv();
        assert_eq!(argv.len(), ARG_COUNT);
        assert_eq!(Args::parse(&argv).unwrap(), args);
    }
}

#[test]
fn parses_the_hosts_text() {
    let argv: Vec<&str> = "12 1 40 7 3 489 0 0 1000 0 239 1 2 1234.5 0.54 2000 \
                           5 0 0 0 0 0.54 0.488 0.425 0.387 0.324 0.8 1.1 1.3 1.65 1.95"
        .split(' ')
        .collect();
    let args = Args::parse(&argv).unwrap();
    assert_eq!(args.game, 12);
    assert_eq!(args.round, Round::First);
    assert!(args.is_first_round());
    assert_eq!((args.players, args.decided, args.heisters), (40, 7, 3));
    assert_eq!(
        (args.total_bet, args.confirmed, args.bank),
        (489, 0, Bank::Municipal)
    );
    assert_eq!((args.credits, args.my_bet, args.paycheck), (1000, 0, 239));
    assert!(args.employed);
    assert_eq!(
        (args.rank, args.mean, args.mad, args.max_credits),
        (2, 1234.5, 0.54, 2000)
    );
    assert_eq!(args.balance_at(Bank::Municipal), 5);
    assert_eq!(args.probability_at(Bank::City), 0.488);
    assert_eq!(args.odds_at(Bank::FederalReserve), 1.95);
}

/// Under `koth bank-heist --rules original` the mean and deviation come as integers, and the
/// negative probability a finger's penalty can leave is passed as it is.
#[test]
fn parses_the_original_rules_text() {
    let argv: Vec<&str> = "950 2 31 4 31 3100 4 1 1000 1 622 1 2 493 337 2000 \
                           5 0 0 0 0 -0.01 0.488 0.425 0.387 0.324 -0.25 1.1 1.3 1.65 1.95"
        .split(' ')
        .collect();
    let args = Args::parse(&argv).unwrap();
    assert_eq!((args.mean, args.mad), (493.0, 337.0));
    assert_eq!((args.players, args.heisters, args.paycheck), (31, 31, 622));
    assert_eq!(args.probability_at(Bank::Municipal), -0.01);
    assert_eq!(args.odds_at(Bank::Municipal), -0.25);
}

#[test]
fn errors_name_the_argument() {
    let good = busy().to_argv();
    let bad = |i: usize, value: &str| {
        let mut argv = good.clone();
        argv[i - 1] = value.to_string();
        Args::parse(&argv).unwrap_err()
    };
    for (i, value) in [
        (1, "-1"),
        (1, "x"),
        (2, "3"),
        (2, ""),
        (5, "1.5"),
        (8, "5"),
        (9, "12e3"),
        (11, "ten"),
        (12, "2"),
        (14, "NaN"),
        (15, "inf"),
        (17, "-4"),
        (26, "p"),
        (31, ""),
    ] {
        let e = bad(i, value);
        assert_eq!(e.argument(), Some(i), "{e}");
        let Error::Invalid { name, value: v, .. } = &e else {
            panic!("{e:?}");
        };
        assert_eq!(*name, ARG_NAMES[i - 1]);
        assert_eq!(v, value);
        assert!(
            e.to_string().contains(&format!("argument {i} ({name})")),
            "{e}"
        );
    }
    assert!(matches!(
        Args::parse(&good[..30]),
        Err(Error::Count { found: 30 })
    ));
    let mut long = good.clone();
    long.push("0".into());
    assert!(matches!(
        Args::parse(&long),
        Err(Error::Count { found: 32 })
    ));
    assert!(matches!(
        Args::parse::<&str>(&[]),
        Err(Error::Count { found: 0 })
    ));
}

#[test]
fn banks_follow_the_table() {
    assert_eq!(Bank::ALL.map(Bank::threshold), [0, 20, 40, 60, 80]);
    for (i, bank) in Bank::ALL.into_iter().enumerate() {
        assert_eq!(bank.index(), i);
        assert_eq!(Bank::from_index(i), Some(bank));
    }
    assert_eq!(Bank::from_index(5), None);
    assert_eq!(Bank::FederalReserve.base_probability(), 0.324);
    assert_eq!(Bank::City.base_odds(), 1.10);
    assert_eq!(Bank::FederalReserve.to_string(), "Federal Reserve");
}

#[test]
fn bank_selection() {
    for (index, bank) in [
        (0, Bank::Municipal),
        (19, Bank::Municipal),
        (20, Bank::City),
        (39, Bank::City),
        (40, Bank::State),
        (60, Bank::National),
        (79, Bank::National),
        (80, Bank::FederalReserve),
        (u64::MAX, Bank::FederalReserve),
    ] {
        assert_eq!(Bank::for_index(index), bank, "{index}");
    }
    // 100 000 credits count as one heister, whole ones only.
    assert_eq!(Bank::selection_index(10, 999_999), 19);
    assert_eq!(Bank::for_heist(10, 999_999), Bank::Municipal);
    assert_eq!(Bank::for_heist(10, 1_000_000), Bank::City);
    assert_eq!(Bank::for_heist(0, 8_000_000), Bank::FederalReserve);
    assert_eq!(Bank::for_heist(u64::MAX, u64::MAX), Bank::FederalReserve);
}

#[test]
fn answers_print_the_protocol_text() {
    let texts: Vec<&str> = Answer::ALL.iter().map(|a| a.as_str()).collect();
    assert_eq!(
        texts,
        [
            "back out",
            "all in",
            "change jobs",
            "acquire intel",
            "buy guard",
            "deposit",
            "withdraw",
            "double cross",
            "finger",
            "!guncheck"
        ]
    );
    for answer in Answer::ALL {
        assert_eq!(Answer::parse(answer.as_str()), answer);
        assert_eq!(Answer::parse(&format!("  {answer}\n")), answer);
    }
    assert_eq!(Answer::parse("Back Out"), Answer::Keep);
    assert_eq!(Answer::parse("!gunHeCK"), Answer::Keep);
    assert_eq!(Answer::parse(""), Answer::Keep);
}

#[test]
fn run_prints_the_decision_for_the_round() {
    let mut out = Vec::new();
    let argv = Args::at(0, Round::First).to_argv();
    let d = run_with(&argv, &mut out, |args| Decision::Bet(args.credits / 10)).unwrap();
    assert_eq!(d, Decision::Bet(24));
    assert_eq!(out, b"24\n");

    let mut out = Vec::new();
    let argv = Args::at(0, Round::Second).to_argv();
    run_with(&argv, &mut out, |_| Answer::DoubleCross.into()).unwrap();
    assert_eq!(out, b"double cross\n");
}

#[test]
fn run_refuses_the_wrong_round_and_bad_argv() {
    let mut out = Vec::new();
    let argv = Args::at(0, Round::First).to_argv();
    let e = run_with(&argv, &mut out, |_| Answer::Keep.into()).unwrap_err();
    assert!(
        matches!(
            e,
            Error::WrongRound {
                round: Round::First,
                ..
            }
        ),
        "{e}"
    );
    let argv = Args::at(0, Round::Second).to_argv();
    let e = run_with(&argv, &mut out, |_| 5.into()).unwrap_err();
    assert!(
        matches!(
            e,
            Error::WrongRound {
                round: Round::Second,
                ..
            }
        ),
        "{e}"
    );
    let e = run_with(&["1"], &mut out, |_| 5.into()).unwrap_err();
    assert!(matches!(e, Error::Count { found: 1 }), "{e}");
    assert!(out.is_empty());
}
