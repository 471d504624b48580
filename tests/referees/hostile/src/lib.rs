//! A hostile referee: with `--opt attack=NAME` it attacks koth in one way, as cheaply as it
//! can; with `attack=none` it plays a tiny honest game (each seat says something once; the
//! longest answer wins), so the tests have a control.
//!
//! Every attack must end its match as a referee fault named with its reason, never as a
//! host panic, hang or crash.

use koth_referee::*;

struct Hostile;

/// The attacks, each one way a referee can misbehave.
const ATTACKS: &[&str] = &[
    "none",
    "trap",
    "loop",
    "memory",
    "bad-scores",
    "bad-winner",
    "bad-seat",
    "quota",
    "huge-stdin",
    "malformed",
    "judge-twice",
    "log-flood",
    "decide-flood",
    "random-flood",
    "give-up",
    "state-huge",
    "state-deep",
    "state-twice",
];

/// The honest game's viewer: one row per seat that has spoken, one 16-pixel red square per
/// byte it said (at most 30), rows 30 pixels apart from y = 10, on a canvas; then it asks
/// for its height. The tests count the squares in a screenshot.
const VIEWER: &str = r##"
const canvas = document.createElement("canvas");
canvas.width = 640;
canvas.height = 100;
document.body.style.margin = "0";
canvas.style.display = "block";
document.body.append(canvas);
addEventListener("message", (e) => {
  const said = e.data.state.said;
  canvas.height = 20 + 30 * said.length;
  const g = canvas.getContext("2d");
  g.fillStyle = "#ffffff";
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = "#c0392b";
  said.forEach((n, row) => {
    for (let i = 0; i < Math.min(n, 30); i++) g.fillRect(10 + 20 * i, 10 + 30 * row, 16, 16);
  });
  parent.postMessage({ height: canvas.height }, "*");
});
"##;

impl Referee for Hostile {
    fn protocol(&self) -> String {
        "# The honest game\n\nEach seat is asked once, with the argument `say` and `hello` on \
         stdin.\nThe longest answer wins; a tie is a draw.\n"
            .into()
    }

    fn viewer(&self) -> String {
        VIEWER.trim_start().into()
    }

    fn describe(&self) -> Description {
        Description {
            name: "hostile".into(),
            summary: "a referee that attacks the host".into(),
            seating: Seating::Fixed(2),
            seat_names: vec![],
            teams: vec![],
            partners: vec![],
            formats: vec![Format::OrderedPairs, Format::Tables],
            rounds: 1,
            paired: false,
            directory: Some(Directory {
                bytes: 1024,
                nodes: 8,
            }),
            options: vec![OptionSpec {
                name: "attack".into(),
                description: "how to attack the host".into(),
                default: Value::Text("none".into()),
                min: None,
                max: None,
                choices: ATTACKS.iter().map(|s| s.to_string()).collect(),
            }],
            scoring: Scoring {
                score_name: None,
                matches: "games".into(),
                spread: false,
                points: false,
            },
        }
    }

    fn play(&self, setup: &MatchSetup, host: &mut dyn Host) -> Result<MatchResult, Abort> {
        let attack = setup.text("attack").unwrap_or("none");
        let n = setup.seats.len() as u32;
        let ask = |host: &mut dyn Host, seat: u32, stdin: Vec<u8>| {
            host.decide(DecisionRequest {
                seat,
                phase: "say".into(),
                args: vec!["say".into()],
                stdin,
            })
        };
        match attack {
            "trap" => panic!("the referee panics on purpose"),
            "loop" => {
                let mut x: u64 = setup.seed;
                loop {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            }
            "memory" => {
                let mut hoard: Vec<Vec<u8>> = Vec::new();
                loop {
                    hoard.push(vec![1u8; 1 << 20]);
                    std::hint::black_box(&hoard);
                }
            }
            "bad-seat" => {
                ask(host, 99, Vec::new())?;
            }
            "quota" => {
                // The directory holds 1 KiB: place 4 KiB.
                host.write_file(0, "big.txt", &[b'x'; 4096])?;
            }
            "huge-stdin" => {
                ask(host, 0, vec![b'x'; 2 << 20])?;
            }
            "judge-twice" => {
                ask(host, 0, Vec::new())?;
                host.judge(Verdict::default())?;
                host.judge(Verdict::default())?;
            }
            "log-flood" => {
                let line = "x".repeat(1 << 16);
                loop {
                    host.log(&line)?;
                }
            }
            "decide-flood" => loop {
                ask(host, 0, Vec::new())?;
            },
            "random-flood" => {
                host.random(2 << 20)?;
            }
            "give-up" => return Err(Abort::new("the referee gives up")),
            // The replay's states: one past the cap, one nested past any parser's depth
            // within the cap, and two for one decision.
            "state-huge" => {
                ask(host, 0, Vec::new())?;
                host.show(&format!("{{\"x\":\"{}\"}}", "x".repeat(16 << 10)))?;
            }
            "state-deep" => {
                ask(host, 0, Vec::new())?;
                let depth = 5000;
                host.show(&format!("{{\"x\":{}{}}}", "[".repeat(depth), "]".repeat(depth)))?;
            }
            "state-twice" => {
                ask(host, 0, Vec::new())?;
                host.judge(Verdict::default())?;
                host.show("{}")?;
                host.show("{}")?;
            }
            _ => {}
        }
        // The honest game: each seat says something once; the longest answer wins.
        let mut said = Vec::new();
        for seat in 0..n {
            let r = ask(host, seat, b"hello\n".to_vec())?;
            let text = String::from_utf8_lossy(&r.stdout).trim().to_string();
            host.judge(Verdict {
                answer: text.clone(),
                failure: (!r.outcome.is_ok()).then(|| Failure {
                    kind: r.outcome.kind().into(),
                    detail: r.outcome.to_string(),
                }),
                events: vec![format!("seat {seat} said {} bytes", text.len())],
            })?;
            host.log(&format!("{} said {:?}", setup.seats[seat as usize].bot, text))?;
            said.push(text.len());
            // The state its own viewer (VIEWER) draws: the lengths said so far.
            host.show(&format!("{{\"said\":{said:?}}}"))?;
        }
        let best = said.iter().copied().max().unwrap_or(0);
        let winners: Vec<u32> = if said.iter().filter(|&&l| l == best).count() > 1 {
            vec![]
        } else {
            (0..n).filter(|&s| said[s as usize] == best).collect()
        };
        let mut seats: Vec<SeatResult> = (0..n)
            .map(|s| SeatResult {
                score: u64::from(winners.contains(&s)),
                ..SeatResult::default()
            })
            .collect();
        let mut winners = winners;
        let mut detail = format!("{{\"lengths\":{said:?}}}");
        match attack {
            "bad-scores" => seats.push(SeatResult::default()),
            "bad-winner" => winners.push(7),
            "malformed" => detail = "{not json".into(),
            _ => {}
        }
        Ok(MatchResult {
            seats,
            winners,
            detail,
        })
    }
}

export_referee!(Hostile);
