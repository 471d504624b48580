//! The seed's worked examples, parsed from both seats, checked against the port of the
//! original arbiter's `get_legal_actions`; and writing moves to a real file.

use super::*;

/// A worked example: one line split into its writes (alternately actor, opponent, ...)
/// and the phase the writer of each is in.
struct Example {
    writes: &'static [&'static str],
    phases: &'static [Phase],
}

use Action as Ac;
use Card::*;
use LossReason::*;
use Phase::*;

const fn challenged(card: Card, block: bool) -> Phase {
    Challenged { card, block }
}

const EXAMPLES: &[Example] = &[
    Example {
        writes: &["I\n"],
        phases: &[Act],
    },
    Example {
        writes: &["F", "p", "\n"],
        phases: &[Act, Respond(Ac::ForeignAid), EndTurn],
    },
    Example {
        writes: &["C", "=", "\n"],
        phases: &[Act, LoseCard(Coup), EndTurn],
    },
    Example {
        writes: &["E", "q", "~", "<", "\n"],
        phases: &[
            Act,
            Respond(Ac::Exchange),
            challenged(Ambassador, false),
            LoseCard(FailedChallenge),
            FinishExchange { keep: 2 },
        ],
    },
    Example {
        writes: &["T", "q", "'\n"],
        phases: &[Act, Respond(Ac::Tax), challenged(Duke, false)],
    },
    Example {
        writes: &["A", "s", "q", "!", "'\n"],
        phases: &[
            Act,
            Respond(Ac::Assassinate),
            Blocked {
                action: Ac::Assassinate,
                card: Contessa,
            },
            challenged(Contessa, true),
            LoseCard(FailedChallenge),
        ],
    },
    Example {
        writes: &["A", "=", "\n"],
        phases: &[Act, Respond(Ac::Assassinate), EndTurn],
    },
    Example {
        writes: &["S", "q", "*", "0", "\n"],
        phases: &[
            Act,
            Respond(Ac::Steal),
            challenged(Captain, false),
            LoseCard(FailedChallenge),
            EndTurn,
        ],
    },
    Example {
        writes: &["S", "p", "\n"],
        phases: &[Act, Respond(Ac::Steal), EndTurn],
    },
    Example {
        writes: &["E", "p", "\n"],
        phases: &[Act, Respond(Ac::Exchange), FinishExchange { keep: 2 }],
    },
    Example {
        writes: &["T", "q", "$", "<", "\n"],
        phases: &[
            Act,
            Respond(Ac::Tax),
            challenged(Duke, false),
            LoseCard(FailedChallenge),
            EndTurn,
        ],
    },
    Example {
        writes: &["F", "d", "\n"],
        phases: &[
            Act,
            Respond(Ac::ForeignAid),
            Blocked {
                action: Ac::ForeignAid,
                card: Duke,
            },
        ],
    },
    Example {
        writes: &["F", "d", "q", "$", "<\n"],
        phases: &[
            Act,
            Respond(Ac::ForeignAid),
            Blocked {
                action: Ac::ForeignAid,
                card: Duke,
            },
            challenged(Duke, true),
            LoseCard(FailedChallenge),
        ],
    },
    Example {
        writes: &["F", "d", "q", "<", "\n"],
        phases: &[
            Act,
            Respond(Ac::ForeignAid),
            Blocked {
                action: Ac::ForeignAid,
                card: Duke,
            },
            challenged(Duke, true),
            EndTurn,
        ],
    },
    Example {
        writes: &["S", "a", "\n"],
        phases: &[
            Act,
            Respond(Ac::Steal),
            Blocked {
                action: Ac::Steal,
                card: Ambassador,
            },
        ],
    },
    Example {
        writes: &["S", "a", "q", "~", "0\n"],
        phases: &[
            Act,
            Respond(Ac::Steal),
            Blocked {
                action: Ac::Steal,
                card: Ambassador,
            },
            challenged(Ambassador, true),
            LoseCard(FailedChallenge),
        ],
    },
    Example {
        writes: &["S", "c", "q", "0", "\n"],
        phases: &[
            Act,
            Respond(Ac::Steal),
            Blocked {
                action: Ac::Steal,
                card: Captain,
            },
            challenged(Captain, true),
            EndTurn,
        ],
    },
    Example {
        writes: &["A", "s", "\n"],
        phases: &[
            Act,
            Respond(Ac::Assassinate),
            Blocked {
                action: Ac::Assassinate,
                card: Contessa,
            },
        ],
    },
    Example {
        writes: &["A", "q", "=\n"],
        phases: &[Act, Respond(Ac::Assassinate), challenged(Assassin, false)],
    },
    // The two lines that end the game without a final newline.
    Example {
        writes: &["A", "q", "^", "0"],
        phases: &[
            Act,
            Respond(Ac::Assassinate),
            challenged(Assassin, false),
            LoseCard(FailedChallenge),
        ],
    },
    Example {
        writes: &["A", "s", "q", "0"],
        phases: &[
            Act,
            Respond(Ac::Assassinate),
            Blocked {
                action: Ac::Assassinate,
                card: Contessa,
            },
            challenged(Contessa, true),
        ],
    },
    Example {
        writes: &["E", "q", "<\n"],
        phases: &[Act, Respond(Ac::Exchange), challenged(Ambassador, false)],
    },
];

/// Cards the writer of `write` must hold for the arbiter to offer it.
fn cards_for(write: &str, phase: Phase) -> Vec<Card> {
    match (Move::from_text(write), phase) {
        (_, FinishExchange { .. }) => vec![Ambassador, Assassin, Duke, Captain],
        (Some(Move::Reveal(c) | Move::Surrender(c)), _) => vec![c],
        _ => vec![Duke, Captain],
    }
}

fn args(cards: &[Card], legal: &[String]) -> Vec<String> {
    let mut a = vec![
        "history.txt".to_string(),
        "4".into(),
        "4".into(),
        cards_to_string(cards),
    ];
    a.extend(legal.iter().cloned());
    a
}

#[test]
fn every_worked_example_from_both_seats() {
    let mut checked = 0;
    for ex in EXAMPLES {
        assert_eq!(ex.writes.len(), ex.phases.len());
        // The context decides who acts: the first player after "" or "I\nI\n", the second
        // after "I\n". On an empty file the arbiter offers only `I\n F E S T`.
        let contexts = [
            ("", Seat::First),
            ("I\n", Seat::Second),
            ("I\nI\n", Seat::First),
        ];
        for (context, actor_seat) in contexts {
            if context.is_empty() && !["I\n", "F", "E", "S", "T"].contains(&ex.writes[0]) {
                continue;
            }
            for k in 0..ex.writes.len() {
                let history = format!("{context}{}", ex.writes[..k].concat());
                let cards = cards_for(ex.writes[k], ex.phases[k]);
                let legal = legal_actions(&history, &cards, 7, 4);
                assert!(
                    legal.iter().any(|l| l == ex.writes[k]),
                    "{history:?}: {:?} not in the arbiter's {legal:?}",
                    ex.writes[k]
                );
                let state = State::parse(&args(&cards, &legal), &history)
                    .unwrap_or_else(|e| panic!("{history:?}: {e}"));
                assert_eq!(state.phase(), ex.phases[k], "{history:?}");
                let i_act = k % 2 == 0;
                let other = match actor_seat {
                    Seat::First => Seat::Second,
                    Seat::Second => Seat::First,
                };
                let seat = if i_act { actor_seat } else { other };
                assert_eq!(state.seat(), seat, "{history:?}");
                assert_eq!(state.current_line(), ex.writes[..k].concat());
                if let Some(turn) = state.current_turn() {
                    let me_actor = turn.actor == Player::Me;
                    assert_eq!(me_actor, i_act, "{history:?}");
                    assert_eq!(turn.events.len(), k);
                    for (j, e) in turn.events.iter().enumerate() {
                        let by_actor = j % 2 == 0;
                        assert_eq!(e.by == turn.actor, by_actor, "{history:?} write {j}");
                        assert_eq!(Some(e.mv), Move::from_text(ex.writes[j]));
                    }
                }
                checked += 1;
            }
            // The whole line, and one more line after it where the game goes on.
            let full = format!("{context}{}", ex.writes.concat());
            let h = History::parse(&full).unwrap();
            let line = h.turns().last().unwrap();
            assert_eq!(line.events.len(), ex.writes.len(), "{full:?}");
            assert_eq!(line.text, ex.writes.concat());
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn knowledge_from_a_longer_game() {
    // First player (us, seat First since 0 writes + ... see below) and opponent alternate.
    let lines = [
        "I\n",     // first: income
        "Tp\n",    // second: tax, unchallenged
        "Sc\n",    // first: steal, second blocks as Captain, accepted
        "Tq$<\n",  // second: tax, challenged by first, Duke shown; first loses a Captain
        "Fd\n",    // first: foreign aid, blocked by a Duke
        "Asq!'\n", // second: assassinate, first blocks as Contessa; challenged, shown
    ];
    let history: String = lines.concat();
    // After six complete lines the first player acts again.
    let legal = legal_actions(&history, &[Contessa], 2, 5);
    let state = State::parse(&args(&[Contessa], &legal), &history).unwrap();
    assert_eq!(state.seat(), Seat::First);
    assert_eq!(state.phase(), Act);
    assert_eq!(state.turns().len(), 6);
    assert!(state.current_turn().is_none());
    let opp: Vec<(Card, ClaimKind, ClaimOutcome)> = state
        .opponent_claims()
        .iter()
        .map(|c| (c.card, c.kind, c.outcome))
        .collect();
    assert_eq!(
        opp,
        vec![
            (Duke, ClaimKind::Action(Ac::Tax), ClaimOutcome::Unchallenged),
            (
                Captain,
                ClaimKind::Block(Ac::Steal),
                ClaimOutcome::Unchallenged
            ),
            (Duke, ClaimKind::Action(Ac::Tax), ClaimOutcome::Proven),
            (
                Duke,
                ClaimKind::Block(Ac::ForeignAid),
                ClaimOutcome::Unchallenged
            ),
            (
                Assassin,
                ClaimKind::Action(Ac::Assassinate),
                ClaimOutcome::Unchallenged
            ),
        ]
    );
    let mine: Vec<(Card, ClaimOutcome)> = state
        .my_claims()
        .iter()
        .map(|c| (c.card, c.outcome))
        .collect();
    assert_eq!(
        mine,
        vec![
            (Captain, ClaimOutcome::Unchallenged),
            (Contessa, ClaimOutcome::Proven)
        ]
    );
    assert_eq!(state.opponent_revealed(), vec![Duke]);
    assert_eq!(state.history().revealed(Player::Me), vec![Contessa]);
    assert_eq!(state.my_lost(), vec![Captain]);
    assert_eq!(state.opponent_lost(), vec![Assassin]);
    assert_eq!(state.opponent_card_count(), 1);
    assert_eq!(state.my_card_count(), 1);
    let unseen = state.unseen();
    assert_eq!(unseen.get(Captain), 2);
    assert_eq!(unseen.get(Assassin), 2);
    assert_eq!(unseen.get(Contessa), 2);
    assert_eq!(unseen.total(), 12);
    assert_eq!(state.history().writes(Player::Me), 10);
    assert_eq!(state.history().writes(Player::Opponent), 10);
    assert_eq!(state.turns()[1].actor, Player::Opponent);
    assert_eq!(state.turns()[2].block(), Some(Captain));
    assert_eq!(state.turns()[3].challenger(), Some(Player::Me));
}

#[test]
fn open_claims() {
    let state = State::parse(&args(&[Duke], &["p".into(), "q".into()]), "T").unwrap();
    let claims = state.opponent_claims();
    assert_eq!(claims.len(), 1);
    assert_eq!(claims[0].outcome, ClaimOutcome::Open);
    let state = State::parse(&args(&[Duke], &["$".into()]), "I\nTq").unwrap();
    assert_eq!(state.my_claims()[0].outcome, ClaimOutcome::Open);
}

#[test]
fn bad_arguments_are_errors_not_panics() {
    assert!(matches!(State::parse::<&str>(&[], ""), Err(Error::Args(_))));
    assert!(matches!(
        State::parse(&["h", "1", "1", "$$"], ""),
        Err(Error::Args(_))
    ));
    assert!(matches!(
        State::parse(&["h", "x", "1", "$$", "p"], ""),
        Err(Error::Args(_))
    ));
    assert!(matches!(
        State::parse(&["h", "1", "1", "$Q", "p"], ""),
        Err(Error::Args(_))
    ));
    assert!(matches!(
        State::parse(&["h", "1", "1", "$$", "zz"], ""),
        Err(Error::Args(_))
    ));
    assert!(matches!(
        State::parse(&["h", "1", "1", "$$", "p"], "Z"),
        Err(Error::History(_))
    ));
    // Finishing an Exchange with too few cards offered.
    assert!(matches!(
        State::parse(&["h", "1", "1", "$$", "\n"], "Ep"),
        Err(Error::Args(_))
    ));
}

/// A fresh file in a fresh temporary directory, deleted when dropped.
fn temp_history(content: &str) -> TempHistory {
    let dir = tempfile::Builder::new()
        .prefix("koth-guest-test-")
        .tempdir()
        .unwrap();
    let path = dir.path().join("history.txt");
    std::fs::write(&path, content).unwrap();
    TempHistory { _dir: dir, path }
}

/// A history file in its own temporary directory (kept until dropped), usable as a path.
struct TempHistory {
    _dir: tempfile::TempDir,
    path: std::path::PathBuf,
}

impl std::ops::Deref for TempHistory {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.path
    }
}

impl AsRef<std::path::Path> for TempHistory {
    fn as_ref(&self) -> &std::path::Path {
        &self.path
    }
}

fn state_at(path: &std::path::Path, rest: &[&str]) -> State {
    let mut a = vec![path.to_string_lossy().into_owned()];
    a.extend(rest.iter().map(|s| s.to_string()));
    State::load(&a).unwrap()
}

#[test]
fn committing_appends_exactly_the_legal_text() {
    let path = temp_history("I\nA");
    let state = state_at(&path, &["4", "1", "^$", "s", "q", "'", "0"]);
    let mut out = Vec::new();
    state
        .commit(Move::Surrender(Duke).into(), &mut out)
        .unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "I\nA0");
    assert!(out.is_empty());

    // Giving up a card on one's own turn carries its newline.
    let path = temp_history("Tq");
    let state = state_at(&path, &["1", "1", "^!", "'\n", "=\n"]);
    assert_eq!(state.text_for(Move::Surrender(Contessa)).unwrap(), "=\n");
    state
        .commit(Move::Surrender(Contessa).into(), &mut out)
        .unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "Tq=\n");

    let path = temp_history("");
    let state = state_at(&path, &["1", "1", "$$", "I\n", "F", "E", "S", "T"]);
    state.commit(Move::Income.into(), &mut out).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "I\n");
}

#[test]
fn illegal_moves_are_refused_and_leave_the_file_alone() {
    let path = temp_history("F");
    let state = state_at(&path, &["1", "1", "$$", "d", "p"]);
    let mut out = Vec::new();
    for mv in [
        Move::Challenge,
        Move::Block(Captain),
        Move::EndTurn,
        Move::Tax,
    ] {
        assert!(matches!(
            state.commit(mv.into(), &mut out),
            Err(Error::IllegalMove(_))
        ));
    }
    assert!(matches!(
        state.commit(Decision::Keep(vec![Duke]), &mut out),
        Err(Error::IllegalExchange(_))
    ));
    assert!(matches!(
        append_move(&path, state.legal(), "dp"),
        Err(Error::IllegalMove(_))
    ));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "F");
    assert!(out.is_empty());
    assert_eq!(state.or_first_legal(Move::Tax), Move::Block(Duke));
    assert_eq!(state.first_legal_of(&[Move::Tax, Move::Pass]), Move::Pass);
}

#[test]
fn exchange_prints_the_kept_cards_then_ends_the_turn() {
    let path = temp_history("Eq~<");
    let state = state_at(&path, &["1", "1", "^*~$", "\n"]);
    assert_eq!(state.phase(), FinishExchange { keep: 2 });
    assert_eq!(state.my_card_count(), 2);
    let mut out = Vec::new();
    state
        .commit(Decision::Keep(vec![Duke, Assassin]), &mut out)
        .unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "$^");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "Eq~<\n");

    // One card left: keep one of three.
    let path = temp_history("Ep");
    let state = state_at(&path, &["1", "1", "^*~", "\n"]);
    assert_eq!(state.phase(), FinishExchange { keep: 1 });
    let mut out = Vec::new();
    for bad in [vec![], vec![Duke], vec![Ambassador, Captain]] {
        assert!(matches!(
            state.commit(Decision::Keep(bad), &mut out),
            Err(Error::IllegalExchange(_))
        ));
    }
    assert!(out.is_empty());
    assert!(matches!(
        state.commit(Move::Pass.into(), &mut out),
        Err(Error::IllegalMove(_))
    ));
    // Ending the turn without a choice keeps the first offered cards.
    state.commit(Move::EndTurn.into(), &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "^");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "Ep\n");
}

#[test]
fn exchange_output_counts_duplicates() {
    assert_eq!(
        exchange_output(&[Duke, Duke, Captain], 1, &[Duke]).unwrap(),
        "$"
    );
    assert_eq!(
        exchange_output(&[Duke, Duke, Captain, Captain], 2, &[Duke, Duke]).unwrap(),
        "$$"
    );
    assert!(exchange_output(&[Duke, Captain, Captain, Captain], 2, &[Duke, Duke]).is_err());
}

#[test]
fn run_with_reads_argv_and_writes_the_file() {
    let path = temp_history("I\nS");
    let args = [
        path.to_string_lossy().into_owned(),
        "2".into(),
        "1".into(),
        "*~".into(),
        "a".into(),
        "c".into(),
        "p".into(),
        "q".into(),
    ];
    let mut out = Vec::new();
    run_with(&args, &mut out, |s| {
        assert_eq!(s.phase(), Respond(Ac::Steal));
        assert_eq!(s.my_coins(), 1);
        assert_eq!(s.opponent_coins(), 2);
        Move::Block(Captain).into()
    })
    .unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "I\nSc");
    // A missing file is an I/O error, not a panic.
    let missing = ["/nonexistent/koth/history.txt", "1", "1", "$", "p"];
    assert!(matches!(
        run_with(&missing, &mut out, |_| Move::Pass.into()),
        Err(Error::Io(_))
    ));
}

#[test]
fn give_up_prefers_the_given_order() {
    let state = State::parse(&args(&[Duke, Captain], &["<".into(), "0".into()]), "C").unwrap();
    assert_eq!(state.phase(), LoseCard(Coup));
    assert_eq!(
        state.give_up(&[Captain, Duke]),
        Some(Move::Surrender(Captain))
    );
    assert_eq!(state.give_up(&[Ambassador]), Some(Move::Surrender(Captain)));
    let state = State::parse(&args(&[Duke], &["d".into(), "p".into()]), "F").unwrap();
    assert_eq!(state.give_up(&[Duke]), None);
}
