//! Rule cases of the original controller's arithmetic, one table per difference from the
//! text, each row checked against the controller's own formulas by hand.

use super::super::tests::{fix_dice, play_game, scripted};
use super::*;
use crate::bank_heist::{Args, Ask, Bank, Response, Round, Variant};

/// Bots alone (no rabble) under the original rules.
fn original(bots: usize, seed: u64) -> Tournament {
    Tournament::with_rabble(bots, 100, seed, 0).with_variant(Variant::Original)
}

/// Plays one game and returns the bots in the order round 1 asked them.
fn play_recording(t: &mut Tournament, bets: Vec<u64>, answers: Vec<Answer>) -> Vec<usize> {
    let mut order = Vec::new();
    let mut decide = scripted(bets, answers);
    play_game(t, |ask: &Ask| {
        if ask.args.round == Round::One {
            order.push(ask.bot);
        }
        decide(ask)
    });
    order
}

/// (the bots' credits, mean, mean absolute deviation): both integers, the deviation taken
/// from the truncated mean, both truncated.
#[test]
fn the_mean_and_deviation_are_integers() {
    let table: [(&[u64], &str, &str, &str, &str); 5] = [
        (&[240, 240, 240], "240", "0", "240.0", "0.0"),
        (&[1000, 240, 240], "493", "337", "493.333333", "337.777778"),
        (&[1, 0], "0", "0", "0.5", "0.5"),
        (&[5, 0], "2", "2", "2.5", "2.5"),
        (&[7, 0, 0], "2", "3", "2.333333", "3.111111"),
    ];
    for (credits, mean, mad, text_mean, text_mad) in table {
        for (variant, mean, mad) in [
            (Variant::Original, mean, mad),
            (Variant::Text, text_mean, text_mad),
        ] {
            let mut t = Tournament::with_rabble(credits.len(), 10, 1, 0).with_variant(variant);
            for (b, &c) in credits.iter().enumerate() {
                t.bot_mut(b).credits = c;
            }
            let ask = t.pending().expect("a game to play");
            let argv = ask.args.to_argv();
            assert_eq!(
                (argv[13].as_str(), argv[14].as_str()),
                (mean, mad),
                "{credits:?} {variant}"
            );
        }
    }
}

/// Round 2's arguments 3 to 7: (round-1 heisters, heisters asked before, round-1 heisters,
/// the round-1 total bet, heisters who stayed in so far), where the text gives the game's
/// players as argument 3.
#[test]
fn round_two_counts_the_heisters() {
    for variant in Variant::ALL {
        let mut t = Tournament::with_rabble(4, 10, 3, 0).with_variant(variant);
        // Three heisters (bot 3 bets nothing); the first asked in round 2 backs out.
        let mut asked = 0;
        let mut seen = Vec::new();
        play_game(&mut t, |ask: &Ask| match ask.args.round {
            Round::One => Response::Bet(if ask.bot == 3 { 0 } else { 100 }),
            Round::Two => {
                seen.push(ask.args.to_argv()[2..7].to_vec());
                asked += 1;
                Response::Answer(if asked == 1 {
                    Answer::BackOut
                } else {
                    Answer::Keep
                })
            }
        });
        let players = match variant {
            Variant::Text => "4",
            Variant::Original => "3",
        };
        let want: Vec<Vec<&str>> = vec![
            vec![players, "0", "3", "300", "0"],
            vec![players, "1", "3", "300", "0"],
            vec![players, "2", "3", "300", "1"],
        ];
        assert_eq!(seen, want, "{variant}");
    }
}

/// Argument 11 is the wage: the controller takes bribes separately, where the text's
/// paycheck is the wage less them.
#[test]
fn the_paycheck_argument_is_the_wage() {
    for (variant, paycheck) in [(Variant::Original, "240"), (Variant::Text, "239")] {
        let mut t = Tournament::with_rabble(1, 10, 5, 0).with_variant(variant);
        fix_dice(&mut t, 0, false);
        play_game(&mut t, scripted(vec![1], vec![Answer::BuyGuard]));
        let ask = t.pending().unwrap();
        assert_eq!(ask.args.to_argv()[10], paycheck, "{variant}");
    }
}

/// One back out and every other heist fails (the multiplier is s // h = 0); an all-in player
/// is not affected.
#[test]
fn a_single_back_out_fails_every_other_heist() {
    for seed in 0..20 {
        let mut t = original(3, seed);
        for b in 0..3 {
            fix_dice(&mut t, b, true);
        }
        play_game(
            &mut t,
            scripted(
                vec![100, 100, 10],
                vec![Answer::BackOut, Answer::Keep, Answer::AllIn],
            ),
        );
        // Backed out: no stake, no paycheck. Stayed in: the stake is lost for sure. All in:
        // ⌊0.8 × (240 + 240)⌋, no paycheck.
        assert_eq!(t.credits(), vec![240, 240 - 100 + 240, 384], "seed {seed}");
    }
    // Nobody backs out: the multiplier is 1 and the sure heist wins ⌊1.8 × 100⌋ = 180, its
    // stake included.
    let mut t = original(2, 1);
    fix_dice(&mut t, 0, true);
    fix_dice(&mut t, 1, false);
    play_game(&mut t, scripted(vec![100, 100], vec![Answer::Keep; 2]));
    assert_eq!(t.credits(), vec![140 + 180 + 240, 140 + 240]);
}

/// (answer, credits, balance at bank 0, bet, won) → (credits, balance, odds at bank 0) after
/// a heist at bank 0 with nobody else in it.
#[test]
fn winnings_include_the_stake_and_go_where_the_answer_sends_them() {
    type Row = (Answer, u64, u64, u64, bool, u64, u64, f64);
    let table: [Row; 5] = [
        // Keep: 240 - 100, + ⌊1.8 × 100⌋, + 240.
        (Answer::Keep, 240, 0, 100, true, 560, 0, 0.8),
        // Intel: the stake is spent too, 180000 × 0.00001 on the odds.
        (Answer::AcquireIntel, 100_000, 0, 100_000, true, 240, 0, 2.6),
        // Deposit: 1.8 × 10⁶ in the account, then 1.4% interest.
        (
            Answer::Deposit,
            1_000_000,
            0,
            1_000_000,
            true,
            240,
            1_825_200,
            0.8,
        ),
        // Withdraw: the account joins the winnings.
        (
            Answer::Withdraw,
            240,
            10_000,
            100,
            true,
            140 + 10_180 + 240,
            0,
            0.8,
        ),
        // A failed heist withdraws nothing; the account earns 1.4%.
        (
            Answer::Withdraw,
            240,
            10_000,
            1,
            false,
            239 + 240,
            10_140,
            0.8,
        ),
    ];
    for (answer, credits, balance, bet, win, want_credits, want_balance, want_odds) in table {
        let mut t = original(1, 7);
        fix_dice(&mut t, 0, win);
        t.bot_mut(0).credits = credits;
        t.bot_mut(0).balance[0] = balance;
        play_game(&mut t, scripted(vec![bet], vec![answer]));
        let me = &t.bots()[0];
        assert_eq!(
            (me.credits, me.balance[0]),
            (want_credits, want_balance),
            "{answer:?}"
        );
        assert!(
            (me.odds[0] - want_odds).abs() < 1e-9,
            "{answer:?}: {}",
            me.odds[0]
        );
    }
}

/// (balance) → the balance after one game: ⌊1.4%⌋ interest, where the text pays 0.14%.
#[test]
fn interest_is_one_point_four_percent() {
    let table: [(u64, u64, u64); 5] = [
        (0, 0, 0),
        (71, 71, 71),
        (72, 73, 72),
        (1000, 1014, 1001),
        (800_000, 811_200, 801_120),
    ];
    for (balance, original_after, text_after) in table {
        for (variant, after) in [
            (Variant::Original, original_after),
            (Variant::Text, text_after),
        ] {
            let mut t = Tournament::with_rabble(1, 10, 2, 0).with_variant(variant);
            t.bot_mut(0).balance[3] = balance;
            play_game(&mut t, scripted(vec![0], vec![Answer::Keep]));
            assert_eq!(t.bots()[0].balance[3], after, "{balance} {variant}");
        }
    }
}

/// All in: credits become ⌊odds × (credits + 240)⌋ with its own probability, else 0; never a
/// paycheck. (credits, odds at bank 0, sure win) → credits.
#[test]
fn all_in_multiplies_credits_and_loan_by_the_odds() {
    let table: [(u64, f64, bool, u64); 4] = [
        (240, 0.8, true, 384),
        (100, 0.8, true, 272),
        (1000, 1.95, true, 2418),
        (1000, 0.8, false, 0),
    ];
    for (credits, odds, win, want) in table {
        let mut t = original(1, 4);
        fix_dice(&mut t, 0, win);
        t.bot_mut(0).credits = credits;
        t.bot_mut(0).odds[0] = odds;
        play_game(&mut t, scripted(vec![10], vec![Answer::AllIn]));
        assert_eq!(t.credits()[0], want, "{credits} {odds} {win}");
    }
}

/// The threshold counts every bot that stayed in, double crossers included (never the
/// rabble): (honest bots, double crossers, success).
#[test]
fn the_double_cross_threshold() {
    let table: [(usize, usize, bool); 10] = [
        (3, 1, true),
        (3, 2, false),
        (8, 2, false),
        (17, 2, false),
        (18, 2, true),
        (19, 2, true),
        (20, 2, true),
        (26, 3, false),
        (27, 3, true),
        (0, 1, true),
    ];
    for (honest, crossers, success) in table {
        let n = honest + crossers;
        let mut t = original(n, 9);
        for b in 0..n {
            fix_dice(&mut t, b, true);
        }
        let mut answers = vec![Answer::Keep; honest];
        answers.extend(vec![Answer::DoubleCross; crossers]);
        play_game(&mut t, scripted(vec![100; n], answers));
        let odds = Bank::for_heist(n as u64, 100 * n as u64).base_odds();
        let w = ((odds + 1.0) * 100.0) as u64;
        let c = t.credits();
        if success {
            // The pot is every winning (the crossers' own included), all theirs; the honest
            // keep their paycheck only.
            let pot = w * n as u64;
            assert!(
                c[..honest].iter().all(|&x| x == 140 + 240),
                "{honest}+{crossers}: {c:?}"
            );
            let each = 140 + 240 + w + pot / crossers as u64;
            assert!(
                c[honest..].iter().all(|&x| x == each),
                "{honest}+{crossers}: {c:?}"
            );
        } else {
            // Discovered: the crossers lose winnings, half their wage and their jobs; the
            // honest get their winnings back, and the crossers' winnings (the pot) shared by
            // winnings on top: pot × w / pot = w more each.
            assert!(
                c[..honest].iter().all(|&x| x == 140 + 240 + 2 * w),
                "{honest}+{crossers}: {c:?}"
            );
            for b in &t.bots()[honest..] {
                assert_eq!(b.wage, if b.employed { 126 } else { 120 });
                assert_eq!(b.credits, 140 + if b.employed { 126 } else { 0 });
            }
        }
    }
}

/// A finger that identifies the double crosser takes a sixth of its credits at that moment
/// (before or after its own stake left, as the round-1 order has it) and 0.05 of its
/// probability; the crosser is fired with half its wage.
#[test]
fn a_finger_takes_a_sixth() {
    let mut identified = 0;
    for seed in 0..12 {
        let mut t = original(2, seed);
        fix_dice(&mut t, 0, true);
        fix_dice(&mut t, 1, true);
        t.bot_mut(1).credits = 1200;
        let order = play_recording(
            &mut t,
            vec![100, 100],
            vec![Answer::Finger, Answer::DoubleCross],
        );
        let [finger, rat] = [&t.bots()[0], &t.bots()[1]];
        if rat.probability[0] == 1.0 {
            // 8 draws missed it ((1/2)^8): a failed finger (half its 180 to the pot, nothing
            // back from it) and a lone crosser that takes the whole pot, 90 + 180.
            assert_eq!(finger.credits, 140 + 228, "seed {seed}");
            assert_eq!(rat.credits, 1100 + 240 + 180 + 270, "seed {seed}");
            continue;
        }
        identified += 1;
        let fine = if order == [1, 0] { 1100 / 6 } else { 1200 / 6 };
        // 140 + the fine + 240 paycheck + its 180 back as its share of the straight pot
        // (the crosser's 180 and its own, none of it to the identified crosser).
        assert_eq!(finger.credits, 140 + fine + 240 + 180, "seed {seed}");
        assert_eq!(
            rat.credits,
            1100 - fine + if rat.employed { 126 } else { 0 }
        );
        assert_eq!(rat.wage, if rat.employed { 126 } else { 120 });
        assert!((rat.probability[0] - 0.95).abs() < 1e-12);
    }
    assert!(identified >= 10, "{identified} of 12");
}

/// A finger that identifies nobody loses 0.05 of its odds and a twentieth of its wage, keeps
/// its winnings, and half of them go to the pot, which pays everyone else's winnings again.
#[test]
fn a_finger_that_identifies_nobody() {
    let mut t = original(2, 11);
    fix_dice(&mut t, 0, true);
    fix_dice(&mut t, 1, true);
    play_game(
        &mut t,
        scripted(vec![200, 100], vec![Answer::Finger, Answer::Keep]),
    );
    let [finger, honest] = [&t.bots()[0], &t.bots()[1]];
    assert_eq!(finger.wage, 228);
    assert!((finger.odds[0] - 0.75).abs() < 1e-12);
    assert_eq!(finger.credits, 40 + 228 + 360);
    assert_eq!(honest.credits, 140 + 240 + 180 + 180);
}

/// A guard: +1% of what the probability lacks, at once; a bribe of 1 a game taken from the
/// credits, whatever the job; unpaid bribes cost guards drawn at random, each undone as
/// p = (p − 0.01) / 0.99.
#[test]
fn guards_and_their_bribes() {
    let mut t = original(1, 5);
    fix_dice(&mut t, 0, false);
    play_game(&mut t, scripted(vec![40], vec![Answer::BuyGuard]));
    assert_eq!(t.bots()[0].guards(), 1);
    assert!((t.bots()[0].probability[0] - 0.01).abs() < 1e-12);
    assert_eq!(t.credits()[0], 240 - 40 + 240 - 1);
    // Unemployed: the bribe still comes out of the credits.
    t.bot_mut(0).employed = false;
    t.bot_mut(0).wage = 0;
    play_game(&mut t, scripted(vec![0], vec![Answer::Keep]));
    assert_eq!(t.credits()[0], 439 - 1);
    // Three guards at two banks, and credits for only one bribe: two are lost.
    let mut kept_banks = Vec::new();
    for seed in 0..30 {
        let mut t = original(1, seed);
        fix_dice(&mut t, 0, false);
        for bank in [0, 0, 3] {
            let p = t.bot_mut(0);
            let bonus = 0.01 * (1.0 - p.probability[bank]);
            p.probability[bank] += bonus;
            p.guards.push(Guard { bank, bonus });
        }
        let before = t.bots()[0].probability;
        t.bot_mut(0).credits = 1;
        t.bot_mut(0).wage = 0;
        t.bot_mut(0).employed = false;
        play_game(&mut t, scripted(vec![0], vec![Answer::Keep]));
        let me = &t.bots()[0];
        assert_eq!((me.credits, me.guards()), (0, 1), "seed {seed}");
        let kept = me.guards[0].bank;
        let lost: &[usize] = if kept == 3 { &[0, 0] } else { &[0, 3] };
        let mut want = before;
        for &bank in lost {
            want[bank] = (want[bank] - 0.01) / 0.99;
        }
        for (got, want) in me.probability.iter().zip(want) {
            assert!((got - want).abs() < 1e-12, "seed {seed}");
        }
        kept_banks.push(kept);
    }
    assert!(
        kept_banks.contains(&0) && kept_banks.contains(&3),
        "{kept_banks:?}"
    );
}

/// The first rabble heister asked never backs out: a bot asked second in round 2, after a
/// rabble heister, always sees one confirmed heister under the original rules; under the
/// text's, that heister backs out 5% of the time.
#[test]
fn the_first_heister_asked_never_backs_out() {
    for (variant, games) in [(Variant::Original, 600), (Variant::Text, 2000)] {
        // One bot and a pool of 5 rabble: the bot is often asked second.
        let mut t = Tournament::with_rabble(1, games, 21, 5).with_variant(variant);
        let (mut second, mut after_back_out) = (0, 0);
        while let Some(ask) = t.pending() {
            let a = &ask.args;
            let r = match a.round {
                Round::One => Response::Bet(1),
                Round::Two => {
                    if a.decided == 1 {
                        second += 1;
                        after_back_out += u32::from(a.confirmed == 0);
                    }
                    Response::Answer(Answer::Keep)
                }
            };
            t.respond(r);
        }
        assert!(second > 50, "{variant}: asked second {second} times");
        match variant {
            Variant::Original => assert_eq!(after_back_out, 0),
            Variant::Text => assert!(after_back_out > 0, "{second}"),
        }
    }
}

#[test]
fn a_bot_that_never_bets_ends_with_240_times_g_plus_1() {
    for seed in [1, 2] {
        let games = Tournament::draw_games(seed);
        let mut t = Tournament::new(2, games, seed).with_variant(Variant::Original);
        while let Some(ask) = t.pending() {
            // Bot 1 plays; bot 0 never bets.
            t.respond(match (ask.bot, ask.args.round) {
                (0, _) => Response::Bet(0),
                (_, Round::One) => Response::Bet(ask.args.credits / 3),
                (_, Round::Two) => Response::Answer(Answer::Finger),
            });
        }
        assert_eq!(t.credits()[0], 240 * (games as u64 + 1));
    }
}

/// Random bots under the original rules: credits stay at 0 or more, probabilities and odds
/// stay finite, and the same seed replays the same tournament.
#[test]
fn random_playouts_replay_and_stay_sane() {
    use rand::{Rng, SeedableRng};
    let run = |seed: u64| {
        let mut chooser = rand_chacha::ChaCha8Rng::seed_from_u64(500 + seed);
        let mut t = Tournament::new(3, 80, seed).with_variant(Variant::Original);
        let mut events = Vec::new();
        while let Some(ask) = t.pending() {
            events.extend(t.take_events());
            let a: &Args = &ask.args;
            assert!(a.probability.iter().chain(&a.odds).all(|x| x.is_finite()));
            let r = match a.round {
                Round::One => Response::Bet(match chooser.random_range(0..3) {
                    0 => 0,
                    1 => a.credits,
                    _ => chooser.random_range(0..=a.credits),
                }),
                Round::Two => {
                    Response::Answer(Answer::ALL[chooser.random_range(0..Answer::ALL.len())])
                }
            };
            t.respond(r);
        }
        events.extend(t.take_events());
        (t.credits(), events)
    };
    for seed in 0..5 {
        assert_eq!(run(seed), run(seed));
    }
    assert_ne!(run(1).0, run(2).0);
}
