"""The Liar's Dice referee as a koth plugin: a component of the world
`koth:game/referee-with-pages@0.1.0` (wit/referee.wit), built with componentize-py (see README.md).

This file only translates between koth's types and `liars_dice`, which holds the rules.
"""

import json

from wit_world import exports
from wit_world.imports import host
from wit_world.imports import types as t

import liars_dice

# How koth names each way an invocation can fail, as the leaderboard counts them.
KINDS = [
    (t.Outcome_Exit, "exit"),
    (t.Outcome_Trap, "trap"),
    (t.Outcome_OutOfFuel, "fuel"),
    (t.Outcome_OutOfMemory, "memory"),
    (t.Outcome_OutputLimit, "output"),
    (t.Outcome_LimitExceeded, "limit"),
]


def outcome_text(o):
    if isinstance(o, t.Outcome_Exit):
        return f"exit({o.value})"
    if isinstance(o, t.Outcome_Trap):
        return f"trap({o.value})"
    for cls, kind in KINDS:
        if isinstance(o, cls):
            return {"fuel": "out of fuel", "memory": "out of memory",
                    "output": "output limit", "limit": "limit exceeded"}.get(kind, kind)
    return "ok"


class KothHost:
    """koth's host imports, in the shape `liars_dice` plays through."""

    def decide(self, seat, stdin):
        r = host.decide(t.DecisionRequest(seat=seat, phase="bid", args=[], stdin=stdin))
        ok = isinstance(r.outcome, t.Outcome_Ok)
        kind = next((k for cls, k in KINDS if isinstance(r.outcome, cls)), "ok")
        return liars_dice.Report(ok, kind, outcome_text(r.outcome), r.stdout)

    def judge(self, answer, failure, events):
        f = None if failure is None else t.Failure(kind=failure[0], detail=failure[1])
        host.judge(t.Verdict(answer=answer, failure=f, events=events))

    def show(self, state):
        host.show(json.dumps(state, separators=(",", ":"), allow_nan=False))

    def log(self, line):
        host.log(line)

    def write_file(self, seat, name, data):
        host.write_file(seat, name, data)

    def random(self, n):
        return host.random(n)


def option(spec_name, description, default, lo=None, hi=None, choices=()):
    return t.OptionSpec(name=spec_name, description=description, default=default,
                        min=lo, max=hi, choices=list(choices))


class Game(exports.Game):
    def describe(self):
        return t.Description(
            name="liars-dice",
            summary="Liar's Dice for three: bid on the dice under every cup, call a bid a "
                    "lie, lose a die when wrong; the last with dice wins",
            seating=t.Seating_Fixed(3),
            seat_names=[],
            teams=[],
            partners=[],
            formats=[t.Format.TABLES],
            rounds=30,
            paired=True,
            # Room for the history file (a few KiB at most) and the bot's own notes.
            directory=t.Directory(bytes=64 * 1024, nodes=16),
            options=[
                option("dice", "dice each player starts with", t.Value_Integer(5), 1, 8),
                option("wild-ones", "ones count as every face, and no bid may name them",
                       t.Value_Flag(True)),
                option("starter", "who opens each hand after the first: the player who "
                       "just lost a die, or the next player after the last opener",
                       t.Value_Text("loser"), choices=["loser", "next"]),
            ],
            scoring=t.Scoring(score_name="points", matches="games", spread=True, points=False),
        )

    def play(self, setup):
        values = {name: v.value for name, v in setup.options}
        opts = liars_dice.Options(
            dice=values["dice"], wild_ones=values["wild-ones"], starter=values["starter"]
        )
        names = [s.bot for s in setup.seats]
        scores, winners, detail = liars_dice.play(
            names, setup.round, setup.paired, opts, KothHost()
        )
        return t.MatchResult(
            seats=[t.SeatResult(score=s, points_for=0, points_against=0) for s in scores],
            winners=winners,
            detail=detail,
        )


# What `koth check` prints for bot authors: README.md's "What a bot gets", in short.
PROTOCOL = """\
One decision per invocation (phase `bid`), no arguments. stdin, one item per line:
    seat S             your seat
    dice D0 D1 D2      dice left per seat, in seat order (0: out)
    wild 1             1 when ones are wild, else 0
    hand H             the hand's number, from 1
    cup A B C ...      your own dice, ascending
    bid S Q F          each bid of this hand so far, oldest first (none: you open)
Your directory lasts the whole game (64 KiB, 16 files and folders). Before each of your
decisions the referee writes `history.txt` there, one line per finished hand:
    hand H opener S bid S Q F ... liar S count C loser S cups CUP0 CUP1 CUP2
    hand H opener S bid S Q F ... fail S loser S
Answer on the first line of stdout: `bid Q F` (a higher bid) or `liar`, and exit 0.
A crash, a limit or any other answer forfeits the hand: you lose a die.
"""


class Pages(exports.Pages):
    """The optional pages: the protocol above; the replay's board is koth's own
    `liars-dice` viewer."""

    def protocol(self):
        return PROTOCOL

    def viewer(self):
        return ""
