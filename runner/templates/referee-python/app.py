"""{{title}} as a koth referee: a component of the world `koth:game/referee-with-pages@0.1.0`
(wit/referee.wit), built with componentize-py (see README.md).

This file tells koth what the game is (seats, formats, options, scoring) and translates
between koth's types and `game`, which holds the rules.
"""

import json

from wit_world import exports
from wit_world.imports import host
from wit_world.imports import types as t

import game

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
        return f"exit status {o.value}"
    if isinstance(o, t.Outcome_Trap):
        return f"trap: {o.value}"
    return next((kind for cls, kind in KINDS if isinstance(o, cls)), "ok")


class KothHost:
    """koth's host imports, in the shape `game` plays through."""

    def decide(self, seat, stdin):
        r = host.decide(t.DecisionRequest(seat=seat, phase="move", args=[], stdin=stdin))
        kind = next((k for cls, k in KINDS if isinstance(r.outcome, cls)), None)
        return game.Report(kind is None, kind, outcome_text(r.outcome), r.stdout)

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


class Game(exports.Game):
    def describe(self):
        return t.Description(
            name="{{game}}",
            summary="the iterated Prisoner's Dilemma: cooperate or defect, turn after turn",
            seating=t.Seating_Fixed(2),
            seat_names=[],
            teams=[],
            partners=[],
            # Every pair of bots once per round (the game is symmetric).
            formats=[t.Format.TABLES],
            rounds=1,
            paired=False,
            # Each seat's folder: room for the history file and the bot's own notes.
            directory=t.Directory(bytes=64 * 1024, nodes=16),
            options=[
                t.OptionSpec(name="turns", description="turns per match",
                             default=t.Value_Integer(100), min=1, max=1000, choices=[]),
                t.OptionSpec(name="noise", description="chance in percent that a move is flipped",
                             default=t.Value_Integer(0), min=0, max=50, choices=[]),
            ],
            scoring=t.Scoring(score_name="points", matches="matches", spread=True, points=False),
        )

    def play(self, setup):
        values = {name: v.value for name, v in setup.options}
        names = [s.bot for s in setup.seats]
        scores, winners, detail = game.play(names, values["turns"], values["noise"], KothHost())
        return t.MatchResult(
            seats=[t.SeatResult(score=s, points_for=0, points_against=0) for s in scores],
            winners=winners,
            detail=detail,
        )


# What `koth check` prints for bot authors (the README's protocol, in short).
PROTOCOL = """\
One decision per invocation. Its stdin is `turn T of N`; its folder holds `history.txt`,
one line per turn played so far, its own move first (`C D`: it cooperated, the other
defected). It prints `C` or `D` on the first line of stdout and exits 0. Anything else
(a crash, running out of fuel, another answer) defects that turn and is counted
against it.
"""


class Pages(exports.Pages):
    """The optional pages: the protocol above, and no viewer of its own (the replay draws
    the states with koth's `prisoners-dilemma` viewer, which they name)."""

    def protocol(self):
        return PROTOCOL

    def viewer(self):
        return ""
