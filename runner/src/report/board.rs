//! The state after each decision of the built-in games that are not played by a referee, for
//! the replay's viewer: their archives hold no state to draw.
//!
//! - Coup: the game is dealt again from its seed and each recorded move applied, and every
//!   prompt the rules give is checked against the arguments the bot got. Where one differs (an
//!   archive of another koth, or one edited), the game gets no board and the viewer shows its
//!   text, as before.
//! - Bank Heist: the table is what the game's decisions tell, read from their arguments and
//!   answers (credits, bets, round-2 answers, the bank of round 2); rabble are not bots and
//!   have no decisions, so they are counted, not shown.

use koth_rules::bank_heist::Bank;
use koth_rules::coup::{Card, Game};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

/// One recorded Coup decision, as much of it as the rules need.
pub struct CoupMove {
    /// Its arguments (`argv`, the history file's name first).
    pub argv: Vec<String>,
    /// Whether the invocation ended well (a crash is a forfeit: the rules never saw a move).
    pub ok: bool,
    /// Whether the host could not complete it (the game is void).
    pub void: bool,
    /// What it appended to the history file, if the file was only appended to.
    pub appended: Option<String>,
    /// What it printed.
    pub stdout: String,
}

/// The state after each move of a game dealt from `deck_seed` between `names`, or `None`
/// when a move's arguments are not what the rules give.
pub fn coup_states(
    deck_seed: u64,
    names: [&str; 2],
    moves: &[CoupMove],
) -> Option<Vec<serde_json::Value>> {
    let mut game = Game::new(ChaCha8Rng::seed_from_u64(deck_seed));
    let mut out = Vec::with_capacity(moves.len());
    for mv in moves {
        if game.is_over() {
            return None;
        }
        let prompt = game.prompt();
        let expected = [
            prompt.opponent_coins.to_string(),
            prompt.own_coins.to_string(),
            prompt.cards.clone(),
        ];
        let given = mv.argv.get(1..).unwrap_or_default();
        if given.len() != 3 + prompt.legal.len()
            || given[..3] != expected
            || given[3..] != prompt.legal[..]
        {
            return None;
        }
        // A crash, or a move the rules refuse, is a forfeit: the board stays as it was.
        let taken = match (mv.ok, &mv.appended) {
            (true, Some(text)) => game.apply(text, &mv.stdout).is_ok(),
            _ => false,
        };
        out.push(state(&game, prompt.seat, names, !taken, mv.void));
    }
    Some(out)
}

/// The board: each player's coins and cards, who moved, and whether the move was taken (or
/// the game void). What the move did is the step's text already (the human log's lines).
fn state(
    game: &Game,
    mover: usize,
    names: [&str; 2],
    forfeit: bool,
    void: bool,
) -> serde_json::Value {
    let cards = |cs: &[Card]| cs.iter().map(|c| c.name()).collect::<Vec<_>>();
    let players: Vec<serde_json::Value> = (0..2)
        .map(|s| {
            serde_json::json!({
                "name": names[s],
                "coins": game.coins(s),
                "hidden": cards(game.cards(s)),
                "revealed": cards(game.lost(s)),
            })
        })
        .collect();
    serde_json::json!({
        "players": players,
        "mover": mover,
        "forfeit": forfeit && !void,
        "void": void,
        "deck": game.deck().len(),
    })
}

/// One recorded Bank Heist decision.
pub struct HeistMove<'a> {
    /// The bot.
    pub bot: &'a str,
    /// Its 31 arguments, space-separated.
    pub args: &'a str,
    /// The decision taken (`bet N`, with a note after a failure, or the round-2 answer).
    pub decision: &'a str,
}

/// The table after each decision of one Bank Heist game of `bots` bots (every bot plays
/// every game). The rabble are counted from round 1's argument 3, the players in the game,
/// which round 2 of the original rules redefines.
pub fn heist_states(moves: &[HeistMove], bots: u64) -> Vec<serde_json::Value> {
    struct Row<'a> {
        name: &'a str,
        credits: Option<u64>,
        bet: Option<u64>,
        answer: Option<&'a str>,
    }
    let mut rows: Vec<Row> = Vec::new();
    let mut rabble = None;
    let mut out = Vec::with_capacity(moves.len());
    for mv in moves {
        let args: Vec<&str> = mv.args.split(' ').collect();
        let arg = |i: usize| args.get(i - 1).and_then(|a| a.parse::<u64>().ok());
        let (game, round, players, bank) = (arg(1), arg(2), arg(3), arg(8));
        let i = match rows.iter().position(|r| r.name == mv.bot) {
            Some(i) => i,
            None => {
                rows.push(Row {
                    name: mv.bot,
                    credits: None,
                    bet: None,
                    answer: None,
                });
                rows.len() - 1
            }
        };
        let row = &mut rows[i];
        if round == Some(2) {
            row.answer = Some(mv.decision);
        } else {
            rabble = players.map(|p| p.saturating_sub(bots));
            row.credits = arg(9);
            row.bet = mv
                .decision
                .strip_prefix("bet ")
                .and_then(|b| b.split(' ').next())
                .and_then(|b| b.parse().ok());
        }
        let heisters = rows.iter().filter(|r| r.bet.unwrap_or(0) > 0).count();
        out.push(serde_json::json!({
            "game": game,
            "round": round,
            "bot": mv.bot,
            "players": rows.iter().map(|r| serde_json::json!({
                "name": r.name,
                "credits": r.credits,
                "bet": r.bet,
                "answer": r.answer,
            })).collect::<Vec<_>>(),
            "heisters": heisters,
            "rabble": rabble,
            // Round 2 is asked once every bet is in: its argument 8 is the bank robbed.
            "bank": bank.filter(|_| round == Some(2)).and_then(bank_name),
        }));
    }
    out
}

fn bank_name(index: u64) -> Option<&'static str> {
    Bank::ALL.get(index as usize).map(|b| b.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves_of(seed: u64, plays: &[&str]) -> (Vec<CoupMove>, Game) {
        // Play `plays` through the rules as the driver would, recording each move.
        let mut game = Game::new(ChaCha8Rng::seed_from_u64(seed));
        let mut moves = Vec::new();
        for &text in plays {
            let p = game.prompt();
            let mut argv = vec![
                "a_b_0.txt".to_string(),
                p.opponent_coins.to_string(),
                p.own_coins.to_string(),
                p.cards.clone(),
            ];
            argv.extend(p.legal.iter().cloned());
            game.apply(text, "").expect("a legal move");
            moves.push(CoupMove {
                argv,
                ok: true,
                void: false,
                appended: Some(text.to_string()),
                stdout: String::new(),
            });
        }
        (moves, game)
    }

    #[test]
    fn each_move_shows_the_coins_and_cards_after_it() {
        // Income, then Income: one coin more each.
        let (moves, game) = moves_of(5, &["I\n", "I\n"]);
        let states = coup_states(5, ["a", "b"], &moves).expect("the arguments match");
        assert_eq!(states.len(), 2);
        assert_eq!(states[0]["players"][0]["coins"], 2);
        assert_eq!(states[0]["players"][1]["coins"], 1);
        assert_eq!(states[1]["players"][1]["coins"], 2);
        assert_eq!(states[1]["mover"], 1);
        let hidden = states[1]["players"][0]["hidden"].as_array().unwrap();
        assert_eq!(hidden.len(), 2);
        assert_eq!(hidden[0], game.cards(0)[0].name());
        assert_eq!(
            states[1]["players"][0]["revealed"]
                .as_array()
                .unwrap()
                .len(),
            0
        );
    }

    #[test]
    fn arguments_the_rules_did_not_give_leave_no_board() {
        let (mut moves, _) = moves_of(5, &["I\n", "I\n"]);
        moves[1].argv[2] = "9".into();
        assert!(coup_states(5, ["a", "b"], &moves).is_none());
        // Another deck deals other cards.
        let (moves, _) = moves_of(5, &["I\n"]);
        let other = (0..64).find(|&s| {
            let mut g = Game::new(ChaCha8Rng::seed_from_u64(s));
            g.prompt().cards != moves[0].argv[3]
        });
        assert!(coup_states(other.unwrap(), ["a", "b"], &moves).is_none());
    }

    #[test]
    fn a_crash_changes_nothing_and_is_marked() {
        let (mut moves, _) = moves_of(5, &["I\n"]);
        moves[0].ok = false;
        let states = coup_states(5, ["a", "b"], &moves).unwrap();
        assert_eq!(states[0]["players"][0]["coins"], 1);
        assert_eq!(states[0]["forfeit"], true);
    }

    #[test]
    fn a_heist_table_grows_with_the_decisions() {
        let args = |round: u8, credits: u64, bank: u64| {
            let mut a = vec!["3".to_string(); 31];
            a[1] = round.to_string();
            a[2] = "40".into();
            a[7] = bank.to_string();
            a[8] = credits.to_string();
            a.join(" ")
        };
        let (r1a, r1b, r2a) = (args(1, 240, 0), args(1, 500, 0), args(2, 240, 1));
        let moves = [
            HeistMove {
                bot: "a",
                args: &r1a,
                decision: "bet 40",
            },
            HeistMove {
                bot: "b",
                args: &r1b,
                decision: "bet 0 (it crashed)",
            },
            HeistMove {
                bot: "a",
                args: &r2a,
                decision: "heist",
            },
        ];
        let states = heist_states(&moves, 3);
        assert_eq!(states[0]["players"].as_array().unwrap().len(), 1);
        assert_eq!(states[0]["bank"], serde_json::Value::Null);
        assert_eq!(states[1]["players"][1]["credits"], 500);
        assert_eq!(states[1]["players"][1]["bet"], 0);
        assert_eq!(states[1]["heisters"], 1);
        // 40 players: the three bots (one not asked yet) and 37 rabble.
        assert_eq!(states[1]["rabble"], 37);
        assert_eq!(states[2]["rabble"], 37);
        assert_eq!(states[2]["players"][0]["answer"], "heist");
        assert_eq!(states[2]["players"][0]["bet"], 40);
        assert_eq!(states[2]["bank"], "City");
        assert_eq!(states[2]["game"], 3);
    }
}
