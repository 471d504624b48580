use super::*;
use rand::{Rng, SeedableRng};

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn c(token: &str) -> Card {
    Card::parse(token).unwrap_or_else(|| panic!("bad card {token:?}"))
}

fn cards(list: &str) -> Vec<Card> {
    list.split_whitespace().map(c).collect()
}

/// A deck that deals `hands` (seat by seat, five cards each, in that order) with `dealer`
/// dealing, and turns up `turned`; the other three cards follow in deck order.
fn deck_for(dealer: usize, hands: [&str; 4], turned: &str) -> Vec<Card> {
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let mut next = [0usize; 4];
    let mut deck = Vec::new();
    for round in 0..2 {
        for i in 0..4 {
            let seat = (dealer + 1 + i) % 4;
            let packet = if (i + round) % 2 == 0 { 3 } else { 2 };
            deck.extend_from_slice(&hands[seat][next[seat]..next[seat] + packet]);
            next[seat] += packet;
        }
    }
    deck.push(c(turned));
    for card in Card::deck() {
        if !deck.contains(&card) {
            deck.push(card);
        }
    }
    deck
}

fn game(dealer: usize, hands: [&str; 4], turned: &str) -> Game {
    let config = Config {
        first_dealer: dealer,
        ..Config::default()
    };
    let g = Game::with_deck(config, deck_for(dealer, hands, turned), rng(1));
    for (seat, hand) in hands.iter().enumerate() {
        assert_eq!(g.hand(seat), cards(hand), "the deal");
    }
    g
}

/// Answers the decision due with `text` (which must be valid) and checks who was asked.
fn answer(g: &mut Game, seat: usize, kind: Kind, text: &str) -> Vec<Event> {
    assert_eq!(
        g.decision(),
        Some(Decision { seat, kind }),
        "{:?}",
        g.input()
    );
    let r = g.respond(text.as_bytes()).unwrap();
    assert_eq!(r.rejected, None, "{text:?}");
    r.events
}

/// Passes all of the first round.
fn pass_round(g: &mut Game) {
    for _ in 0..4 {
        let d = g.decision().unwrap();
        answer(g, d.seat, d.kind, "p");
    }
}

/// Plays the rest of the deal with default answers (each seat its first legal card) and
/// acknowledges the reports; returns the events.
fn play_out(g: &mut Game) -> Vec<Event> {
    let mut events = Vec::new();
    let deals = g.deals();
    while let Some(d) = g.decision() {
        if g.deals() != deals {
            break;
        }
        assert!(matches!(d.kind, Kind::Play | Kind::Trick));
        let answer = g.default_answer().unwrap();
        events.extend(g.apply(answer).unwrap());
    }
    events
}

fn scored(events: &[Event]) -> (Score, usize, u32, u32) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Scored {
                score,
                team,
                points,
                makers_tricks,
                ..
            } => Some((*score, *team, *points, *makers_tricks)),
            _ => None,
        })
        .expect("the deal was scored")
}

// ---- Cards, bowers, following suit ----

#[test]
fn card_tokens_round_trip() {
    let deck = Card::deck();
    assert_eq!(deck.len(), DECK_SIZE);
    for card in &deck {
        assert_eq!(Card::parse(&card.to_string()), Some(*card));
    }
    for bad in ["", "9", "1c", "10h", "TH", "jx", "jhh", "é", "h9"] {
        assert_eq!(Card::parse(bad), None, "{bad:?}");
    }
}

#[test]
fn bower_ranking_under_hearts() {
    let trump = Suit::Hearts;
    let order = cards("jh jd ah kh qh th 9h");
    for pair in order.windows(2) {
        assert!(
            pair[0].power(trump, Suit::Clubs) > pair[1].power(trump, Suit::Clubs),
            "{} should beat {}",
            pair[0],
            pair[1]
        );
    }
    // The lowest trump beats the ace of the led suit, which beats an off-suit ace.
    assert!(c("9h").power(trump, Suit::Spades) > c("as").power(trump, Suit::Spades));
    assert!(c("9s").power(trump, Suit::Spades) > c("ac").power(trump, Suit::Spades));
    // The left bower is a heart now; the other red-suited jack of spades trump is not.
    assert_eq!(c("jd").suit_under(trump), Suit::Hearts);
    assert!(c("jd").is_left_bower(trump) && c("jh").is_right_bower(trump));
    assert_eq!(c("jd").suit_under(Suit::Spades), Suit::Diamonds);
    assert_eq!(c("jc").suit_under(Suit::Spades), Suit::Spades);
    // Off trump, the jack ranks between ten and queen.
    let led = Suit::Diamonds;
    assert!(c("qd").power(Suit::Spades, led) > c("jd").power(Suit::Spades, led));
    assert!(c("jd").power(Suit::Spades, led) > c("td").power(Suit::Spades, led));
}

#[test]
fn left_bower_follows_trump_not_its_printed_suit() {
    let trump = Suit::Hearts;
    // Diamonds led: the jack of diamonds is a heart, so 9d is the only diamond held.
    let hand = cards("jd 9d ac");
    assert_eq!(legal_plays(&hand, Some(c("ad")), trump), cards("9d"));
    // Holding only the left bower in printed diamonds: void in diamonds, anything goes.
    let hand = cards("jd ac 9s");
    assert_eq!(legal_plays(&hand, Some(c("ad")), trump), hand);
    // The left bower led calls for trump: hearts (and the bower) must follow.
    let hand = cards("9d 9h jh ks");
    assert_eq!(legal_plays(&hand, Some(c("jd")), trump), cards("9h jh"));
    // Trump led and the left bower is the only trump held: it must be played.
    let hand = cards("ad jd kc");
    assert_eq!(legal_plays(&hand, Some(c("9h")), trump), cards("jd"));
    // Leading: anything.
    assert_eq!(legal_plays(&hand, None, trump), hand);
}

#[test]
fn trick_winners() {
    let trump = Suit::Hearts;
    let t = |list: &str| -> Vec<Option<Card>> {
        list.split(',')
            .map(|s| if s == "p" { None } else { Some(c(s)) })
            .collect()
    };
    assert_eq!(trick_winner(&t("as,ks,9s,ts"), trump), Some(0));
    // A low trump takes the ace led.
    assert_eq!(trick_winner(&t("as,ks,9h,ts"), trump), Some(2));
    // The left bower beats the ace of trump, the right beats both.
    assert_eq!(trick_winner(&t("ah,jd,kh,9h"), trump), Some(1));
    assert_eq!(trick_winner(&t("ah,jd,jh,9h"), trump), Some(2));
    // An off-suit ace never wins; the first card of the led suit does unless beaten.
    assert_eq!(trick_winner(&t("9c,ad,as,ac"), trump), Some(3));
    assert_eq!(trick_winner(&t("9c,ad,as,p"), trump), Some(0));
    // A led left bower is a trump lead.
    assert_eq!(trick_winner(&t("jd,ad,ah,p"), trump), Some(0));
    assert_eq!(trick_winner(&t("p,p"), trump), None);
}

// ---- The protocol's inputs ----

const DEAL: [&str; 4] = [
    "jh jd ah kh qh",
    "th 9h as ks qs",
    "9c tc jc qc kc",
    "ac 9d td qd kd",
];

#[test]
fn ordering_asks_all_four_and_the_first_order_counts() {
    let mut g = game(3, DEAL, "9s");
    assert_eq!(
        g.input().unwrap(),
        "jh,jd,ah,kh,qh\n0\n0\nordering\n9s\n\n",
        "the first player sees an empty list"
    );
    answer(&mut g, 0, Kind::Order, "p");
    assert_eq!(
        g.input().unwrap(),
        "th,9h,as,ks,qs\n0\n0\nordering\n9s\np\n"
    );
    let events = answer(&mut g, 1, Kind::Order, "o\n");
    assert_eq!(
        events,
        vec![Event::Ordered {
            seat: 1,
            up: true,
            counts: true
        }]
    );
    assert_eq!((g.trump(), g.maker()), (Some(Suit::Spades), Some(1)));
    // Seat 2 still gets asked; a later `o` is recorded and changes nothing.
    assert_eq!(
        g.input().unwrap(),
        "9c,tc,jc,qc,kc\n0\n0\nordering\n9s\np,o\n"
    );
    let events = answer(&mut g, 2, Kind::Order, "o");
    assert_eq!(
        events,
        vec![Event::Ordered {
            seat: 2,
            up: true,
            counts: false
        }]
    );
    answer(&mut g, 3, Kind::Order, "p");
    assert_eq!(g.maker(), Some(1));
    // The dealer discards: five dealt cards on the hand line, the card picked up after.
    assert_eq!(g.input().unwrap(), "ac,9d,td,qd,kd\n0\n0\ndiscard\n9s\n");
    assert_eq!(g.default_answer(), Some(Answer::Discard(c("ac"))));
    let events = answer(&mut g, 3, Kind::Discard, "9d");
    assert_eq!(
        events,
        vec![Event::Discarded {
            seat: 3,
            picked_up: c("9s"),
            card: c("9d")
        }]
    );
    assert_eq!(g.hand(3), cards("ac td qd kd 9s"), "picked-up card last");
    assert!(g.kitty().contains(&c("9d")) && !g.kitty().contains(&c("9s")));
    // The maker is asked first, then its partner.
    assert_eq!(g.input().unwrap(), "th,9h,as,ks,qs\n0\n0\nalone\ns\n\n");
    answer(&mut g, 1, Kind::Alone, "n");
    assert_eq!(g.input().unwrap(), "ac,td,qd,kd,9s\n0\n0\nalone\ns\nn\n");
    answer(&mut g, 3, Kind::Alone, "n");
    assert_eq!(g.alone(), None);
    // Seat 0, left of the dealer, leads.
    assert_eq!(g.input().unwrap(), "jh,jd,ah,kh,qh\n0\n0\nturn\ns\n\n");
}

#[test]
fn the_dealer_may_discard_the_card_it_picks_up() {
    let mut g = game(3, DEAL, "9s");
    for seat in 0..3 {
        answer(&mut g, seat, Kind::Order, "p");
    }
    answer(&mut g, 3, Kind::Order, "o");
    answer(&mut g, 3, Kind::Discard, "9s");
    assert_eq!(g.hand(3), cards("ac 9d td qd kd"));
    assert_eq!(g.trump(), Some(Suit::Spades));
    assert!(g.kitty().contains(&c("9s")));
}

#[test]
fn naming_refuses_the_turned_suit_and_the_first_name_counts() {
    let mut g = game(3, DEAL, "9s");
    pass_round(&mut g);
    assert_eq!(g.input().unwrap(), "jh,jd,ah,kh,qh\n0\n0\nnaming\n\n");
    assert_eq!(g.parse(b"s"), Err(BadAnswer::TurnedSuit(Suit::Spades)));
    // The refused name becomes the default pass, and is logged.
    let r = g.respond(b"s").unwrap();
    assert_eq!(r.answer, Answer::Pass);
    assert_eq!(r.rejected, Some(BadAnswer::TurnedSuit(Suit::Spades)));
    assert!(matches!(r.events[0], Event::Defaulted { seat: 0, .. }));
    assert_eq!(g.input().unwrap(), "th,9h,as,ks,qs\n0\n0\nnaming\np\n");
    let names = ["Ann", "Bob", "Cat", "Dan"];
    let said = answer(&mut g, 1, Kind::Name, "h");
    assert_eq!(said[0].describe(names), "Bob names hearts");
    let said = answer(&mut g, 2, Kind::Name, "c");
    assert_eq!(said[0].describe(names), "Cat names clubs too (no effect)");
    assert_eq!(g.input().unwrap(), "ac,9d,td,qd,kd\n0\n0\nnaming\np,h,c\n");
    answer(&mut g, 3, Kind::Name, "p");
    assert_eq!((g.trump(), g.maker()), (Some(Suit::Hearts), Some(1)));
    assert_eq!(
        g.decision(),
        Some(Decision {
            seat: 1,
            kind: Kind::Alone
        })
    );
    assert_eq!(g.hand(3).len(), 5, "nothing picked up after naming");
}

#[test]
fn four_passes_twice_throw_the_hand_in() {
    let mut g = game(3, DEAL, "9s");
    pass_round(&mut g);
    for seat in 0..3 {
        answer(&mut g, seat, Kind::Name, "p");
    }
    let events = answer(&mut g, 3, Kind::Name, "p");
    assert_eq!(events[1], Event::ThrownIn { dealer: 3 });
    assert!(matches!(
        events[2],
        Event::Dealt {
            deal: 2,
            dealer: 0,
            ..
        }
    ));
    assert_eq!((g.dealer(), g.deals(), g.points()), (0, 2, [0, 0]));
    // The next player deals; the one on its left is asked first.
    assert_eq!(
        g.decision(),
        Some(Decision {
            seat: 1,
            kind: Kind::Order
        })
    );
    assert_eq!(g.trump(), None);
}

#[test]
fn bad_and_failed_invocations_get_the_defaults() {
    let mut g = game(3, DEAL, "9s");
    let r = g.respond_default("out of fuel").unwrap();
    assert_eq!(r.answer, Answer::Pass);
    assert_eq!(
        r.events[0],
        Event::Defaulted {
            seat: 0,
            kind: Kind::Order,
            answer: Answer::Pass,
            reason: "out of fuel".into()
        }
    );
    answer(&mut g, 1, Kind::Order, "p");
    answer(&mut g, 2, Kind::Order, "o");
    answer(&mut g, 3, Kind::Order, "p");
    let r = g.respond(b"jh").unwrap();
    assert_eq!(r.rejected, Some(BadAnswer::NotInHand(c("jh"))));
    assert_eq!(
        r.answer,
        Answer::Discard(c("ac")),
        "the first card in the hand"
    );
    let r = g.respond(b"maybe").unwrap();
    assert_eq!(r.answer, Answer::Alone(false));
    answer(&mut g, 0, Kind::Alone, "n");
    // Spades trump, seat 0 leads; seat 1 must follow the lead.
    answer(&mut g, 0, Kind::Play, "jh");
    let r = g.respond(b"as").unwrap();
    assert_eq!(
        r.rejected,
        Some(BadAnswer::MustFollow {
            card: c("as"),
            led: Suit::Hearts
        })
    );
    assert_eq!(r.answer, Answer::Play(c("th")), "the first legal card");
}

#[test]
fn going_alone_skips_the_partner_with_p() {
    let mut g = game(3, DEAL, "9s");
    pass_round(&mut g);
    answer(&mut g, 0, Kind::Name, "h");
    for seat in 1..4 {
        answer(&mut g, seat, Kind::Name, "p");
    }
    let events = answer(&mut g, 0, Kind::Alone, "y");
    assert_eq!(
        events,
        vec![Event::Alone {
            seat: 0,
            alone: true,
            counts: true
        }]
    );
    // The partner is still asked; its answer changes nothing.
    assert_eq!(g.input().unwrap(), "9c,tc,jc,qc,kc\n0\n0\nalone\nh\ny\n");
    answer(&mut g, 2, Kind::Alone, "y");
    assert_eq!(g.alone(), Some(0));
    assert!(g.sits_out(2) && !g.sits_out(0));
    answer(&mut g, 0, Kind::Play, "jh");
    answer(&mut g, 1, Kind::Play, "th");
    // Seat 2 sits out: seat 3 is next and sees `p` in its place.
    assert_eq!(
        g.input().unwrap(),
        "ac,9d,td,qd,kd\n0\n0\nturn\nh\njh,th,p\n"
    );
    let events = answer(&mut g, 3, Kind::Play, "ac");
    assert_eq!(
        events[1],
        Event::TrickWon {
            trick: 1,
            leader: 0,
            cards: vec![Some(c("jh")), Some(c("th")), None, Some(c("ac"))],
            winner: 0
        }
    );
    // All four get the report, the one sitting out included, in play order.
    let reports = [
        (0, "\n0\n1\ntrick\n0\nh\njh,th,p,ac\n"),
        (1, "\n0\n0\ntrick\n1\nh\njh,th,p,ac\n"),
        (2, "\n0\n1\ntrick\n2\nh\njh,th,p,ac\n"),
        (3, "\n0\n0\ntrick\n3\nh\njh,th,p,ac\n"),
    ];
    for (seat, text) in reports {
        assert_eq!(
            g.decision(),
            Some(Decision {
                seat,
                kind: Kind::Trick
            })
        );
        assert_eq!(g.input().unwrap(), text);
        // Whatever a bot prints at a report is ignored.
        let r = g.respond(b"\xff garbage").unwrap();
        assert_eq!((r.answer, r.rejected), (Answer::Nothing, None));
    }
    assert_eq!(
        g.decision(),
        Some(Decision {
            seat: 0,
            kind: Kind::Play
        })
    );
    let events = play_out(&mut g);
    let played = events
        .iter()
        .filter(|e| matches!(e, Event::Played { .. }))
        .count();
    assert_eq!(played, 4 * 3, "three cards a trick");
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::Played { seat: 2, .. })));
    assert_eq!(scored(&events), (Score::AloneMarch, 0, 4, 5));
    assert_eq!(g.points(), [4, 0]);
    assert_eq!(g.deals(), 2, "the next deal follows");
}

#[test]
fn a_partner_saying_yes_after_the_maker_goes_alone_and_the_leader_may_be_skipped() {
    // Dealer 3: seat 0 would lead, but it sits out when its partner goes alone.
    let mut g = game(3, DEAL, "9s");
    pass_round(&mut g);
    answer(&mut g, 0, Kind::Name, "h");
    for seat in 1..4 {
        answer(&mut g, seat, Kind::Name, "p");
    }
    answer(&mut g, 0, Kind::Alone, "n");
    let events = answer(&mut g, 2, Kind::Alone, "y");
    assert_eq!(
        events,
        vec![Event::Alone {
            seat: 2,
            alone: true,
            counts: true
        }]
    );
    assert!(g.sits_out(0));
    assert_eq!(
        g.decision(),
        Some(Decision {
            seat: 1,
            kind: Kind::Play
        })
    );
    assert_eq!(g.input().unwrap(), "th,9h,as,ks,qs\n0\n0\nturn\nh\n\n");
    answer(&mut g, 1, Kind::Play, "th");
    answer(&mut g, 2, Kind::Play, "9c");
    answer(&mut g, 3, Kind::Play, "ac");
    // The last seat sits out: the trick ends with `p`.
    assert_eq!(
        g.decision(),
        Some(Decision {
            seat: 1,
            kind: Kind::Trick
        })
    );
    assert_eq!(g.input().unwrap(), "\n0\n1\ntrick\n0\nh\nth,9c,ac,p\n");
}

// ---- Scoring ----

/// Names hearts from seat 0 (dealer 3), with seat 0 going alone or not, and plays the deal
/// out with first legal cards.
fn named_hearts(hands: [&str; 4], turned: &str, alone: bool) -> (Game, Vec<Event>) {
    let mut g = game(3, hands, turned);
    pass_round(&mut g);
    answer(&mut g, 0, Kind::Name, "h");
    for seat in 1..4 {
        answer(&mut g, seat, Kind::Name, "p");
    }
    answer(&mut g, 0, Kind::Alone, if alone { "y" } else { "n" });
    answer(&mut g, 2, Kind::Alone, "n");
    let events = play_out(&mut g);
    (g, events)
}

const MARCH: [&str; 4] = DEAL;
const THREE: [&str; 4] = [
    "jh jd ah 9s 9c",
    "kh qh th as ac",
    "9h ts tc jc qc",
    "9d td qd kd ks",
];
const FOUR: [&str; 4] = [
    "jh jd ah kh 9s",
    "qh th as ac 9c",
    "9h ts tc jc qc",
    "9d td qd kd ks",
];
const EUCHRE: [&str; 4] = [
    "tc qc 9s ts 9d",
    "jh jd ah kh qh",
    "9h th js qs ks",
    "9c jc kc ac td",
];

#[test]
fn makers_taking_all_five_score_two() {
    let (g, events) = named_hearts(MARCH, "9s", false);
    assert_eq!(scored(&events), (Score::March, 0, 2, 5));
    assert_eq!(g.points(), [2, 0]);
}

#[test]
fn alone_taking_all_five_scores_four() {
    let (g, events) = named_hearts(MARCH, "9s", true);
    assert_eq!(scored(&events), (Score::AloneMarch, 0, 4, 5));
    assert_eq!(g.points(), [4, 0]);
}

#[test]
fn makers_taking_three_score_one() {
    let (g, events) = named_hearts(THREE, "js", false);
    assert_eq!(scored(&events), (Score::Point, 0, 1, 3));
    assert_eq!(g.points(), [1, 0]);
}

#[test]
fn makers_taking_four_score_one() {
    let (g, events) = named_hearts(FOUR, "js", false);
    assert_eq!(scored(&events), (Score::Point, 0, 1, 4));
    assert_eq!(g.points(), [1, 0]);
}

#[test]
fn alone_taking_three_scores_one() {
    let (g, events) = named_hearts(THREE, "js", true);
    assert_eq!(scored(&events), (Score::Point, 0, 1, 3));
    assert_eq!(g.points(), [1, 0]);
}

#[test]
fn euchred_makers_give_the_defenders_two() {
    let (g, events) = named_hearts(EUCHRE, "as", false);
    assert_eq!(scored(&events), (Score::Euchre, 1, 2, 0));
    assert_eq!(g.points(), [0, 2]);
    let names = ["Ann", "Bob", "Cat", "Dan"];
    let line = events
        .iter()
        .find(|e| matches!(e, Event::Scored { .. }))
        .unwrap()
        .describe(names);
    assert_eq!(
        line,
        "makers Ann & Cat took 0 tricks, euchred: Bob & Dan score 2; Ann & Cat 0 - 2 Bob & Dan"
    );
    let first = events[0].describe(names);
    assert_eq!(first, "Ann plays tc");
}

#[test]
fn a_euchred_lone_maker_gives_the_defenders_two() {
    let (g, events) = named_hearts(EUCHRE, "as", true);
    assert_eq!(scored(&events), (Score::Euchre, 1, 2, 0));
    assert_eq!(g.points(), [0, 2]);
}

#[test]
fn the_trick_input_counts_the_trick_and_not_yet_the_score() {
    let mut g = game(3, MARCH, "9s").with_points([3, 5]);
    pass_round(&mut g);
    answer(&mut g, 0, Kind::Name, "h");
    for seat in 1..4 {
        answer(&mut g, seat, Kind::Name, "p");
    }
    answer(&mut g, 0, Kind::Alone, "n");
    answer(&mut g, 2, Kind::Alone, "n");
    for _ in 0..4 {
        for _ in 0..8 {
            let a = g.default_answer().unwrap();
            g.apply(a).unwrap();
        }
    }
    for seat in [0, 1, 2, 3] {
        let token = g.default_answer().unwrap().token();
        answer(&mut g, seat, Kind::Play, &token);
    }
    assert_eq!(g.input().unwrap(), "\n3\n5\ntrick\n0\nh\nqh,qs,kc,kd\n");
    answer(&mut g, 0, Kind::Trick, "");
    assert_eq!(g.input().unwrap(), "\n5\n0\ntrick\n1\nh\nqh,qs,kc,kd\n");
}

#[test]
fn reaching_the_target_ends_the_game() {
    let mut g = game(3, MARCH, "9s").with_points([9, 0]);
    pass_round(&mut g);
    answer(&mut g, 0, Kind::Name, "h");
    for seat in 1..4 {
        answer(&mut g, seat, Kind::Name, "p");
    }
    answer(&mut g, 0, Kind::Alone, "n");
    answer(&mut g, 2, Kind::Alone, "n");
    let events = play_out(&mut g);
    assert_eq!(
        events.last(),
        Some(&Event::GameWon {
            team: 0,
            totals: [11, 0]
        })
    );
    assert_eq!(g.outcome(), Some(Outcome::Won { team: 0 }));
    assert!(g.is_over());
    assert_eq!(
        (g.decision(), g.input(), g.default_answer()),
        (None, None, None)
    );
    assert!(g.legal().is_empty());
    assert_eq!(g.respond(b"p"), None);
    assert_eq!(g.apply(Answer::Pass), Err(RuleError::Over));
}

#[test]
fn endless_throw_ins_are_drawn_at_the_deal_limit() {
    let config = Config {
        max_deals: 3,
        ..Config::default()
    };
    let mut g = Game::new(config, rng(5));
    let mut n = 0;
    while g.decision().is_some() {
        g.respond(b"p").unwrap();
        n += 1;
    }
    assert_eq!(n, 3 * 8);
    assert_eq!(g.outcome(), Some(Outcome::Drawn));
    assert_eq!(g.events().last(), Some(&Event::Drawn { totals: [0, 0] }));
}

// ---- Parsing ----

#[test]
fn parsing_every_answer_kind() {
    let mut g = game(3, DEAL, "9s");
    // ordering
    assert_eq!(g.parse(b"o"), Ok(Answer::OrderUp));
    assert_eq!(g.parse(b" p\r\n"), Ok(Answer::Pass));
    assert_eq!(g.parse(b""), Err(BadAnswer::Empty));
    assert_eq!(g.parse(b" \n\t"), Err(BadAnswer::Empty));
    assert_eq!(g.parse(b"\xc3\x28"), Err(BadAnswer::NotText));
    for bad in ["O", "op", "o\np", "y", "h", "0", "pass"] {
        assert!(
            matches!(
                g.parse(bad.as_bytes()),
                Err(BadAnswer::Unrecognised {
                    kind: Kind::Order,
                    ..
                })
            ),
            "{bad:?}"
        );
    }
    let long = "x".repeat(10_000);
    match g.parse(long.as_bytes()) {
        Err(BadAnswer::Unrecognised { text, .. }) => assert_eq!(text.len(), 40),
        other => panic!("{other:?}"),
    }
    for seat in 0..3 {
        answer(&mut g, seat, Kind::Order, "p");
    }
    answer(&mut g, 3, Kind::Order, "o");
    // discard: any of the six
    assert_eq!(g.parse(b"9s"), Ok(Answer::Discard(c("9s"))));
    assert_eq!(g.parse(b"kd\n"), Ok(Answer::Discard(c("kd"))));
    assert_eq!(g.parse(b"as"), Err(BadAnswer::NotInHand(c("as"))));
    assert!(matches!(g.parse(b"p"), Err(BadAnswer::Unrecognised { .. })));
    answer(&mut g, 3, Kind::Discard, "9d");
    // alone
    assert_eq!(g.parse(b"y"), Ok(Answer::Alone(true)));
    assert_eq!(g.parse(b"n\n"), Ok(Answer::Alone(false)));
    assert!(matches!(
        g.parse(b"yes"),
        Err(BadAnswer::Unrecognised { .. })
    ));
    answer(&mut g, 3, Kind::Alone, "n");
    answer(&mut g, 1, Kind::Alone, "n");
    // turn: spades trump (the jack of clubs is the left bower)
    assert_eq!(g.parse(b"jh"), Ok(Answer::Play(c("jh"))));
    assert_eq!(g.parse(b"th"), Err(BadAnswer::NotInHand(c("th"))));
    assert!(matches!(
        g.parse(b"j h"),
        Err(BadAnswer::Unrecognised { .. })
    ));
    answer(&mut g, 0, Kind::Play, "jh");
    assert_eq!(
        g.parse(b"as"),
        Err(BadAnswer::MustFollow {
            card: c("as"),
            led: Suit::Hearts
        })
    );
    // Logs spell suits out, where the protocol writes their letter.
    assert_eq!(
        BadAnswer::MustFollow {
            card: c("as"),
            led: Suit::Hearts
        }
        .to_string(),
        "as does not follow hearts, which the hand holds"
    );
    assert_eq!(
        BadAnswer::TurnedSuit(Suit::Spades).to_string(),
        "spades was the turned card's suit and cannot be named"
    );
    // naming, in a fresh game
    let mut g = game(3, DEAL, "9s");
    pass_round(&mut g);
    assert_eq!(g.parse(b"p"), Ok(Answer::Pass));
    assert_eq!(g.parse(b"d"), Ok(Answer::Name(Suit::Diamonds)));
    assert_eq!(g.parse(b"s"), Err(BadAnswer::TurnedSuit(Suit::Spades)));
    for bad in ["H", "hh", "o", "x"] {
        assert!(
            matches!(g.parse(bad.as_bytes()), Err(BadAnswer::Unrecognised { .. })),
            "{bad:?}"
        );
    }
    // A typed answer of the wrong kind is a driver error.
    assert_eq!(
        g.apply(Answer::OrderUp),
        Err(RuleError::WrongKind {
            expected: Kind::Name,
            answer: Answer::OrderUp
        })
    );
}

#[test]
fn random_bytes_never_panic_and_always_leave_a_legal_state() {
    let mut chooser = rng(99);
    for seed in 0..200 {
        let mut g = Game::new(Config::default(), rng(seed));
        while g.decision().is_some() {
            let len = chooser.random_range(0..6);
            let mut bytes: Vec<u8> = (0..len).map(|_| chooser.random()).collect();
            if chooser.random_bool(0.5) {
                // Mostly printable protocol letters, to hit near-misses.
                for b in &mut bytes {
                    *b = b"opyncdhs9tjqka, \n"[(*b as usize) % 17];
                }
            }
            let legal = g.legal();
            let r = g.respond(&bytes).unwrap();
            assert!(legal.contains(&r.answer), "{r:?}");
        }
    }
}

// ---- Random playouts ----

/// Checks that the 24 cards are all somewhere, once.
fn assert_conserved(g: &Game) {
    let mut all: Vec<Card> = (0..4).flat_map(|s| g.hand(s).to_vec()).collect();
    all.extend_from_slice(g.kitty());
    all.extend_from_slice(g.played());
    all.sort();
    let mut full = Card::deck();
    full.sort();
    assert_eq!(all, full, "{g:?}");
}

#[derive(Debug, Default)]
struct Tally {
    games: u32,
    scores: [u32; 4],
    throw_ins: u32,
    alone: u32,
    defaults: u32,
}

fn playout(seed: u64, tally: &mut Tally) -> Vec<Event> {
    let config = Config {
        first_dealer: (seed % 4) as usize,
        ..Config::default()
    };
    let mut g = Game::new(config, rng(seed));
    let mut chooser = rng(seed ^ 0x5eed);
    let mut played_this_deal = 0;
    let mut steps = 0;
    while let Some(d) = g.decision() {
        steps += 1;
        assert!(steps < 100_000, "a game must end");
        assert_conserved(&g);
        let legal = g.legal();
        assert!(!legal.is_empty(), "no legal answer: {g:?}");
        let default = g.default_answer().unwrap();
        assert!(legal.contains(&default), "{default:?} not in {legal:?}");
        assert!(!g.sits_out(d.seat) || d.kind != Kind::Play);
        let input = g.input().unwrap();
        let lines: Vec<&str> = input.split_terminator('\n').collect();
        assert_eq!(lines[3], d.kind.phase());
        assert_eq!(
            lines.len(),
            if matches!(d.kind, Kind::Order | Kind::Alone | Kind::Play | Kind::Trick) {
                6 + (d.kind == Kind::Trick) as usize
            } else {
                5
            }
        );
        let response = if chooser.random_bool(0.03) {
            tally.defaults += 1;
            g.respond_default("test failure").unwrap()
        } else {
            // Ordering passes mostly, so that some hands are named or thrown in.
            let pick = if d.kind == Kind::Order && chooser.random_bool(0.6) {
                Answer::Pass
            } else {
                legal[chooser.random_range(0..legal.len())]
            };
            let r = g.respond(pick.token().as_bytes()).unwrap();
            assert_eq!((r.answer, r.rejected.clone()), (pick, None));
            r
        };
        for e in &response.events {
            assert!(!e.describe(["a", "b", "c", "d"]).contains('\n'));
            match e {
                Event::Played { .. } => played_this_deal += 1,
                Event::TrickWon { cards, .. } => {
                    assert_eq!(cards.len(), 4);
                    assert_eq!(
                        cards.iter().filter(|c| c.is_none()).count(),
                        g.alone().is_some() as usize
                    );
                }
                Event::ThrownIn { .. } => tally.throw_ins += 1,
                Event::Scored {
                    alone,
                    score,
                    makers_tricks,
                    maker,
                    team,
                    ..
                } => {
                    let expected = if alone.is_some() { 15 } else { 20 };
                    assert_eq!(played_this_deal, expected, "every hand has 5 tricks");
                    tally.alone += alone.is_some() as u32;
                    tally.scores[*score as usize] += 1;
                    assert_eq!((*makers_tricks >= 3), *team == team_of(*maker));
                }
                Event::Dealt { .. } => played_this_deal = 0,
                _ => {}
            }
        }
    }
    match g.outcome() {
        Some(Outcome::Won { team }) => {
            assert!(g.points()[team] >= DEFAULT_TARGET);
            assert!(g.points()[1 - team] < DEFAULT_TARGET);
        }
        other => panic!("random players reach the target: {other:?}"),
    }
    tally.games += 1;
    g.events().to_vec()
}

#[test]
fn random_playouts_keep_the_invariants() {
    let mut tally = Tally::default();
    for seed in 0..3000 {
        playout(seed, &mut tally);
    }
    assert_eq!(tally.games, 3000);
    assert!(tally.scores.iter().all(|&n| n > 0), "{tally:?}");
    assert!(
        tally.throw_ins > 0 && tally.alone > 0 && tally.defaults > 0,
        "{tally:?}"
    );
}

#[test]
fn same_seed_same_game() {
    let mut tally = Tally::default();
    assert_eq!(playout(7, &mut tally), playout(7, &mut tally));
    assert_ne!(playout(7, &mut tally), playout(8, &mut tally));
}
