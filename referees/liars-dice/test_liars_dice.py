"""Rule cases of the Liar's Dice referee, run natively with a fake host:

    python3 -B -m unittest test_liars_dice        (in referees/liars-dice)

tests/tests/liars_dice.rs runs them too. Each case names the rule of README.md it checks.
"""

import json
import random
import unittest

import liars_dice as ld


class FakeHost:
    """koth's host as `liars_dice` sees it: each seat a function from its stdin (and its files)
    to stdout, or to a failed Report; the random stream seeded; everything recorded."""

    def __init__(self, players, seed=1, stream=None):
        self.players = players
        self.rng = random.Random(seed)
        self.stream = stream  # fixed random bytes, given in order
        self.files = [dict() for _ in players]
        self.decisions = []  # (seat, stdin text)
        self.verdicts = []  # (answer, failure, events)
        self.states = []  # what `show` got after each verdict
        self.lines = []

    def decide(self, seat, stdin):
        text = stdin.decode()
        self.decisions.append((seat, text))
        got = self.players[seat](text, self.files[seat])
        if isinstance(got, ld.Report):
            return got
        return ld.Report(True, "ok", "ok", got.encode() if isinstance(got, str) else got)

    def judge(self, answer, failure, events):
        assert len(self.verdicts) == len(self.decisions) - 1, "one verdict per decision"
        self.verdicts.append((answer, failure, events))

    def show(self, state):
        assert len(self.states) == len(self.verdicts) - 1, "one state per verdict"
        json.dumps(state)  # what koth gets must be JSON
        self.states.append(state)

    def log(self, line):
        self.lines.append(line)

    def write_file(self, seat, name, data):
        self.files[seat][name] = data

    def random(self, n):
        if self.stream is not None:
            out, self.stream = self.stream[:n], self.stream[n:]
            return out
        return bytes(self.rng.randrange(256) for _ in range(n))


def parse(stdin):
    """A decision's stdin as a dict; bids as a list of (seat, q, face)."""
    state = {"bid": []}
    for line in stdin.splitlines():
        w = line.split()
        if w[0] == "bid":
            state["bid"].append(tuple(map(int, w[1:])))
        else:
            state[w[0]] = list(map(int, w[1:]))
    return state


def caller(stdin, files):
    """Opens with 1 two and calls any bid."""
    return "liar" if parse(stdin)["bid"] else "bid 1 2"


def raiser(stdin, files):
    """Opens with 1 two and raises any bid by one die of the same face."""
    s = parse(stdin)
    if not s["bid"]:
        return "bid 1 2"
    _, q, f = s["bid"][-1]
    return f"bid {q + 1} {f}"


def crasher(stdin, files):
    return ld.Report(False, "exit", "exit(3)", b"")


def dice_bytes(*faces):
    """Random bytes that roll exactly these faces (a byte b gives b % 6 + 1)."""
    return bytes(f - 1 for f in faces)


class Answers(unittest.TestCase):
    """README: Answers and Bids."""

    def bad(self, text, last=None, total=15, wild=True):
        with self.assertRaises(ld.BadAnswer) as e:
            ld.parse_answer(text.encode(), last, total, wild)
        return str(e.exception)

    def test_a_bid_and_a_call_are_read_from_the_first_line(self):
        self.assertEqual(ld.parse_answer(b"  bid 3 4 \r\nignored", None, 15, True), ("bid", 3, 4))
        self.assertEqual(ld.parse_answer(b"liar\n", (3, 4), 15, True), ("liar",))

    def test_a_raise_needs_more_dice_or_a_higher_face(self):
        self.assertEqual(ld.parse_answer(b"bid 3 5", (3, 4), 15, True), ("bid", 3, 5))
        self.assertEqual(ld.parse_answer(b"bid 4 2", (3, 4), 15, True), ("bid", 4, 2))
        self.assertIn("does not raise 3 4", self.bad("bid 3 4", (3, 4)))
        self.assertIn("does not raise 3 4", self.bad("bid 3 3", (3, 4)))
        self.assertIn("does not raise 3 4", self.bad("bid 2 6", (3, 4)))

    def test_ones_may_be_bid_only_when_they_are_not_wild(self):
        self.assertIn("ones are wild", self.bad("bid 2 1"))
        self.assertEqual(ld.parse_answer(b"bid 2 1", None, 15, False), ("bid", 2, 1))
        self.assertIn("face 7", self.bad("bid 2 7", wild=False))

    def test_a_quantity_is_within_the_dice_in_play(self):
        self.assertIn("not one of 1..7", self.bad("bid 8 6", total=7))
        self.assertIn("not one of 1..15", self.bad("bid 0 6"))
        self.assertEqual(ld.parse_answer(b"bid 7 6", None, 7, True), ("bid", 7, 6))

    def test_the_first_decision_of_a_hand_cannot_call(self):
        self.assertIn("no bid to call", self.bad("liar"))

    def test_anything_else_is_a_bad_answer(self):
        for text in ["", "\n", "LIAR", "bid 3", "bid three 4", "bid 3 4 5", "bid -3 4",
                     "bid ²3 4", "raise 3 4", "3 4"]:
            self.bad(text, (2, 2))
        with self.assertRaises(ld.BadAnswer) as e:
            ld.parse_answer(b"\xff\xfe", None, 15, True)
        self.assertIn("not UTF-8", str(e.exception))


class Counting(unittest.TestCase):
    """README: Calls."""

    def test_ones_count_for_the_bid_face_only_when_wild(self):
        cups = [[1, 4, 4], [1, 1, 2], [6]]
        self.assertEqual(ld.count(cups, 4, True), 5)
        self.assertEqual(ld.count(cups, 4, False), 2)
        self.assertEqual(ld.count(cups, 1, False), 3)


class Dice(unittest.TestCase):
    """README: Dice."""

    def test_every_seat_rolls_a_full_set_and_high_bytes_are_skipped(self):
        host = FakeHost([caller] * 2, stream=bytes([0, 252, 5, 255, 6, 11, 1]))
        self.assertEqual(ld.roll(host, 2, 2), [[1, 6], [1, 6]])
        self.assertEqual(host.stream, bytes([1]), "only the bytes it needed")


def play(players, opts=None, round_=0, paired=False, **host_args):
    host = FakeHost(players, **host_args)
    result = ld.play([f"p{i}" for i in range(len(players))], round_, paired,
                     opts or ld.Options(), host)
    return result, host


class Matches(unittest.TestCase):
    def test_a_call_on_a_true_bid_costs_the_caller_a_die(self):
        # README: Calls. Hand 1: p0 has 2 2, p1 has 1 5, p2 has 2 6 (2 dice each). p0 bids
        # 1 two; p1 calls: 4 twos counting p1's one: the bid stands, p1 loses a die.
        rolls = dice_bytes(2, 2, 1, 5, 2, 6)
        (scores, winners, detail), host = play(
            [caller, caller, caller], ld.Options(dice=2), stream=rolls + bytes(600))
        answer, failure, events = host.verdicts[1]
        self.assertEqual(answer, "liar")
        self.assertIsNone(failure)
        self.assertIn("4 twos on the table counting ones: the bid stands", events)
        self.assertIn("p1 loses a die (1 left); dice now 2 1 2", events)

    def test_every_decision_shows_the_table_after_it(self):
        # The same hand as above: p0 bids 1 two, p1 calls and loses a die.
        rolls = dice_bytes(2, 2, 1, 5, 2, 6)
        _, host = play([caller, caller, caller], ld.Options(dice=2), stream=rolls + bytes(600))
        self.assertEqual(len(host.states), len(host.verdicts))
        bid, call = host.states[0], host.states[1]
        self.assertEqual(bid["cups"], [[2, 2], [1, 5], [2, 6]])
        self.assertEqual(bid["bids"], [[0, 1, 2]])
        self.assertEqual(bid["dice"], [2, 2, 2])
        self.assertNotIn("ended", bid)
        self.assertEqual(call["dice"], [2, 1, 2])
        self.assertEqual(call["ended"], {"loser": 1, "by": 1, "call": True, "count": 4})
        self.assertEqual(host.states[-1]["dice"].count(0), 2, "the game ends with one player")

    def test_a_call_on_a_lie_costs_the_bidder_a_die(self):
        # No wild ones: p0 bids 1 two, p1 raises to 2 twos, p2 calls: 1 two (p0's).
        rolls = dice_bytes(2, 3, 1, 5, 4, 6)
        _, host = play([raiser, raiser, caller], ld.Options(dice=2, wild_ones=False),
                       stream=rolls + bytes(600))
        events = host.verdicts[2][2]
        self.assertIn("1 two on the table: the bid was a lie", events)
        self.assertIn("p1 loses a die (1 left); dice now 2 1 2", events)

    def test_the_loser_opens_the_next_hand_or_the_opener_moves_on(self):
        # README: Hands. Every call in these games is p1's on p0's opening bid.
        rolls = dice_bytes(2, 2, 2, 2, 2, 2) * 2
        _, host = play([caller] * 3, ld.Options(dice=2), stream=rolls + bytes(600))
        openers = [seat for (seat, stdin) in host.decisions if "bid" not in stdin]
        self.assertEqual(openers[:2], [0, 1], "p1 lost hand 1, so it opens hand 2")
        _, host = play([caller] * 3, ld.Options(dice=2, starter="next"),
                       stream=rolls + bytes(600))
        openers = [seat for (seat, stdin) in host.decisions if "bid" not in stdin]
        self.assertEqual(openers[:3], [0, 1, 2])

    def test_the_first_opener_takes_turns_by_round_unless_paired(self):
        for round_, paired, first in [(0, False, 0), (1, False, 1), (5, False, 2), (4, True, 0)]:
            _, host = play([caller] * 3, round_=round_, paired=paired)
            self.assertEqual(host.decisions[0][0], first, (round_, paired))

    def test_a_failed_decision_forfeits_the_hand_without_a_reveal(self):
        # README: Failures.
        (scores, winners, detail), host = play([crasher, caller, caller], ld.Options(dice=2))
        answer, failure, events = host.verdicts[0]
        self.assertEqual((answer, failure[0]), ("", "exit"))
        self.assertIn("the invocation ended with exit(3)", failure[1])
        self.assertFalse(any(e.startswith("cups") for e in events))
        self.assertIn("p0 loses a die (1 left); dice now 1 2 2", events)
        # The loser opens again, fails again and is out first: it scores 0.
        self.assertEqual(host.decisions[1][0], 0)
        self.assertEqual(scores[0], 0)
        self.assertNotIn(0, winners)
        self.assertEqual(json.loads(detail)["out"][0], 0)

    def test_a_bad_answer_is_named_and_counted(self):
        def babbler(stdin, files):
            return "I raise you a dollar"
        _, host = play([babbler, caller, caller], ld.Options(dice=1))
        answer, failure, events = host.verdicts[0]
        self.assertEqual(failure[0], "bad answer")
        self.assertIn("'I raise you a dollar' is neither `bid QUANTITY FACE` nor `liar`",
                      failure[1])

    def test_the_history_file_tells_every_finished_hand(self):
        # README: The history file. Hand 1 ends with a call, hands 2 and 3 with p2's failures
        # (no cups shown), which put it out; p1 sees all three before its decision in hand 4.
        rolls = dice_bytes(2, 2, 1, 5, 2, 6) + dice_bytes(3, 3, 3, 3, 3, 3)
        _, host = play([caller, caller, crasher], ld.Options(dice=2), stream=rolls + bytes(600))
        history = host.files[1]["history.txt"].decode().splitlines()
        self.assertEqual(history[:3], [
            "hand 1 opener 0 bid 0 1 2 liar 1 count 4 loser 1 cups 22 15 26",
            "hand 2 opener 1 bid 1 1 2 fail 2 loser 2",
            "hand 3 opener 2 fail 2 loser 2",
        ])

    def test_scores_follow_the_order_seats_went_out(self):
        # README: Scoring.
        (scores, winners, detail), host = play([caller, raiser, crasher], ld.Options(dice=3))
        d = json.loads(detail)
        self.assertEqual(d["out"][0], 2, "the crasher is out first")
        self.assertEqual(len(d["out"]), 2)
        self.assertEqual(sorted(scores), [0, 1, 2])
        self.assertEqual(scores[winners[0]], 2)
        self.assertEqual(d["dice_left"][winners[0]] > 0, True)
        self.assertEqual(sum(d["dice_left"]), d["dice_left"][winners[0]])
        self.assertEqual(len(host.verdicts), len(host.decisions))
        self.assertEqual(d["decisions"], len(host.decisions))

    def test_a_match_is_a_function_of_its_random_stream(self):
        a = play([raiser, caller, raiser], seed=7)
        b = play([raiser, caller, raiser], seed=7)
        self.assertEqual(a[0], b[0])
        self.assertEqual(a[1].lines, b[1].lines)


if __name__ == "__main__":
    unittest.main()
