"""The game manager: what a turn-based referee does around its rules, written once.

`Manager.ask` asks a seat for a decision and reads the answer with the game's own parser.
Where the bot fails (a crash, a limit, an answer the rules refuse) it takes the game's default
move, tells koth the failure (counted on the leaderboard, explained in the replay), counts it,
and takes the seat out of the game past a limit of failures, if the game sets one.
`Manager.ask_all` plays simultaneous moves: every seat still in the game decides before any
move is applied. It knows nothing of the game: `read` and `default` are the game's.

The host is the object `game.play` gets (see game.py): `decide(seat, stdin) -> Report`,
`judge(answer, failure, events)` and `log(line)`.
"""


class BadAnswer(Exception):
    """An answer the rules do not allow; the message says why, for the bot's author."""


class Decision:
    """One decision as the manager read it: the seat, the move taken (the bot's, or the
    default), the answer to record (empty where the bot failed), the failure as
    `(kind, detail)` or None, and whether it took the seat out of the game."""

    def __init__(self, seat, value, answer, failure, deactivated):
        self.seat = seat
        self.value = value
        self.answer = answer
        self.failure = failure
        self.deactivated = deactivated

    def events(self, more=()):
        """The manager's own events (the failure, the seat leaving), then `more`."""
        out = []
        if self.failure is not None:
            out.append(f"seat {self.seat} fails ({self.failure[0]}: {self.failure[1]})")
        if self.deactivated:
            out.append(f"seat {self.seat} is out of the game")
        out.extend(more)
        return out


class Manager:
    """A match's seats: their failures so far and who is still in the game."""

    def __init__(self, seats, deactivate_after=None, default_note="the game's default move is taken"):
        self.failures = [0] * seats
        self.active = [True] * seats
        self.limit = deactivate_after
        self.default_note = default_note

    def is_active(self, seat):
        return 0 <= seat < len(self.active) and self.active[seat]

    def deactivate(self, seat):
        """Take `seat` out of the game (the rules' own reason: it lost, it folded)."""
        if 0 <= seat < len(self.active):
            self.active[seat] = False

    def ask(self, host, seat, stdin, read, default):
        """One decision of `seat`, not yet judged (judge it with `decision.events(...)`).

        `read(stdout)` returns the move and the answer to record, or raises BadAnswer; where
        the bot failed, the move is `default`.
        """
        report = host.decide(seat, stdin)
        failure = None
        if not report.ok:
            failure = (report.kind, f"{report.outcome}; {self.default_note}")
        else:
            try:
                value, answer = read(report.stdout)
                return Decision(seat, value, answer, None, False)
            except BadAnswer as e:
                failure = ("bad answer", f"{e}; {self.default_note}")
        self.failures[seat] += 1
        deactivated = False
        if self.limit is not None and self.failures[seat] >= self.limit and self.active[seat]:
            self.active[seat] = False
            deactivated = True
        return Decision(seat, default, "", failure, deactivated)

    def ask_all(self, host, stdin_of, read, default_of, resolve):
        """Simultaneous moves: every seat in the game decides on `stdin_of(seat)`, in seat
        order, before any move is applied. Each decision is judged as it is read;
        `resolve(moves)` applies the moves (it may change them) and returns the events the
        last decision's verdict carries. A seat out of the game is not asked: its move is
        `default_of(seat)`. Returns each seat's move."""
        moves = []
        last = None
        for seat in range(len(self.active)):
            if not self.active[seat]:
                moves.append(default_of(seat))
                continue
            if last is not None:
                host.judge(last.answer, last.failure, last.events())
            last = self.ask(host, seat, stdin_of(seat), read, default_of(seat))
            moves.append(last.value)
        events = resolve(moves)
        if last is not None:
            host.judge(last.answer, last.failure, last.events(events))
        else:
            for e in events:
                host.log(e)
        return moves
