"""{{name}}: a Coup bot for koth, as a plain Python 3 script.

koth runs it once per decision inside CPython 3.12 for WASI (standard library only), as
`python {{name}}.py HISTORY OPPONENT_COINS MY_COINS MY_CARDS LEGAL...`:

  HISTORY   the history file's name, in the current folder: one line per turn, the actor's
            letter (I F C E A S T) then the players' answers (blocks d a c s, challenge q,
            pass p, revealed cards ~ ^ * ! $, cards given up _ ' < = 0)
  MY_CARDS  our cards as ~ ^ * ! $ (Ambassador, Assassin, Captain, Contessa, Duke); n + 2 of
            them while we finish an Exchange: then we print the n we keep on stdout
  LEGAL     every legal move, one per argument ("I\\n" and a card given up with the newline
            that ends the turn are two characters)

We append exactly one legal move to the history file and exit 0; anything else forfeits the
game. Every move written is copied from LEGAL, so a strategy mistake can make a bad move but
never an illegal one. Put your strategy in `choose`.

The strategy to start from is honest: claim only cards we hold, challenge only a claim the
visible cards prove false, Coup at 7 coins, give up the least useful card first.
"""
import sys

REVEAL = "~^*!$"  # Ambassador, Assassin, Captain, Contessa, Duke
LOSE = "_'<=0"  # the same cards, as written when given up
# How much we want to keep each card (higher is kept longer): the Duke's Tax is the
# steadiest income, the Ambassador only reshuffles.
VALUE = {"~": 1, "^": 4, "*": 3, "!": 2, "$": 5}
# The card each action (upper case) or block (lower case) claims.
CLAIM = {"E": "~", "a": "~", "A": "^", "S": "*", "c": "*", "s": "!", "T": "$", "d": "$"}


def lost_cards(history):
    """Every card given up so far, by either player (they are face up for good)."""
    return [REVEAL[LOSE.index(c)] for c in history if c in LOSE]


def choose(history, my_coins, hand, legal):
    """The move to append: always one of `legal`."""
    last = history[-1] if history else "\n"
    lost = lost_cards(history)

    def pick(*wanted):
        return next((w for w in wanted if w in legal), None)

    def lying(claim):
        # All three copies of the claimed card are in sight: the opponent cannot hold one.
        card = CLAIM.get(claim)
        return card is not None and hand.count(card) + lost.count(card) >= 3

    def give_up():
        losing = [m for m in legal if m and m[0] in LOSE]
        return min(losing, key=lambda m: VALUE[REVEAL[LOSE.index(m[0])]], default=None)

    if last == "\n":  # our turn begins
        if my_coins >= 7:
            return pick("C")
        for card, action in (("^", "A"), ("$", "T"), ("*", "S")):
            if card in hand and action in legal:
                return action
        return pick("I\n")
    if last == "F":  # Foreign Aid: block it only with a real Duke
        return pick("d" if "$" in hand else "p")
    if last in "TES":  # a claim: block a Steal with a real card, challenge a provable lie
        if last == "S" and "*" in hand:
            return pick("c")
        if last == "S" and "~" in hand:
            return pick("a")
        return pick("q" if lying(last) else "p")
    if last == "A":  # Assassination: a real Contessa blocks; losing our last card anyway, challenge
        if "!" in hand:
            return pick("s")
        return pick("q") if lying("A") or len(hand) == 1 else give_up()
    if last in "acds":  # our action was blocked
        return pick("q" if lying(last) else "\n")
    if last == "q":  # we were challenged: revealing (the only legal move if we can) wins
        return legal[0] if len(legal) == 1 else give_up()
    if last in REVEAL or last == "C":  # lost a challenge, or Couped
        return give_up()
    return None


def main():
    if len(sys.argv) < 6:
        sys.exit("{{name}}: expected a file, two coin counts, cards and legal moves")
    path, my_coins, cards, legal = sys.argv[1], int(sys.argv[3]), sys.argv[4], sys.argv[5:]
    exchanging = len(cards) > 2
    with open(path) as f:
        history = f.read()
    move = choose(history, my_coins, "" if exchanging else cards, legal)
    if move not in legal:
        move = legal[0]  # always legal
    if exchanging:
        # Keep the most useful of the offered cards; print them before ending the turn.
        keep = sorted(cards, key=lambda c: VALUE.get(c, 0), reverse=True)[: len(cards) - 2]
        sys.stdout.write("".join(keep))
        sys.stdout.flush()
    with open(path, "a") as f:
        f.write(move)


main()
