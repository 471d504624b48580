"""odds: a Liar's Dice player that trusts the binomial distribution (a plain Python 3 script).

koth runs it inside CPython built for WASI:  koth play liars_dice_referee.wasm odds.py ...
It runs unchanged under a native python3 too:  python3 odds.py < decision.txt

Input on stdin (see referees/liars-dice/README.md): `seat S`, `dice D0 D1 D2`, `wild 0|1`,
`hand H`, `cup ...` (our dice), then `bid SEAT QUANTITY FACE` for each bid of this hand.
Answer on stdout: `bid QUANTITY FACE` or `liar`.

Strategy: every die we cannot see shows a given face with probability 1/6, or 1/3 when ones
are wild. Call the last bid a lie when it is less than 40% likely; otherwise make the raise
most likely to be true (the smallest one among equals), unless even that is below 30%, in
which case calling is the better bet. It never bluffs and keeps no notes.
"""
import math
import sys


def at_least(k, n, p):
    """P(X >= k) for X ~ Binomial(n, p)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


def main():
    state = {"bid": []}
    for line in sys.stdin.read().splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "bid":
            state["bid"].append(tuple(int(w) for w in words[1:4]))
        else:
            state[words[0]] = [int(w) for w in words[1:]]
    wild = state["wild"][0] == 1
    cup = state["cup"]
    total = sum(state["dice"])
    unseen = total - len(cup)
    p = 1 / 3 if wild else 1 / 6

    def likely(q, face):
        mine = sum(1 for d in cup if d == face or (wild and d == 1))
        return at_least(q - mine, unseen, p)

    last = state["bid"][-1][1:] if state["bid"] else None
    if last is not None and likely(*last) < 0.4:
        print("liar")
        return
    best = None
    for face in range(2 if wild else 1, 7):
        for q in range(1, total + 1):
            if last is not None and (q, face) <= last:
                continue
            chance = likely(q, face)
            # Strictly better only: among equals the first found is the smallest raise.
            if best is None or chance > best[0] + 1e-12 or (
                abs(chance - best[0]) <= 1e-12 and (q, face) < best[1]
            ):
                best = (chance, (q, face))
            break  # higher quantities of this face are less likely
    if best is None or (last is not None and best[0] < 0.3):
        print("liar")
    else:
        print(f"bid {best[1][0]} {best[1][1]}")


main()
