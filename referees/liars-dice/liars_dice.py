"""Liar's Dice: the rules and one whole match, knowing nothing of WebAssembly or koth.

`app.py` binds this module to koth's referee interface (wit/referee.wit); the tests
(`test_liars_dice.py`) drive it with scripted players through a fake host. Everything a match
does goes through `host`, an object with these methods (app.py's `KothHost` is koth's):

- `decide(seat, stdin) -> Report`: one decision of the bot in `seat`, given `stdin`;
- `judge(answer, failure, events)`: how the referee read the last decision (`failure` is
  `(kind, detail)` or None);
- `show(state)`: the table after the decision just judged (a dict: every cup, the dice each
  seat has left, the bids of the hand, and how a call or failure ended it), for the replay's
  viewer;
- `log(line)`: a line of the human log;
- `write_file(seat, name, data)`: place a file in the seat's directory;
- `random(n) -> bytes`: the next n bytes of the match's seeded random stream.

The rules are in README.md; each function below says which one it implements.
"""

import json
import re

#: Face names for the logs, plural and singular.
PLURAL = {1: "ones", 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes"}
SINGULAR = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}

#: The history file each seat finds in its directory before each of its decisions.
HISTORY = "history.txt"

#: A count or a face in an answer: plain ASCII digits (str.isdigit would take "²").
NUMBER = re.compile(r"[0-9]{1,9}")


class Options:
    """The referee's options (README: Options)."""

    def __init__(self, dice=5, wild_ones=True, starter="loser"):
        self.dice = dice
        self.wild_ones = wild_ones
        self.starter = starter


class Report:
    """What a decision gave: `ok` (exit 0), the failure kind koth counts when not ok
    (`exit`, `trap`, `fuel`, `memory`, `output`, `limit`), how it ended in words, and stdout."""

    def __init__(self, ok, kind, outcome, stdout):
        self.ok = ok
        self.kind = kind
        self.outcome = outcome
        self.stdout = stdout


class BadAnswer(Exception):
    """An answer the rules do not allow: the detail says why, for the bot's author."""


def quantity(q, face):
    return f"{q} {SINGULAR[face] if q == 1 else PLURAL[face]}"


def lowest_face(wild_ones):
    """With wild ones no bid may name ones (README: Bids)."""
    return 2 if wild_ones else 1


def parse_answer(stdout, last_bid, total, wild_ones):
    """The answer in `stdout`: ("bid", q, face) or ("liar",). Raises BadAnswer.

    README: Answers. Only the first line counts, without surrounding whitespace.
    """
    try:
        text = stdout.decode("utf-8")
    except UnicodeDecodeError:
        raise BadAnswer("stdout is not UTF-8 text")
    line = text.split("\n", 1)[0].strip()
    if not line:
        raise BadAnswer("no answer: the first line of stdout is empty")
    words = line.split()
    if words == ["liar"]:
        if last_bid is None:
            raise BadAnswer("`liar` with no bid to call: the hand's first decision must bid")
        return ("liar",)
    shown = line if len(line) <= 40 else line[:40] + "..."
    if len(words) != 3 or words[0] != "bid" or not all(NUMBER.fullmatch(w) for w in words[1:]):
        raise BadAnswer(f"{shown!r} is neither `bid QUANTITY FACE` nor `liar`")
    q, face = int(words[1]), int(words[2])
    low = lowest_face(wild_ones)
    if not low <= face <= 6:
        raise BadAnswer(
            f"face {face} is not one of {low}..6" + (" (ones are wild)" if wild_ones else "")
        )
    if not 1 <= q <= total:
        raise BadAnswer(f"quantity {q} is not one of 1..{total}, the dice in play")
    if last_bid is not None and (q, face) <= last_bid:
        raise BadAnswer(
            f"bid {q} {face} does not raise {last_bid[0]} {last_bid[1]}: "
            "a bid needs more dice, or as many dice of a higher face"
        )
    return ("bid", q, face)


def count(cups, face, wild_ones):
    """Dice on the table showing `face`, ones included when they are wild (README: Calls)."""
    return sum(1 for cup in cups for d in cup if d == face or (wild_ones and d == 1))


def next_seat(dice, seat):
    """The next seat after `seat`, in seat order, that still has dice."""
    n = len(dice)
    for step in range(1, n + 1):
        s = (seat + step) % n
        if dice[s] > 0:
            return s
    return seat


def roll(host, seats, per_seat):
    """`per_seat` dice for every seat (README: Dice): each byte below 252 of the random
    stream gives one die, `byte % 6 + 1`; a byte of 252 or more is skipped so that every face
    is equally likely. Every seat gets `per_seat` dice whatever it has left (it uses the first
    ones), so a hand's roll never depends on how earlier hands went: paired games that reach
    the same hand deal it alike."""
    want = seats * per_seat
    got = []
    while len(got) < want:
        for b in host.random(want - len(got)):
            if b < 252:
                got.append(b % 6 + 1)
    return [got[s * per_seat:(s + 1) * per_seat] for s in range(seats)]


def render_stdin(seat, dice, wild_ones, hand, cup, bids):
    """A decision's stdin (README: What a bot gets)."""
    lines = [
        f"seat {seat}",
        "dice " + " ".join(str(d) for d in dice),
        f"wild {1 if wild_ones else 0}",
        f"hand {hand}",
        "cup " + " ".join(str(d) for d in cup),
    ]
    lines += [f"bid {s} {q} {f}" for (s, q, f) in bids]
    return ("\n".join(lines) + "\n").encode()


def table(hand, dice, cups, bids, wild_ones, ended=None):
    """The state the replay's viewer draws: every cup (a replay is watched after the game),
    the dice each seat has left, the hand's bids as [seat, count, face], and how the hand
    ended (`loser`, who called or failed, and the count a call found)."""
    state = {
        "hand": hand,
        "dice": list(dice),
        "cups": [list(c) for c in cups],
        "bids": [list(b) for b in bids],
        "wild_ones": wild_ones,
    }
    if ended is not None:
        state["ended"] = ended
    return state


def first_opener(seats, round_, paired):
    """Who opens the first hand: seat 0 in a paired run (koth rotates the bots through the
    seats), else the seats take turns by round, so that no bot always opens."""
    return 0 if paired else round_ % seats


def play(names, round_, paired, opts, host):
    """Play one match of `names` (one bot per seat). Returns (scores, winners, detail)."""
    n = len(names)
    dice = [opts.dice] * n
    out = []  # seats in the order they lost their last die
    hands = decisions = calls = failures = 0
    history = []  # one line per finished hand (README: The history file)
    opener = first_opener(n, round_, paired)
    rule = "ones wild" if opts.wild_ones else "no wild dice"
    host.log(
        "Liar's Dice: "
        + ", ".join(f"{b} (seat {s})" for s, b in enumerate(names))
        + f"; {opts.dice} dice each, {rule}, "
        + ("the loser opens the next hand" if opts.starter == "loser" else "the opener moves on")
    )
    while sum(1 for d in dice if d > 0) > 1:
        hands += 1
        rolled = roll(host, n, opts.dice)
        cups = [sorted(rolled[s][: dice[s]]) for s in range(n)]
        total = sum(dice)
        host.log(
            f"Hand {hands}: "
            + ", ".join(
                f"{names[s]} [{' '.join(map(str, cups[s]))}]" for s in range(n) if dice[s] > 0
            )
            + f"; {names[opener]} opens"
        )
        bids = []
        record = [f"hand {hands}", f"opener {opener}"]
        seat = opener
        while True:
            host.write_file(seat, HISTORY, "".join(history).encode())
            report = host.decide(
                seat, render_stdin(seat, dice, opts.wild_ones, hands, cups[seat], bids)
            )
            decisions += 1
            last = bids[-1][1:] if bids else None
            who = names[seat]
            failure = None
            if not report.ok:
                failure = (report.kind, f"the invocation ended with {report.outcome}")
            else:
                try:
                    answer = parse_answer(report.stdout, last, total, opts.wild_ones)
                except BadAnswer as e:
                    failure = ("bad answer", str(e))
            if failure is not None:
                # README: Failures. The hand ends; no dice are shown.
                failures += 1
                loser = seat
                record.append(f"fail {seat}")
                events = [f"{who} fails ({failure[0]}: {failure[1]}) and forfeits the hand"]
                answer_text = ""
            elif answer[0] == "bid":
                bids.append((seat, answer[1], answer[2]))
                record.append(f"bid {seat} {answer[1]} {answer[2]}")
                line = f"{who} bids {quantity(answer[1], answer[2])}"
                host.judge(f"bid {answer[1]} {answer[2]}", None, [line])
                host.show(table(hands, dice, cups, bids, opts.wild_ones))
                host.log("  " + line)
                seat = next_seat(dice, seat)
                continue
            else:
                # README: Calls.
                calls += 1
                bidder, q, face = bids[-1]
                c = count(cups, face, opts.wild_ones)
                loser = bidder if c < q else seat
                record += [f"liar {seat}", f"count {c}"]
                ones = " counting ones" if opts.wild_ones and face != 1 else ""
                verdict = "the bid stands" if c >= q else "the bid was a lie"
                events = [
                    f"{who} calls {names[bidder]}'s bid of {quantity(q, face)} a lie",
                    "cups: "
                    + ", ".join(
                        f"{names[s]} {''.join(map(str, cups[s]))}" for s in range(n) if dice[s] > 0
                    ),
                    f"{quantity(c, face)} on the table{ones}: {verdict}",
                ]
                answer_text = "liar"
            dice[loser] -= 1
            record.append(f"loser {loser}")
            if failure is None:
                record.append(
                    "cups " + " ".join("".join(map(str, c)) if c else "-" for c in cups)
                )
            events.append(
                f"{names[loser]} loses a die ({dice[loser]} left); dice now "
                + " ".join(map(str, dice))
            )
            if dice[loser] == 0:
                out.append(loser)
                events.append(f"{names[loser]} is out")
            host.judge(answer_text, failure, events)
            ended = {"loser": loser, "by": seat, "call": failure is None}
            if failure is None:
                ended["count"] = c
            host.show(table(hands, dice, cups, bids, opts.wild_ones, ended))
            for e in events:
                host.log("  " + e)
            history.append(" ".join(record) + "\n")
            break
        # README: Hands.
        if opts.starter == "loser" and dice[loser] > 0:
            opener = loser
        elif opts.starter == "loser":
            opener = next_seat(dice, loser)
        else:
            opener = next_seat(dice, opener)
    winner = next(s for s in range(n) if dice[s] > 0)
    # README: Scoring. The k-th seat out (from 0) scores k; the winner n - 1.
    scores = [0] * n
    for k, s in enumerate(out):
        scores[s] = k
    scores[winner] = n - 1
    host.log(
        f"{names[winner]} wins after {hands} hands; out in order: "
        + ", ".join(names[s] for s in out)
        + "; points "
        + ", ".join(f"{names[s]} {scores[s]}" for s in range(n))
    )
    detail = {
        "winner": winner,
        "out": out,
        "hands": hands,
        "decisions": decisions,
        "calls": calls,
        "failures": failures,
        "dice_left": dice,
    }
    return scores, [winner], json.dumps(detail, separators=(",", ":"))
