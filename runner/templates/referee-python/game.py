"""{{title}}: the rules and one whole match, knowing nothing of WebAssembly or koth.

The game is the iterated Prisoner's Dilemma, a classic of King-of-the-Hill contests: two
players, 100 turns by default; each turn both choose at once to cooperate (C) or to defect
(D). Both cooperate: 3 points each. Both defect: 1 each. One defects: it takes 5, the other 0.
Before each decision a player finds `history.txt` in its folder, one line per turn played so
far, its own move first: `C D` means it cooperated and the other defected. With `noise`, each
move is flipped with that chance (in percent), drawn from the match's seeded random stream.

`app.py` binds this module to koth's referee interface (wit/referee.wit). Everything a match
does goes through `host`, an object with these methods (app.py's `KothHost` is koth's, and a
test can pass its own):

- `decide(seat, stdin) -> Report`: one decision of the bot in `seat`;
- `judge(answer, failure, events)`: how the referee read that decision (`failure` is
  `(kind, detail)` or None) and what it made happen, for the replay;
- `show(state)`: the state after the decision just judged (a dict), which the replay's
  viewer draws;
- `log(line)`: a line of the match's human log;
- `write_file(seat, name, data)`: place a file in the seat's folder;
- `random(n) -> bytes`: the next n bytes of the match's random stream.

Change the rules here; change what koth is told about the game (seats, options, scoring) in
app.py.
"""

import json

from manager import BadAnswer, Manager

#: The file each player finds in its folder before each decision.
HISTORY = "history.txt"

#: Points for (my move, the other's move).
PAYOFF = {("C", "C"): 3, ("C", "D"): 0, ("D", "C"): 5, ("D", "D"): 1}


class Report:
    """What a decision gave: `ok` (exit 0), the failure kind koth counts when not ok (`exit`,
    `trap`, `fuel`, `memory`, `output`, `limit`), the outcome in words, and stdout (bytes)."""

    def __init__(self, ok, kind, outcome, stdout):
        self.ok = ok
        self.kind = kind
        self.outcome = outcome
        self.stdout = stdout


def parse_answer(stdout):
    """The move in `stdout` and the answer to record: its first line, surrounding whitespace
    ignored, `C` or `D`."""
    try:
        text = stdout.decode("utf-8")
    except UnicodeDecodeError:
        raise BadAnswer("stdout is not UTF-8 text")
    line = text.split("\n", 1)[0].strip()
    if line in ("C", "D"):
        return line, line
    if not line:
        raise BadAnswer("no answer: the first line of stdout is empty")
    raise BadAnswer(f"{line[:40]!r} is neither C nor D")


def play(names, turns, noise, host):
    """Play one match between `names[0]` (seat 0) and `names[1]` (seat 1).

    Returns (scores, winners, detail): each seat's points, the winning seats (empty for a
    draw), and a JSON object that koth keeps in results.json.
    """
    host.log(f"{names[0]} against {names[1]}: {turns} turns, noise {noise}%")
    # The manager asks both seats before either move counts (simultaneous moves), and a
    # seat whose bot fails (a crash, a limit, another answer) defects that turn, the failure
    # counted against it: failing never gains a bot anything it could not get by answering D.
    manager = Manager(2, default_note="it defects this turn")
    history = []
    scores = [0, 0]
    cooperations = [0, 0]
    for turn in range(1, turns + 1):
        for seat in (0, 1):
            lines = "".join(f"{h[seat]} {h[1 - seat]}\n" for h in history)
            host.write_file(seat, HISTORY, lines.encode())

        def resolve(moves):
            events = []
            for seat in (0, 1):
                if noise and host.random(1)[0] % 100 < noise:
                    moves[seat] = "C" if moves[seat] == "D" else "D"
                    events.append(f"noise: {names[seat]}'s move is flipped to {moves[seat]}")
            gained = [PAYOFF[(moves[0], moves[1])], PAYOFF[(moves[1], moves[0])]]
            for s in (0, 1):
                scores[s] += gained[s]
                cooperations[s] += moves[s] == "C"
            events.append(
                f"turn {turn}: {names[0]} {moves[0]}, {names[1]} {moves[1]}: "
                f"{gained[0]}-{gained[1]}, total {scores[0]}-{scores[1]}"
            )
            for e in events:
                host.log("  " + e)
            return events

        moves = manager.ask_all(
            host,
            lambda seat: f"turn {turn} of {turns}\n".encode(),
            parse_answer,
            lambda seat: "D",
            resolve,
        )
        history.append(tuple(moves))
        # The board after the turn, for the replay's viewer (koth's built-in one for this
        # game, named by `viewer`): the moves, the running score and the last ten turns.
        host.show({
            "viewer": "prisoners-dilemma",
            "turn": turn,
            "turns": turns,
            "names": list(names),
            "moves": list(moves),
            "scores": list(scores),
            "recent": [list(h) for h in history[-10:]],
        })
    failures = manager.failures
    if scores[0] == scores[1]:
        winners = []
        host.log(f"a draw at {scores[0]} points each")
    else:
        w = 0 if scores[0] > scores[1] else 1
        winners = [w]
        host.log(f"{names[w]} wins, {scores[w]} points to {scores[1 - w]}")
    detail = json.dumps(
        {"turns": turns, "cooperations": cooperations, "failures": failures},
        sort_keys=True,
    )
    return scores, winners, detail
