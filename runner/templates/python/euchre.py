"""{{name}}: a Euchre bot for koth, as a plain Python 3 script.

koth runs it once per decision inside CPython 3.12 for WASI (standard library only), with
the input on stdin, one item a line: the hand (`js,ah,qc,ts,9h`: rank 9 t j q k a, suit
c d h s), the team's points, the team's tricks this hand, the phase, then the phase's lines:

  ordering  the turned card; earlier answers        -> o (order up) or p (pass)
  naming    earlier answers                         -> p, or a suit other than the turned one
  discard   the card the dealer picks up            -> a card of the six
  alone     trump; earlier answers                  -> y or n
  turn      trump; the cards played in this trick   -> a legal card (`p` = player sitting out)
  trick     (empty hand) our index; trump; the four cards   -> nothing

It prints its answer on stdout; a bad answer or a failure gets the default (pass, the first
card, no, the first legal card). One file of at most 1 KiB (here `memory`) lasts the whole
game. Put your strategy in `decide`.

The strategy to start from is plain: bid with three trumps or more (bowers counted), never go
alone, let a partner's winning card stand, else win as cheaply as possible or throw the
lowest card.
"""
import sys

MEMORY = "memory"  # remembers the turned card's suit: the naming input does not repeat it
RANKS = "9tjqka"
OTHER_JACK = {"c": "s", "s": "c", "h": "d", "d": "h"}  # the same colour's other suit


def suit_of(card, trump):
    """The suit a card plays as: the left bower (the other jack of trump's colour) is trump."""
    if trump and card[0] == "j" and card[1] == OTHER_JACK[trump]:
        return trump
    return card[1]


def power(card, trump, led):
    """Strength in a trick: right bower 20, left 19, other trumps 14-18; the led suit 1-6."""
    if card == "j" + trump:
        return 20
    if suit_of(card, trump) == trump:
        return 19 if card[0] == "j" else 13 + "9tqka".index(card[0])
    return 1 + RANKS.index(card[0]) if card[1] == led else 0


def trumps(hand, trump):
    return sum(1 for c in hand if suit_of(c, trump) == trump)


def legal_plays(hand, trump, played):
    led = next((c for c in played if c != "p"), None)
    if led is None:
        return hand
    follow = [c for c in hand if suit_of(c, trump) == suit_of(led, trump)]
    return follow or hand


def remember(text):
    try:
        with open(MEMORY, "w") as f:
            f.write(text)
    except OSError:  # a full quota only costs the memory, never the game
        pass


def recall():
    try:
        with open(MEMORY) as f:
            return f.read()
    except OSError:
        return ""


def decide(hand, phase, lines):
    if phase == "ordering":
        turned = lines[0]
        remember(turned[1])
        return "o" if trumps(hand, turned[1]) >= 3 else "p"
    if phase == "naming":
        suits = [s for s in "cdhs" if s != recall()]
        best = max(suits, key=lambda s: trumps(hand, s))
        return best if trumps(hand, best) >= 3 else "p"
    if phase == "discard":
        trump = lines[0][1]
        six = hand + [lines[0]]
        return min(six, key=lambda c: power(c, trump, suit_of(c, trump)))
    if phase == "alone":
        return "n"
    if phase == "turn":
        trump = lines[0]
        played = lines[1].split(",") if len(lines) > 1 and lines[1] else []
        legal = legal_plays(hand, trump, played)
        cards = [c for c in played if c != "p"]
        if not cards:  # leading: the strongest card
            return max(legal, key=lambda c: power(c, trump, suit_of(c, trump)))
        led = suit_of(cards[0], trump)
        lowest = min(legal, key=lambda c: power(c, trump, led))
        # Our partner played two places before us: let its winning card stand.
        best = max(range(len(played)), key=lambda i: power(played[i], trump, led) if played[i] != "p" else -1)
        if len(played) >= 2 and best == len(played) - 2:
            return lowest
        top = power(played[best], trump, led)
        winners = [c for c in legal if power(c, trump, led) > top]
        return min(winners, key=lambda c: power(c, trump, led)) if winners else lowest
    return ""  # a trick report: nothing to say


def main():
    lines = sys.stdin.read().split("\n")
    hand = [c for c in lines[0].split(",") if c]
    print(decide(hand, lines[3], lines[4:]))


main()
